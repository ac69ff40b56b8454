import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseAddress, resolveAddress } from '../../../server/src/jsonl/dataset/address';
import { annotationsOf } from '../../../server/src/jsonl/dataset/annotations';
import { parseJsonValue } from '../../../server/src/json/readJson';
import type { JsonNode } from '../../../server/src/json/nodes';
import { describe, parse, problemsOf } from './helpers';

// Dataset lines are parsed once, by the trace parser; these tests hold its view of a line to what the JSON Lines
// parser makes of the same line.

const messages = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Say "hello"\nthen wave 👋 twice', name: 'ann' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'wave', arguments: '{"hand": "left", "times": [1, 2]}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'line 0\nline 1\n\tline "2"' }, { type: 'image_url', image_url: { url: 'data:x' } }] },
  { role: 'assistant', content: 'done', metadata: { score: 0.5, tags: ['a', 'b'] } },
];
const addresses = [
  'messages.1.content:0-4', 'messages.1.content:L1', 'messages.1.content:12-20', 'messages.1.content:40-50',
  'messages.2.tool_calls.0.function.arguments', 'messages.2.tool_calls.0.function.arguments.hand',
  'messages.2.tool_calls.0.function.arguments.times.1', 'messages[3].content.0.text:L2', 'messages.3.content.1.image_url:bbox-1,2,3,4',
  'messages.4.metadata.tags.1', 'messages.9', 'messages.0.nope', 'messages.x', 'messages..0', 'messages.1.content:L7',
];
const lines = [
  JSON.stringify({ metadata: { name: 'demo', 'big': 12345678901234567890 } }),
  JSON.stringify({ index: 0, name: 'first', messages, annotations: addresses.map((address) => ({ content: 'n', address })), metadata: { run: 1 } }),
  JSON.stringify({ index: 1, messages: messages.slice(0, 2), annotations: [{ content: 'n', address: 'messages.1.content' }, 'bad', { address: 'messages.0' }] }),
  `  {"index": 2, "messages": [{"role": "user", "content": "esc\\u00e9 \\"q\\""}], "annotations": null}  `,
];
const text = lines.join('\n');

/** A node as plain data, every container built: what a feature walking the whole tree sees. */
function plain(node: JsonNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.type) {
    case 'object': return { object: [node.start, node.end], properties: node.properties.map((p) => [p.key, p.keyStart, p.keyEnd, p.start, p.end, plain(p.value)]) };
    case 'array': return { array: [node.start, node.end], items: node.items.map(plain) };
    case 'string': return ['string', node.start, node.end, node.value];
    case 'number': return ['number', node.start, node.end, node.raw];
    default: return [node.type, node.start, node.end, node.value];
  }
}

test('a dataset line read by the trace parser has the tree the JSON Lines parser gives it', () => {
  const model = parse(text);
  assert.deepEqual(model.lines.map((line) => line.kind), ['metadata', 'annotated', 'annotated', 'annotated']);
  for (const line of model.lines) {
    const expected = parseJsonValue(text, line.start, line.end);
    assert.deepEqual(line.errors, expected.errors);
    assert.deepEqual(plain(line.root), plain(expected.root), `line ${line.number + 1}`);
  }
});

test('annotations resolved during the parse match a resolution against the JSON Lines tree', () => {
  const model = parse(text);
  for (const line of model.lines.filter((l) => l.kind === 'annotated')) {
    const root = parseJsonValue(text, line.start, line.end).root!;
    for (const annotation of annotationsOf(model, line).items) {
      if (!annotation.address) continue;
      const address = annotation.address.value;
      const expected = resolveAddress(text, root, address, parseAddress(address));
      const actual = annotation.resolution!;
      assert.equal(actual.ok, expected.ok, address);
      if (actual.ok && expected.ok) {
        assert.deepEqual(actual.target, expected.target, address);
        assert.equal(actual.description, expected.description, address);
        assert.equal(actual.annotatedText(), expected.annotatedText(), address);
        assert.deepEqual(plain(actual.node), plain(expected.node), address);
      } else {
        assert.deepEqual(actual, expected, address);
      }
    }
  }
});

test('trace problems found during the parse honour the unknown-key setting at validation', () => {
  const withExtra = JSON.stringify({ messages: [{ role: 'user', content: 'hi', colour: 'red' }] });
  const hinted = describe(withExtra, problemsOf(withExtra)).filter((p) => p.startsWith('trace/unknown-key'));
  assert.deepEqual(hinted, ['trace/unknown-key "\\"colour\\"" Unknown key "colour" in event #0; the trace format does not define it']);
  assert.deepEqual(describe(withExtra, problemsOf(withExtra, { unknownKeyHints: false })).filter((p) => p.startsWith('trace/unknown-key')), []);
});

test('a broken dataset line still gets the JSON Lines parser\'s messages and partial tree', () => {
  const broken = `${lines[1]}\n{"messages": [{"role": "user", "content": "hi"}, }`;
  const model = parse(broken);
  const line = model.lines[1];
  const expected = parseJsonValue(broken, line.start, line.end);
  assert.ok(expected.errors.length > 0);
  assert.deepEqual(line.errors, expected.errors);
  assert.deepEqual(plain(line.root), plain(expected.root));
  assert.equal(line.kind, 'annotated');
});
