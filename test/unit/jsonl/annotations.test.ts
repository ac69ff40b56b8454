import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonlService } from '../../../server/src/jsonl';
import { parseAddress } from '../../../server/src/jsonl/dataset/address';
import { context, cut, describe, offsetOf, parse, problemsOf, spanOf } from './helpers';

const messages = '[{"role": "user", "content": "Say \\"hello\\"\\nthen wave"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "wave", "arguments": "{\\"hand\\": \\"left\\"}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": [{"type": "text", "text": "waved"}, {"type": "image_url", "image_url": {"url": "data:x"}}]}]';
const line = (annotations: string) => `{"messages": ${messages}, "annotations": [${annotations}]}`;
const note = (address: string, content = 'note') => `{"content": "${content}", "address": "${address}"}`;

test('addresses parse into path segments and ranges', () => {
  assert.deepEqual(parseAddress('messages.2.content.0.text:1-3'), {
    segments: [
      { key: 'messages', start: 0, end: 8 }, { key: '2', start: 9, end: 10 }, { key: 'content', start: 11, end: 18 },
      { key: '0', start: 19, end: 20 }, { key: 'text', start: 21, end: 25 },
    ],
    range: { kind: 'chars', start: 1, end: 3 },
    rangeStart: 26,
    rangeEnd: 29,
  });
  assert.deepEqual(parseAddress('messages[0].content:L2').segments.map((s) => s.key), ['messages', '0', 'content']);
  assert.deepEqual(parseAddress('messages[0].content:L2').range, { kind: 'line', line: 2 });
  assert.deepEqual(parseAddress('messages.2.content.1:bbox-1,2,30.5,40').range, { kind: 'bbox', box: [1, 2, 30.5, 40] });
  assert.equal(parseAddress('messages.0.content:abc').error?.message, "Cannot read 'abc' after ':': expected <start>-<end>, L<line> or bbox-x1,y1,x2,y2");
  assert.equal(parseAddress('messages..0').error?.message, "Empty part in address 'messages..0'");
});

test('valid addresses of every form raise no problem', () => {
  const text = line([
    note('messages.0.content:0-3'), note('messages[0].content:L1'), note('messages.1.tool_calls.0.function.arguments'),
    note('messages.1.tool_calls.0.function.arguments.hand'), note('messages.2.content.1:bbox-0,0,10,10'), note('messages.2'),
    '{"content": "x", "address": "messages.0", "extra_metadata": {"source": "guardrails-error"}}',
  ].join(', '));
  assert.deepEqual(problemsOf(text), []);
});

test('an address that names nothing says which part does not exist', () => {
  const text = line([note('messages.5.content'), note('messages.0.contnt'), note('messages.0.content.x'), note('messages.first')].join(', '));
  const problems = problemsOf(text);
  assert.deepEqual(describe(text, problems), [
    "jsonl/annotation-address \"5\" Address 'messages.5.content' names nothing: 'messages' has 3 items, so there is no index 5",
    "jsonl/annotation-address \"contnt\" Address 'messages.0.contnt' names nothing: 'messages.0' has no key 'contnt'",
    "jsonl/annotation-address \"x\" Address 'messages.0.content.x' names nothing: 'messages.0.content' is a string, it has no 'x'",
    "jsonl/annotation-address \"first\" Address 'messages.first' names nothing: 'messages' is a list, so 'first' must be an index",
  ]);
  assert.deepEqual(problems[0].span, spanOf(text, 'messages.5.content', 0, [9, 10]));
});

test('a character range past the end of its string gives the string length', () => {
  // Decoded content: `Say "hello"\nthen wave` is 21 characters.
  const text = line([note('messages.0.content:5-22'), note('messages.0.content:4-2'), note('messages.0.content:L2'), note('messages.2.content:0-1'), note('messages.0.content:0-21')].join(', '));
  assert.deepEqual(describe(text, problemsOf(text)), [
    "jsonl/annotation-range \"5-22\" Character range 5-22 runs past the end of 'messages.0.content' (length 21)",
    "jsonl/annotation-range \"4-2\" Character range 4-2 of 'messages.0.content' ends before it starts",
    "jsonl/annotation-range \"L2\" Line L2 does not exist: 'messages.0.content' has 2 lines (L0-L1)",
    "jsonl/annotation-range \"0-1\" A character range needs a string, but 'messages.2.content' is a list",
  ]);
});

test('malformed annotations are reported as Explorer words it', () => {
  const text = line(['{"content": "no address"}', '"text"', '{"address": 3, "content": "x"}', '{"address": "messages.0", "content": "x", "extra_metadata": []}'].join(', '));
  assert.deepEqual(describe(text, problemsOf(text)), [
    'jsonl/annotation-invalid "{" Failed to parse annotation: {"content": "no address"} (it has no "address")',
    'jsonl/annotation-invalid "\\"text\\"" Failed to parse annotation: "text" (an annotation is an object with "content" and "address")',
    'jsonl/annotation-invalid "{" Failed to parse annotation: {"address": 3, "content": "x"} ("address" must be a string)',
    'jsonl/annotation-invalid "{" Failed to parse annotation: {"address": "messages.0", "content": "x", "extra_metadata": []} ("extra_metadata" must be an object)',
  ]);
  const notList = `{"messages": [], "annotations": {"a": 1}}`;
  assert.deepEqual(describe(notList, problemsOf(notList)), [
    'jsonl/annotation-invalid "{\\"a\\": 1}" Failed to parse annotation: "annotations" must be a list of {"content", "address"} objects.',
  ]);
});

test('go to definition from an address lands exactly on what it names, through escapes', () => {
  const text = `{"metadata": {}}\n${line([note('messages.0.content:4-11'), note('messages[0].content:L1'), note('messages.1.tool_calls.0.function.name'), note('messages.1.tool_calls.0.function.arguments.hand'), note('messages.0.content:12-21')].join(', '))}`;
  const model = parse(text);
  const go = (address: string) => jsonlService.definition(model, offsetOf(text, address, 2)).map((t) => cut(text, t.span));
  // Decoded 4-11 is `"hello"`; in the source each quote is escaped.
  assert.deepEqual(go('messages.0.content:4-11'), ['\\"hello\\"']);
  assert.deepEqual(go('messages[0].content:L1'), ['then wave']);
  assert.deepEqual(go('messages.0.content:12-21'), ['then wave']);
  assert.deepEqual(go('messages.1.tool_calls.0.function.name'), ['"wave"']);
  // Inside JSON encoded in a string: the inner string value, mapped through both levels of escaping.
  assert.deepEqual(go('messages.1.tool_calls.0.function.arguments.hand'), ['\\"left\\"']);
});

test('hover on an address shows the annotated text; on a broken one, the problem', () => {
  const text = line([note('messages.0.content:4-11', 'quoted'), note('messages.0.content:L1'), note('messages.9')].join(', '));
  const model = parse(text);
  const first = jsonlService.hover(model, offsetOf(text, 'messages.0.content:4-11'), context);
  assert.deepEqual(first, {
    span: spanOf(text, '"messages.0.content:4-11"'),
    markdown: '**Annotation** on characters 4-11 of messages.0.content\n\n```text\n"hello"\n```\n\n> quoted',
  });
  assert.equal(jsonlService.hover(model, offsetOf(text, 'messages.0.content:L1'), context)?.markdown, '**Annotation** on line L1 of messages.0.content\n\n```text\nthen wave\n```\n\n> note');
  assert.equal(jsonlService.hover(model, offsetOf(text, 'messages.9'), context)?.markdown, "**Annotation address** `messages.9`\n\nAddress 'messages.9' names nothing: 'messages' has 3 items, so there is no index 9");
});

test('hover names a whole value, an image region and a value inside encoded JSON, with the text each annotates', () => {
  const addresses = ['messages.1.tool_calls.0.function.name', 'messages.2.content.1.image_url:bbox-1,2,3,4', 'messages.1.tool_calls.0.function.arguments.hand', 'messages.1.tool_calls.0.function'];
  const text = line(addresses.map((address) => note(address)).join(', '));
  const model = parse(text);
  const hover = (address: string) => jsonlService.hover(model, offsetOf(text, `"${address}"`) + 1, context)?.markdown;
  assert.equal(hover(addresses[0]), '**Annotation** on messages.1.tool_calls.0.function.name\n\n```text\nwave\n```\n\n> note');
  assert.equal(hover(addresses[1]), '**Annotation** on region 1,2,3,4 of messages.2.content.1.image_url\n\n```text\n{"url": "data:x"}\n```\n\n> note');
  assert.equal(hover(addresses[2]), '**Annotation** on messages.1.tool_calls.0.function.arguments.hand\n\n```text\nleft\n```\n\n> note');
  assert.equal(hover(addresses[3]), '**Annotation** on messages.1.tool_calls.0.function\n\n```text\n{"name": "wave", "arguments": "{\\"hand\\": \\"left\\"}"}\n```\n\n> note');
});

test('highlights and references connect an address with what it names', () => {
  const text = line([note('messages.0.content:0-3'), note('messages.0.content:0-3')].join(', '));
  const model = parse(text);
  const at = offsetOf(text, 'messages.0.content:0-3');
  assert.deepEqual(jsonlService.highlights(model, at).map((h) => [cut(text, h.span), h.kind]), [
    ['Say', 'write'], ['"messages.0.content:0-3"', 'read'], ['"messages.0.content:0-3"', 'read'],
  ]);
  assert.deepEqual(jsonlService.references(model, at, false).map((t) => t.span), [spanOf(text, '"messages.0.content:0-3"', 0), spanOf(text, '"messages.0.content:0-3"', 1)]);
});

test('address completion offers the keys and indexes at the typed path', () => {
  const text = line(note('messages.1.'));
  const model = parse(text);
  const items = jsonlService.completion(model, offsetOf(text, 'messages.1.', 'messages.1.'.length), context);
  assert.deepEqual(items.map((i) => i.label), ['role', 'content', 'tool_calls']);
  const indexes = jsonlService.completion(model, offsetOf(text, 'messages.1.', 'messages.'.length), context);
  assert.deepEqual(indexes.map((i) => [i.label, i.detail]), [['0', 'user'], ['1', 'assistant'], ['2', 'tool']]);
  assert.deepEqual(indexes[0].replace, spanOf(text, 'messages.1.', 0, [9, 10]));
});

test('character ranges count characters as Python does: an emoji is one', () => {
  const text = '{"messages": [{"role": "user", "content": "a😀b c"}], "annotations": [{"content": "x", "address": "messages.0.content:1-3"}, {"content": "y", "address": "messages.0.content:0-6"}]}';
  const problems = problemsOf(text);
  assert.deepEqual(describe(text, problems), ["jsonl/annotation-range \"0-6\" Character range 0-6 runs past the end of 'messages.0.content' (length 5)"]);
  const model = parse(text);
  assert.deepEqual(jsonlService.definition(model, offsetOf(text, 'messages.0.content:1-3')).map((t) => cut(text, t.span)), ['😀b']);
});
