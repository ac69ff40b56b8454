import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseJsonValue } from '../../../server/src/json/readJson';
import type { JsonNode } from '../../../server/src/json/nodes';

/** The tree as a plain value (numbers as their source text, so nothing is rounded). */
function plain(node: JsonNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.type) {
    case 'object': return Object.fromEntries(node.properties.map((p) => [p.key, plain(p.value)]));
    case 'array': return node.items.map(plain);
    case 'number': return `#${node.raw}`;
    default: return node.value;
  }
}

test('valid JSON: the same values as JSON.parse, numbers kept as written', () => {
  const text = '  {"a": [1, -0.5, 2e10, 12345678901234567890], "s": "tab\\there \\"q\\" \\u00e9\\ud83d\\ude00", "t": true, "f": false, "n": null, "o": {}, "l": [], "k\\"ey": 1} ';
  const { root, errors } = parseJsonValue(text, 0, text.length);
  assert.deepEqual(errors, []);
  assert.deepEqual(plain(root), {
    a: ['#1', '#-0.5', '#2e10', '#12345678901234567890'],
    s: 'tab\there "q" é😀',
    t: true, f: false, n: null, o: {}, l: [], 'k"ey': '#1',
  });
  assert.equal(JSON.parse(text).s, (root as { properties: { value: { value: string } }[] }).properties[1].value.value);
});

test('offsets are absolute within the text and exclusive at the end', () => {
  const text = 'xx[{"k": "v"}, 7]yy';
  const { root } = parseJsonValue(text, 2, text.length - 2);
  assert.equal(root?.type, 'array');
  assert.deepEqual([root!.start, root!.end], [2, 17]);
  if (root?.type !== 'array' || root.items[0].type !== 'object') throw new Error('shape');
  const property = root.items[0].properties[0];
  assert.deepEqual([property.keyStart, property.keyEnd, property.value?.start, property.value?.end], [4, 7, 9, 12]);
  assert.deepEqual([root.items[1].start, root.items[1].end], [15, 16]);
});

test('invalid JSON is rejected where JSON.parse rejects it (as trace files are), with a partial tree', () => {
  // As in trace files, a trailing comma is reported on the comma and a missing colon right after the key.
  const cases: [string, number][] = [
    ['[01]', 2], ['[1.]', 1], ['[-]', 1], ['{"a": 1,}', 7], ['["a\\x"]', 3], ['["a\tb"]', 3], ['["abc', 1],
    ['[1] 2', 4], ['{"a" 1}', 4], ['[tru]', 1], ['', 0],
  ];
  for (const [text, offset] of cases) {
    assert.throws(() => JSON.parse(text), SyntaxError, text);
    const { errors } = parseJsonValue(text, 0, text.length);
    assert.ok(errors.length > 0, text);
    assert.ok(errors.some((e) => e.start === offset), `${text}: ${JSON.stringify(errors)}`);
  }
  assert.deepEqual(parseJsonValue('["a\\x"]', 0, 7).errors, [
    { start: 3, end: 5, message: "Invalid escape sequence '\\x' in string: valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX" },
  ]);
  const { root } = parseJsonValue('{"messages": [{"role": "user"}, ', 0, 31);
  assert.equal(root?.type, 'object');
});
