/**
 * Edits of a decoded text made edits of the bytes it was decoded from: each edit's new text, in UTF-8, replaces the
 * bytes its offsets stand for, and every other byte stays as it was, also bytes that are not UTF-8 (which the text
 * holds as U+FFFD) and a byte order mark. Offsets are found by decoding as the WHATWG UTF-8 decoder does (Node's
 * `Buffer.toString('utf8')`): each character, and each maximal invalid sequence, is one step.
 */
import type { TextEditSpan } from '../common/types';

/** The bytes with the edits (non-overlapping, any order, offsets into the text the bytes decode to) applied. */
export function spliceBytes(bytes: Uint8Array, edits: readonly TextEditSpan[]): Buffer {
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  const at = byteOffsets(bytes, sorted.flatMap((edit) => [edit.span.start, edit.span.end]));
  const pieces: Uint8Array[] = [];
  let from = 0;
  sorted.forEach((edit, i) => {
    pieces.push(bytes.subarray(from, at[2 * i]), Buffer.from(edit.newText, 'utf8'));
    from = at[2 * i + 1];
  });
  pieces.push(bytes.subarray(from));
  return Buffer.concat(pieces);
}

/**
 * The byte offset of each UTF-16 offset (in ascending order) of the decoded text, in one pass over the bytes.
 * Throws a RangeError for an offset between the two halves of a surrogate pair or past the end.
 */
export function byteOffsets(bytes: Uint8Array, offsets: readonly number[]): number[] {
  const found: number[] = [];
  let unit = 0;
  let byte = 0;
  for (const target of offsets) {
    while (unit < target) {
      if (byte >= bytes.length) throw new RangeError(`offset ${target} is past the end of the text (${unit})`);
      const step = decodeStep(bytes, byte);
      if (unit + step.units > target) throw new RangeError(`offset ${target} falls inside a character`);
      unit += step.units;
      byte += step.bytes;
    }
    if (unit > target) throw new RangeError('offsets must be in ascending order');
    found.push(byte);
  }
  return found;
}

/** One step of the WHATWG UTF-8 decoder from byte `i`: the bytes it reads and the UTF-16 units it makes. */
function decodeStep(bytes: Uint8Array, i: number): { bytes: number; units: number } {
  const lead = bytes[i];
  if (lead < 0x80) return { bytes: 1, units: 1 };
  let needed: number;
  let lower = 0x80;
  let upper = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) needed = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    needed = 2;
    if (lead === 0xe0) lower = 0xa0;
    if (lead === 0xed) upper = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    needed = 3;
    if (lead === 0xf0) lower = 0x90;
    if (lead === 0xf4) upper = 0x8f;
  } else {
    return { bytes: 1, units: 1 }; // a byte no character starts with: one U+FFFD
  }
  for (let seen = 0; seen < needed; seen++) {
    const next = bytes[i + 1 + seen];
    // A sequence cut short (by the end or by a byte that cannot continue it) is one U+FFFD; that byte starts the next step.
    if (next === undefined || next < lower || next > upper) return { bytes: 1 + seen, units: 1 };
    lower = 0x80;
    upper = 0xbf;
  }
  return { bytes: 1 + needed, units: needed === 3 ? 2 : 1 };
}
