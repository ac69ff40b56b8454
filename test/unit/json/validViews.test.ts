// Views of valid JSON over the tape one checking pass records (json/validViews.ts): for any text, the view is the
// JSON reader's tree node for node (types, places, values, keys, members at every depth) or, where the reader finds
// an error, no view at all; a member looked up on the tape is the one the node's lookup finds.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseWholeJsonValue } from '../../../server/src/json/readJson';
import { isDecoded, type JsonNode } from '../../../server/src/json/nodes';
import { property } from '../../../server/src/json/queries';
import { memberOnTape, placeOnTape, readTape, standalone, stringOnTape, ViewObject, viewOfValid } from '../../../server/src/json/validViews';
import { random } from '../testing';
import { trace, value } from './randomJson';

/** Everything a feature can read of a node, at every depth. */
function described(node: JsonNode | undefined): unknown {
  if (!node) return undefined;
  const place = `${node.type} ${node.start}-${node.end}${isDecoded(node) ? ' decoded' : ''}`;
  switch (node.type) {
    case 'object': return [place, node.properties.map((p) => [p.key, p.keyStart, p.keyEnd, p.start, p.end, described(p.value)])];
    case 'array': return [place, node.items.map(described)];
    case 'number': return [place, node.raw];
    default: return [place, node.value];
  }
}

function assertAsTheReaderReadsIt(text: string, start: number, end: number, label: string): void {
  const whole = parseWholeJsonValue(text, start, end);
  const view = viewOfValid(text, start, end);
  if (whole.errors.length > 0) assert.equal(view, undefined, `${label}: a view of text the reader finds broken: ${JSON.stringify(text.slice(start, end))}`);
  else assert.deepEqual(described(view), described(whole.root), `${label}: ${JSON.stringify(text.slice(start, end))}`);
}

test('valid text: the reader\'s tree, node for node; a range of a longer text read alone', () => {
  const next = random(41);
  for (let round = 0; round < 400; round++) {
    const text = round % 2 === 0 ? trace(next) : value(next, 0);
    assert.ok(viewOfValid(text, 0, text.length), `refused valid text ${JSON.stringify(text)}`);
    assertAsTheReaderReadsIt(text, 0, text.length, `round ${round}`);
    const around = `["x",${text}, 12]`;
    assertAsTheReaderReadsIt(around, 5, 5 + text.length, `round ${round}, inside`);
  }
  for (const scalar of ['12', '-1.5e3', 'true', 'false', 'null', '"a\\"b"', ' 7 ']) assertAsTheReaderReadsIt(scalar, 0, scalar.length, scalar);
});

test('broken text: no view wherever the reader finds an error, the same tree where it finds none', () => {
  const next = random(5);
  const troubles = ['"', '\\', ',', '}', ']', '{', '[', ':', '\u0001', 'x', '\\u12', '\\x', '01', '-', '1.', 'tru', 'nul', '1e'];
  let refused = 0;
  for (let round = 0; round < 1500; round++) {
    const valid = trace(next);
    const at = Math.floor(next() * (valid.length + 1));
    const r = next();
    const text = r < 0.4 ? valid.slice(0, at) + valid.slice(at + 1 + Math.floor(next() * 3))
      : r < 0.9 ? valid.slice(0, at) + troubles[Math.floor(next() * troubles.length)] + valid.slice(at) : valid.slice(0, at);
    assertAsTheReaderReadsIt(text, 0, text.length, `round ${round}`);
    if (!viewOfValid(text, 0, text.length)) refused++;
  }
  assert.ok(refused > 500, `only ${refused} broken texts were refused`);
  // Nothing is read past the range's end, and nesting too deep to read is no view rather than a crash.
  assert.equal(viewOfValid('[1, 2]', 0, 5), undefined);
  assert.equal(viewOfValid('"ab"', 0, 3), undefined);
  assert.equal(viewOfValid('truex', 0, 3), undefined);
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  assert.equal(viewOfValid(deep, 0, deep.length), undefined);
});

test('members looked up on the tape: the first with the key, keys written with escapes, places in the file', () => {
  const text = '{"a": 1, "k\\u0065y": {"x": [true, null]}, "a": 2, "key2": "v\\n"}';
  const view = viewOfValid(text, 0, text.length) as ViewObject;
  const source = view.source;
  assert.equal(readTape(text, 0, text.length)?.length, source.tape.length);
  const a = memberOnTape(source, view.index, 'a');
  assert.deepEqual(placeOnTape(source, a), { start: 6, end: 7 });
  assert.equal((property(view, 'a')?.value as { raw: string }).raw, '1');
  const key = memberOnTape(source, view.index, 'key');
  assert.equal(text.slice(placeOnTape(source, key).start, placeOnTape(source, key).end), '{"x": [true, null]}');
  assert.equal(stringOnTape(source, memberOnTape(source, view.index, 'key2')), 'v\n');
  assert.equal(memberOnTape(source, view.index, 'missing'), -1);
  assert.equal(property(view, 'key')?.keyStart, 9);
  // The same member node on every visit.
  assert.equal(property(view, 'key'), view.properties[1]);
  // Kept alone, a container reads itself again from the text: the same nodes, without the tape.
  const kept = standalone(property(view, 'key')!.value!);
  assert.ok(!(kept instanceof ViewObject));
  assert.deepEqual(described(kept), described(property(view, 'key')!.value));
});

test('JSON decoded from a string literal: places mapped to the file, nodes marked decoded, containers past the depth limit kept empty', () => {
  // The JSON is read from its decoded text; each offset maps to the file's through the literal's escapes.
  const literal = '"{\\"a\\": [1, {\\"b\\": \\"c\\"}]}"';
  const json = JSON.parse(literal) as string;
  const offsets = { at: (offset: number) => offset * 10 };
  const view = viewOfValid(json, 0, json.length, { offsets, decoded: true, maxDepth: 2 });
  assert.deepEqual(described(view), ['object 0-220 decoded', [['a', 10, 40, 10, 210, ['array 60-210 decoded', [['number 70-80 decoded', '1'], ['object 100-200 decoded', []]]]]]]);
});
