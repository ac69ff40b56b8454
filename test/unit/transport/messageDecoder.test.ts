import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { serialize } from 'node:v8';
import { decodeMessageBody, smallestDecodedFromBytes } from '../../../server/src/transport/messageDecoder';
import { random } from '../testing';
import { didOpen, randomDidOpen } from './messages';

/** What the library's own decoder gives for these bytes: the value, or the error's kind. */
function libraryDecoding(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { threw: (error as Error).name };
  }
}

function ourDecoding(bytes: Buffer, piece?: number, long?: number): unknown {
  try {
    return decodeMessageBody(bytes, 0, piece, long);
  } catch (error) {
    return { threw: (error as Error).name };
  }
}

/** Pieces of every small size, strings from every length on: every place a string can be cut is cut somewhere. */
const smallPieces = [[1, 0], [2, 1], [3, 4], [5, 0], [8, 2], [13, 16]];

function agrees(bytes: Buffer, where: string, cutEverywhere = false): void {
  const before = Buffer.from(bytes);
  const expected = libraryDecoding(bytes);
  assert.deepEqual(ourDecoding(bytes), expected, where);
  if (cutEverywhere) {
    for (const [piece, long] of smallPieces) assert.deepEqual(ourDecoding(bytes, piece, long), expected, `${where}, pieces of ${piece} bytes from ${long}`);
  }
  assert.ok(bytes.equals(before), `${where}: the body was left as it came`);
}

const long = 'x'.repeat(20_000);

describe('message decoder', () => {
  it('gives what JSON.parse gives for every escape and every length of UTF-8 character, in short strings and long', () => {
    const texts = [
      '', 'plain', '"quoted" \\ back / slash', '\b\f\n\r\t\u0000\u001f\u007f', 'é ß ÿ', '— € ア', '😀 𝄞 \u{10ffff}',
      '\ud800', '\udfff', 'a\ud83d', '\ud83d\ud83d\ude00', '\ude00\ud83d', `${long}\ud800${long}`, `${long}😀"\n`,
      // Latin-1 all along, then widened at a character beyond it, early or late.
      `é${long}ÿ\u00ff`, `${long}é—${long}`, `ÿ${long}\u0100`, `${long}\u20ac${long}`, `\u00e9${long}😀`, `${long}\n\t"€`,
    ];
    for (const text of texts) {
      agrees(didOpen(text), JSON.stringify(text.slice(0, 40)));
      agrees(didOpen(text + long), `long: ${JSON.stringify(text.slice(0, 40))}`);
    }
  });

  it('reads escapes written in any case and the escaped solidus, which JSON.stringify never writes', () => {
    agrees(Buffer.from('{"a":"\\u00E9\\u00e9\\/\\uD83D\\uDE00","b":"' + long + '\\uDBFF\\uDFFF"}'), 'hand-written escapes');
    agrees(Buffer.from('{"a":"' + long + '\\u00ff\\u0100","b":"\\u00e9' + long + '\\u20AC"}'), 'Latin-1 escapes, then one beyond Latin-1');
  });

  it('keeps long strings wherever they stand: as keys, in arrays, nested, several in one message', () => {
    const message = { [long]: long + 'a', list: [long + 'b', 1, { deep: [[long + 'c']] }], [`${long}k`]: { [`${long}j`]: null }, n: -1.5e3, t: true };
    agrees(Buffer.from(JSON.stringify(message)), 'long keys and values');
    agrees(Buffer.from(JSON.stringify(message, null, 2)), 'pretty-printed, with space before each colon');
    agrees(Buffer.from(`{"a" \n\t : "${long}", "b":"${long}"  :  1}`), 'invalid JSON around long strings');
  });

  it('gives what the library gives for bytes that are not UTF-8, and fails where JSON.parse fails', () => {
    const bad = [
      [0x80], [0xbf], [0xc0, 0x80], [0xc1, 0xbf], [0xc2], [0xe0, 0x80, 0x80], [0xe0, 0xa0], [0xed, 0xa0, 0x80], [0xef, 0xbf],
      [0xf0, 0x80, 0x80, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xff], [0xf0, 0x9f, 0x98],
    ];
    for (const bytes of bad) {
      const inside = Buffer.concat([Buffer.from(`{"text":"${long}`), Buffer.from(bytes), Buffer.from('ok"}')]);
      agrees(inside, `bytes ${bytes.map((b) => b.toString(16)).join(' ')} in a string`);
      const atEnd = Buffer.concat([Buffer.from(`{"text":"${long}`), Buffer.from(bytes)]);
      agrees(atEnd, `bytes ${bytes.map((b) => b.toString(16)).join(' ')} at the end`);
    }
    const broken = ['{"a":"\\x"}', '{"a":"\\u12"}', '{"a":"\\u12g4"}', '{"a":"\t"}', '{"a":"\n"}', '{"a":"open', '{"a":"x\\', '{"a":1,}', '"', ''];
    for (const text of broken) agrees(Buffer.from(text.replace('"a":"', `"a":"${long}`)), JSON.stringify(text));
  });

  it('decodes a string in pieces as JSON.parse decodes it whole, wherever the pieces are cut', () => {
    const texts = ['"quoted" \\ back / slash \\\\" \\u00e9', '\b\f\n\r\t\u0000\u001f\u007f', 'é ß ÿ — € ア 😀 𝄞', '\ud83d\ude00 \ud800 x'];
    for (const text of texts) agrees(didOpen(text.repeat(3)), JSON.stringify(text), true);
    agrees(Buffer.from('{"a":"\\u00E9\\u00e9\\/\\uD83D\\uDE00\\\\\\"","b":"\\u00ff\\u0100"}'), 'hand-written escapes', true);
    const next = random(3);
    for (let round = 0; round < 400; round++) agrees(randomDidOpen(next, round, 40), `round ${round}`, true);
  });

  it('agrees with JSON.parse on thousands of random messages, valid and damaged', () => {
    const next = random(7);
    const alphabet = ['a', ' ', '"', '\\', '/', '\n', '\t', '\u0000', 'é', '—', '😀', '\ud800', '\udc00', '{', '}', ':', ','];
    for (let round = 0; round < 3000; round++) {
      const parts: string[] = [];
      const length = Math.floor(next() * 60);
      for (let i = 0; i < length; i++) parts.push(alphabet[Math.floor(next() * alphabet.length)]);
      const text = (next() < 0.3 ? long : '') + parts.join('');
      const bytes = didOpen(text);
      // One in three is damaged: a byte changed at random, which may break the UTF-8, an escape or the JSON.
      if (round % 3 === 0) bytes[Math.floor(next() * bytes.length)] = Math.floor(next() * 256);
      agrees(bytes, `round ${round}`);
    }
  });

  it('keeps a long text whose characters fit in Latin-1 one byte per character, as V8 would, and widens it only when one does not', () => {
    // V8's serializer writes a string's own representation: a one-byte string gets the tag '"' right after its header.
    // Below about a million characters Node and V8 make a string of Latin-1 characters one-byte themselves; above, they keep
    // what they are given.
    const isOneByte = (value: string) => serialize(value)[2] === 0x22;
    const big = 'x'.repeat(2_000_000);
    const textOf = (text: string) => (decodeMessageBody(didOpen(text), 0) as { params: { textDocument: { text: string } } }).params.textDocument.text;
    for (const text of [big, `${big}"\n\t`, `é${big}ÿ`, `${big}\u00ff`]) {
      assert.equal(textOf(text), text);
      assert.ok(isOneByte(textOf(text)), `one byte per character: ${JSON.stringify(text.slice(-4))}`);
    }
    for (const text of [`${big}—`, `—${big}`, `${big}😀`]) {
      assert.equal(textOf(text), text);
      assert.ok(!isOneByte(textOf(text)), `two bytes per character: ${JSON.stringify(text.slice(-4))}`);
    }
  });

  it('leaves a small body to the library and decodes a big one itself, with the same result', () => {
    const big = didOpen('🙂 — "x"\n'.repeat(Math.ceil(smallestDecodedFromBytes / 10)));
    assert.ok(big.length >= smallestDecodedFromBytes);
    assert.deepEqual(decodeMessageBody(big), JSON.parse(big.toString('utf8')));
    const small = didOpen('— ok');
    assert.deepEqual(decodeMessageBody(small), JSON.parse(small.toString('utf8')));
  });
});
