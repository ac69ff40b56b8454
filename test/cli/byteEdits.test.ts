import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byteOffsets, spliceBytes } from '../../server/src/cli/byteEdits';
import { random } from '../unit/testing';

/** Bytes the decoder treats in every way: ASCII, 2-, 3- and 4-byte characters, a BOM, and sequences that are not UTF-8. */
const pieces = [
  [0x41], [0x2c], [0x0a], [0x0d], [0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xef, 0xbb, 0xbf],
  [0x80], [0xbf], [0xc0], [0xc1, 0x81], [0xc3], [0xe2, 0x82], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98],
  [0xf4, 0x90, 0x80, 0x80], [0xf5], [0xff], [0xfe],
];

function randomBytes(next: () => number, length: number): Buffer {
  const bytes: number[] = [];
  while (bytes.length < length) bytes.push(...pieces[Math.floor(next() * pieces.length)]);
  return Buffer.from(bytes);
}

test('byte offsets follow Node\'s UTF-8 decoding over any bytes, character by character', () => {
  const next = random(20);
  for (let round = 0; round < 2000; round++) {
    const bytes = randomBytes(next, 1 + Math.floor(next() * 40));
    const text = bytes.toString('utf8');
    // Every boundary between characters of the text (not between the halves of a surrogate pair).
    const boundaries: number[] = [];
    for (let i = 0; i <= text.length; i++) {
      const code = text.charCodeAt(i - 1);
      if (!(code >= 0xd800 && code <= 0xdbff)) boundaries.push(i);
    }
    const offsets = byteOffsets(bytes, boundaries);
    assert.equal(offsets[offsets.length - 1], bytes.length, `round ${round}`);
    for (let k = 0; k < boundaries.length; k++) {
      assert.equal(bytes.subarray(0, offsets[k]).toString('utf8'), text.slice(0, boundaries[k]), `round ${round}, offset ${boundaries[k]}`);
    }
  }
});

test('splicing keeps every byte outside the edits', () => {
  const bytes = Buffer.concat([Buffer.from('\ufeff["caf'), Buffer.from([0xe9, 0xff]), Buffer.from('", 1,]\r\n// note \u00e9\r\n')]);
  const text = bytes.toString('utf8');
  const comma = text.indexOf(',]');
  const spliced = spliceBytes(bytes, [{ span: { start: comma, end: comma + 1 }, newText: '' }, { span: { start: 1, end: 1 }, newText: '"\u20ac", ' }]);
  const byteComma = bytes.indexOf(',]');
  assert.deepEqual(spliced, Buffer.concat([bytes.subarray(0, 3), Buffer.from('"\u20ac", '), bytes.subarray(3, byteComma), bytes.subarray(byteComma + 1)]));
  assert.equal(spliced.toString('utf8'), text.slice(0, 1) + '"\u20ac", ' + text.slice(1, comma) + text.slice(comma + 1));
});

test('an offset between the halves of a surrogate pair is refused', () => {
  assert.throws(() => byteOffsets(Buffer.from('a\u{1F600}b'), [2]), RangeError);
});
