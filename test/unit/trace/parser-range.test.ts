import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson } from '../../../server/src/trace/parser';
import { decodeString, parseTrace, stringValue } from '../../../server/src/trace/model';

/** The result of parsing text[start, end) in place, shifted back to offsets within the range alone. */
function inRange(text: string, start: number, end: number) {
  const parsed = parseJson(text, start, end);
  return {
    errors: parsed.errors.map((e) => ({ ...e, start: e.start - start, end: e.end - start })),
    root: parsed.root && { kind: parsed.root.kind, start: parsed.root.start - start, end: parsed.root.end - start },
  };
}

function alone(text: string) {
  const parsed = parseJson(text);
  return { errors: parsed.errors, root: parsed.root && { kind: parsed.root.kind, start: parsed.root.start, end: parsed.root.end } };
}

test('a range is parsed exactly as the same text alone, whatever follows it in the document', () => {
  const cases = [
    '[1, 23', '[1.', '[1e', '[-', '[01]', '[truex]', '[nul', '{"a": tru', '["abc', '["a\\', '["a\\u00', '/* open',
    '[12]', '{"a": -1.5e+3, "b": false, "c": null}', '["\\u0041\\n"]', '[1}',
  ];
  for (const piece of cases) {
    // Text after the range that would change a scan running past its end: digits, letters, quotes, comment ends.
    for (const after of ['345"]', 'e5', 'ue', '0041"]', '*/ ]', '\n"x"']) {
      const text = `xx${piece}${after}`;
      assert.deepEqual(inRange(text, 2, 2 + piece.length), alone(piece), `${JSON.stringify(piece)} followed by ${JSON.stringify(after)}`);
    }
  }
});

test('numbers and literals read without the scanner give the errors the scanner gives', () => {
  assert.deepEqual(parseJson('[1.]').errors.map((e) => e.message), ["Invalid number: a digit is expected after '.' or the exponent"]);
  assert.deepEqual(parseJson('[1e+]').errors.map((e) => e.message), ["Invalid number: a digit is expected after '.' or the exponent"]);
  assert.deepEqual(parseJson('[01]').errors.map((e) => `${e.start}-${e.end} ${e.message}`), ['2-3 Expected comma']);
  assert.deepEqual(parseJson('[truex]').errors.map((e) => e.message), ["Value expected, found 'truex'"]);
  assert.deepEqual(parseJson('[True]').errors.map((e) => e.message), [
    "Value expected, found 'True': JSON literals are true, false and null (numbers cannot be NaN or Infinity)",
  ]);
  const ok = parseJson('{"a":-0.5E-3,"b":true,"c":null,"d":[false,12]}');
  assert.deepEqual(ok.errors, []);
});

test('long strings are read whole: escapes, quotes and control characters far inside them are found', () => {
  const long = 'x'.repeat(5000);
  assert.deepEqual(parseJson(`["${long}\\"${long}"]`).errors, []);
  const broken = parseJson(`["${long}\\q${long}"]`).errors;
  assert.deepEqual(broken.map((e) => [e.start, e.end]), [[5002, 5004]]);
  const control = parseJson(`["${long}\u0001${long}"]`).errors;
  assert.deepEqual(control.map((e) => [e.start, e.message]), [[5002, 'Control character U+0001 in a string: write it as \\u0001']]);
  const unterminated = parseJson(`["${long}\n"]`).errors.map((e) => e.message);
  assert.ok(unterminated.includes('Unterminated string: expected a closing \'"\' before the end of the line'));
});

test('strings decode the same whether kept in the tree or read from the text on request', () => {
  const shortText = 'a\\"b\\u00e9\\n';
  const longText = `${'word '.repeat(40)}\\"quoted\\"\\t${'more '.repeat(40)}`;
  const text = JSON.stringify([{ role: 'user', content: JSON.parse(`"${shortText}"`) }, { role: 'user', content: JSON.parse(`"${longText}"`) }]);
  const model = parseTrace(text);
  const [first, second] = model.events.map((e) => e.fields.find((f) => f.name === 'content')!.value!);
  assert.equal(stringValue(text, first), JSON.parse(`"${shortText}"`));
  assert.equal(stringValue(text, second), JSON.parse(`"${longText}"`));
  assert.equal(decodeString(text, second, 10), JSON.parse(`"${longText}"`).slice(0, 10));
});

test('decoding a string stops at its end, even when the next backslash is far away', () => {
  // Nothing after the string may leak into its value, and the decoder must not depend on what follows.
  const text = `["${'é'.repeat(100)}\\n${'a'.repeat(100)}", "${'b'.repeat(200)}", "\\\\"]`;
  const root = parseTrace(text).root!;
  const [first, second] = root.items!;
  assert.equal(stringValue(text, first), `${'é'.repeat(100)}\n${'a'.repeat(100)}`);
  assert.equal(stringValue(text, second), 'b'.repeat(200));
  assert.equal(decodeString(text, second, 5), 'bbbbb');
});
