import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeJsonString, indexOfWithin, sourceOffsetInLiteral } from '../../../server/src/json/strings';

describe('JSON string literals read in place', () => {
  it('maps every decoded offset to the source so that the text before it decodes to exactly that many characters', () => {
    const values = ['plain', 'tab\there', 'quote " and \\ slash', 'é and \u0001 and \u2028', 'a\nb\nc', '', '"""'];
    for (const value of values) {
      const literal = JSON.stringify(value);
      const text = `xx${literal}yy`;
      const start = 2;
      const end = 2 + literal.length;
      assert.equal(decodeJsonString(text, start + 1, end - 1, Infinity), value);
      for (let k = 0; k <= value.length; k++) {
        const source = sourceOffsetInLiteral(text, start, end, k);
        assert.equal(decodeJsonString(text, start + 1, source, Infinity), value.slice(0, k), `${literal} at ${k}`);
      }
      assert.equal(sourceOffsetInLiteral(text, start, end, value.length + 5), end - 1, 'past the end stops at the closing quote');
    }
  });

  it('keeps a broken \\u escape as written, in the decoded text and in the mapping alike', () => {
    const text = '"a\\uZZb"';
    assert.equal(decodeJsonString(text, 1, text.length - 1, Infinity), 'a\\uZZb');
    assert.deepEqual([0, 1, 2, 3, 6].map((k) => sourceOffsetInLiteral(text, 0, text.length, k)), [1, 2, 3, 4, 7]);
  });

  it('never searches past its limit', () => {
    const text = 'abc' + 'x'.repeat(100) + '\\';
    assert.equal(indexOfWithin(text, 0x5c, 0, text.length - 1), -1);
    assert.equal(indexOfWithin(text, 0x5c, 0, text.length), text.length - 1);
    assert.equal(indexOfWithin(text, 0x63, 0, 3), 2);
  });
});
