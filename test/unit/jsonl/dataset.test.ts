import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { detectJsonLinesFormat } from '../../../server/src/jsonl';
import { codes, cut, describe, parse, problemsOf, spanOf } from './helpers';

const user = (text: string) => `{"role": "user", "content": "${text}"}`;
const annotated = (extra = '') => `{"messages": [${user('hi')}]${extra}}`;
const raw = `[${user('hi')}]`;

test('file kind comes from content: agentguard, annotated, raw and metadata-first datasets', () => {
  assert.equal(parse('{"call":{"call_id":"a","tool_name":"t"},"result":{}}').format, 'agentguard');
  assert.equal(parse(`${annotated()}\n`).format, 'dataset');
  assert.equal(parse(raw).format, 'dataset');
  assert.equal(parse(`{"metadata": {}}\n${raw}`).format, 'dataset');
  assert.equal(parse('not json\n{"call":{"call_id":"a"}}').format, 'agentguard');
  // `call` must be the first key and hold a call_id.
  assert.deepEqual(parse('{"result": {}, "call": {"call_id": "a"}}\n{"call": {"tool_name": "x"}}').lines.map((l) => l.kind), ['other', 'other']);
  assert.deepEqual(parse(`{"metadata": {}}\n\n${raw}\n${annotated()}\n42\n{oops`).lines.map((l) => l.kind), ['metadata', 'blank', 'raw', 'annotated', 'other', 'invalid']);
});

test('a valid dataset with metadata, indexes and blank lines has no problems', () => {
  const text = `{"metadata": {"source": "eval"}}\n\n${annotated(', "index": 0')}\r\n${annotated(', "index": 1')}\n\n`;
  assert.deepEqual(problemsOf(text), []);
  assert.deepEqual(problemsOf(`${raw}\n${raw}\n`), []);
  assert.deepEqual(problemsOf(''), []);
});

test('metadata row: at most once, only first', () => {
  const text = `{"metadata": {}}\n${raw}\n{"metadata": {"again": true}}`;
  const problems = problemsOf(text);
  assert.deepEqual(describe(text, problems), [
    'jsonl/metadata-repeated "\\"metadata\\"" The metadata row can appear at most once in the file (it is already on line 1).',
  ]);
  assert.deepEqual(problems[0].span, spanOf(text, '"metadata"', 1));
  assert.deepEqual(problems[0].related?.[0].span, spanOf(text, '"metadata"', 0));

  const late = `${raw}\n{"metadata": {}}`;
  assert.deepEqual(describe(late, problemsOf(late)), [
    'jsonl/metadata-not-first "\\"metadata\\"" The metadata row must be the first row in the file (it is on line 2).',
  ]);
  // Leading blank lines do not count as rows.
  assert.deepEqual(problemsOf(`\n  \n{"metadata": {}}\n${raw}`), []);
  // An object with both metadata and messages is a trace, not the metadata row.
  assert.deepEqual(problemsOf(`${raw.replace('[', '[')}\n`), []);
  assert.deepEqual(codes(problemsOf(`${annotated(', "metadata": {}')}\n${annotated(', "metadata": {}')}`)), []);
});

test('raw event lists and annotated objects are not mixed', () => {
  const text = `${annotated()}\n${raw}\n${annotated()}`;
  const problems = problemsOf(text);
  assert.deepEqual(describe(text, problems), [
    'jsonl/mixed-kinds "[" The file cannot contain both raw event lists and annotated event lists: this line is a raw event list, line 1 is an annotated event list.',
  ]);
  assert.deepEqual(problems[0].related?.[0].span, spanOf(text, '"messages"'));
  const other = `${raw}\n${annotated()}`;
  assert.deepEqual(describe(other, problemsOf(other)), [
    'jsonl/mixed-kinds "\\"messages\\"" The file cannot contain both raw event lists and annotated event lists: this line is an annotated event list, line 1 is a raw event list.',
  ]);
});

test('index: an integer, unique, on all lines or none', () => {
  const typeText = [annotated(', "index": 1.5'), annotated(', "index": "2"'), annotated(', "index": null'), annotated(', "index": 3')].join('\n');
  assert.deepEqual(describe(typeText, problemsOf(typeText)), [
    'jsonl/index-type "1.5" Invalid index found: 1.5 in the file. Index must be an integer.',
    'jsonl/index-type "\\"2\\"" Invalid index found: "2" in the file. Index must be an integer.',
    'jsonl/index-type "null" Invalid index found: null in the file. Index must be an integer.',
  ]);

  const dup = [annotated(', "index": 7'), annotated(', "index": 8'), annotated(', "index": 7')].join('\n');
  const dupProblems = problemsOf(dup);
  assert.deepEqual(describe(dup, dupProblems), ['jsonl/index-duplicate "7" Duplicate index found: 7 in the file (first used on line 1).']);
  assert.deepEqual(dupProblems[0].span, spanOf(dup, '7', 1));
  assert.deepEqual(dupProblems[0].related?.[0].span, spanOf(dup, '7', 0));

  const mixed = [annotated(), annotated(', "index": 1'), annotated()].join('\n');
  const mixedProblems = problemsOf(mixed);
  assert.deepEqual(describe(mixed, mixedProblems), [
    'jsonl/index-inconsistent "\\"messages\\"" The \'index\' key is inconsistently present — found in some traces (line 2) but missing in this one.',
    'jsonl/index-inconsistent "\\"messages\\"" The \'index\' key is inconsistently present — found in some traces (line 2) but missing in this one.',
  ]);
  assert.deepEqual(mixedProblems.map((p) => p.span), [spanOf(mixed, '"messages"', 0), spanOf(mixed, '"messages"', 2)]);
  assert.deepEqual(mixedProblems[0].related?.[0].span, spanOf(mixed, '"index"'));
});

test('indexes beyond 2^53 are compared exactly', () => {
  const text = [annotated(', "index": 9007199254740993'), annotated(', "index": 9007199254740992')].join('\n');
  assert.deepEqual(problemsOf(text), []);
  const same = [annotated(', "index": 9007199254740993'), annotated(', "index": 9007199254740993')].join('\n');
  assert.deepEqual(codes(problemsOf(same)), ['jsonl/index-duplicate']);
});

test('a line that is neither a trace nor the metadata row', () => {
  const text = `${raw}\n"just a string"\n{"foo": 1}\n{"call":{"call_id":"x"}}`;
  assert.deepEqual(describe(text, problemsOf(text)), [
    'jsonl/line-kind "\\"just a string\\"" This line is neither a trace (an event list, or an object with "messages") nor the dataset\'s metadata row {"metadata": {...}}.',
    'jsonl/line-kind "\\"foo\\"" This line is neither a trace (an event list, or an object with "messages") nor the dataset\'s metadata row {"metadata": {...}}.',
    'jsonl/line-kind "\\"call\\"" This line is an agentguard entry, but the file is an Invariant dataset: a line must be a trace (an event list or an object with "messages") or the metadata row.',
  ]);
});

test('a broken line reports only its own syntax error; the other lines are still checked', () => {
  const text = `${raw}\n[{"role": "user", "content": "a"},, ]\n{"metadata": {}}`;
  const problems = problemsOf(text);
  assert.deepEqual(describe(text, problems), [
    'jsonl/syntax "," Value expected before this comma (line 2 is not valid JSON; other lines are read on their own)',
    'jsonl/syntax "," Trailing comma: remove it (JSON allows no comma before \']\') (line 2 is not valid JSON; other lines are read on their own)',
    'jsonl/metadata-not-first "\\"metadata\\"" The metadata row must be the first row in the file (it is on line 3).',
  ]);
  assert.equal(cut(text, problems[0].span), ',');
  assert.equal(problems[0].span.start, text.indexOf(',,') + 1);
});

test('problems are capped at maxProblems with a notice', () => {
  const text = Array.from({ length: 12 }, () => '{"foo": 1}').join('\n');
  const problems = problemsOf(text, { maxProblems: 5 });
  assert.equal(problems.length, 6);
  assert.deepEqual(codes(problems.slice(0, 5)), Array(5).fill('jsonl/line-kind'));
  assert.equal(problems[5].code, 'jsonl/too-many-problems');
  assert.equal(problems[5].message, 'Showing 5 of 12 problems: the most severe are kept, errors first (the setting agentTraces.maxProblems raises the limit)');
  assert.deepEqual(problems[5].span, { start: 0, end: 1 });
  assert.equal(problemsOf(text, { maxProblems: 12 }).length, 12);
  // Errors are kept before hints when the cap bites.
  const entry = (id: string, extra: string) => `{"call":{"call_id":"${id}","tool_name":"t","extra":1},"result":{"call_id":"${id}","tool_name":"t","status":"${extra}"}}`;
  const mixed = [entry('a', 'success'), entry('b', 'success'), entry('c', 'bogus')].join('\n');
  const capped = problemsOf(mixed, { maxProblems: 1 });
  assert.deepEqual(codes(capped), ['ag/status', 'jsonl/too-many-problems']);
  assert.equal(capped[1].message, 'Showing 1 of 4 problems: the most severe are kept, errors first (the setting agentTraces.maxProblems raises the limit)');
});

test('content alone tells whether a .jsonl file is a dataset, an agentguard log or something else', () => {
  assert.equal(detectJsonLinesFormat('{"call": {"call_id": "a", "tool_name": "t"}, "result": {}}\n'), 'agentguard');
  assert.equal(detectJsonLinesFormat('\uFEFF\n\n{ "metadata" : {}}\n[]'), 'dataset');
  assert.equal(detectJsonLinesFormat('{"index": 3, "messages": []}'), 'dataset');
  assert.equal(detectJsonLinesFormat('[{"metadata": {"name": "run"}}, {"role": "user", "content": "x"}]'), 'dataset');
  assert.equal(detectJsonLinesFormat('[{"type": "function", "function": {"name": "f"}}]'), 'dataset');
  assert.equal(detectJsonLinesFormat('[1, 2, 3]\n'), undefined);
  assert.equal(detectJsonLinesFormat('{"text": "a line of a corpus"}'), undefined);
  assert.equal(detectJsonLinesFormat(''), undefined);
  // A trace line still being written is recognised from what is there.
  assert.equal(detectJsonLinesFormat('{"messages": [{"role": "user", "content": "hi"'), 'dataset');
});
