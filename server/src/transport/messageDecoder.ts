// Decodes the body of a JSON-RPC message read from stdio. A big message is nearly always one long string: the text
// of a document being opened or replaced. The library's decoder makes the message's whole JSON text into a string and
// then parses it, so for a moment that JSON text and the document's text are both alive on the heap, each twice the
// file's size in bytes when the text holds a character beyond Latin-1. Here a long string of a big message is decoded
// piece by piece (64 KB each) by V8's own JSON.parse, each piece written into a buffer outside the
// JavaScript heap, and made into one string from there; only the small rest of the message is parsed as JSON whole.
// The message's structure is found in its bytes with indexOf (a UTF-8 character's bytes are all above 0x7f, so they
// never read as a quote or a backslash; a Latin-1 copy of the bytes to search in cost the message's size again). A string
// stays one byte per character for as long as its characters fit in Latin-1, as V8 keeps such strings, and is
// widened to UTF-16 at the first piece that holds a character beyond: an ASCII document costs its size once, not
// twice. All of it is native work (a byte loop in JavaScript took three times as long as the library's decoding in
// a fresh process, before V8 had optimized it).
import { isAscii } from 'node:buffer';
import { endianness } from 'node:os';

/** Bodies smaller than this go the library's way: for them the copy costs nothing worth avoiding. */
export const smallestDecodedFromBytes = 256 * 1024;
/** Strings of at least this many bytes stay out of the JSON that is parsed. */
const longStringBytes = 16 * 1024;
/**
 * Bytes of a long string decoded by one JSON.parse: small enough that the strings made for a piece are young objects,
 * collected by the next scavenge (pieces of a megabyte went to the large-object space and piled up as garbage, twice
 * the file size at the peak of an open).
 */
export const pieceBytes = 64 * 1024;

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;

/**
 * A message body in UTF-8, as JSON: the value the library's decoder would give, or the same error. Bodies smaller
 * than `smallest` bytes are decoded the library's way; strings of `long` bytes or more are decoded in pieces of
 * `piece` bytes (the tests make both small).
 */
export function decodeMessageBody(body: Uint8Array, smallest = smallestDecodedFromBytes, piece = pieceBytes, long = longStringBytes): unknown {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (bytes.length < smallest || endianness() !== 'LE') return JSON.parse(bytes.toString('utf8'));
  let decoded: DecodedString | undefined;
  const skeleton: string[] = [];
  const longStrings: string[] = [];
  let copiedTo = 0;
  let index = bytes.indexOf(quote);
  while (index !== -1) {
    const start = index + 1;
    let end = closingQuote(bytes, start, start, start + long);
    if (end === -1) {
      decoded ??= new DecodedString(Buffer.allocUnsafeSlow(2 * bytes.length));
      const read = readLongString(bytes, start, decoded, piece);
      // Anything the pieces do not take (a control character, a bad escape, no closing quote) is left to the
      // library's way, so that it gives the same value or the same error.
      if (read === undefined) return JSON.parse(bytes.toString('utf8'));
      end = read.end;
      // Keys stay in the JSON as they are written.
      if (bytes[nextNonSpace(bytes, end + 1)] !== colon) {
        skeleton.push(bytes.toString('utf8', copiedTo, index), JSON.stringify(placeholder + longStrings.length));
        longStrings.push(decoded.toString(read.units));
        copiedTo = end + 1;
      }
    }
    index = bytes.indexOf(quote, end + 1);
  }
  skeleton.push(bytes.toString('utf8', copiedTo));
  if (longStrings.length === 0) return JSON.parse(skeleton.join(''));
  return JSON.parse(skeleton.join(''), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(placeholder) ? longStrings[Number(value.slice(placeholder.length))] : value);
}

/**
 * Stands in the parsed JSON for a long string, followed by its number. It begins with a character that JSON text
 * holds only escaped and ends in one drawn at random per process, so that no string of a real message reads the same.
 */
const placeholder = `\u0000agent-traces-long-string-${Math.random().toString(36).slice(2)}:`;

/**
 * Where a long string is decoded: one byte per code unit while they all fit in Latin-1, then two (UTF-16LE) from the
 * first piece that does not, the units written so far widened.
 */
class DecodedString {
  private isWide = false;
  units = 0;

  constructor(private readonly buffer: Buffer) {}

  start(): void {
    this.isWide = false;
    this.units = 0;
  }

  append(piece: string): void {
    if (!this.isWide && beyondLatin1.test(piece)) {
      // Copied out before it is written back, so the two ranges may overlap.
      this.buffer.write(this.buffer.toString('latin1', 0, this.units), 0, 'utf16le');
      this.isWide = true;
    }
    if (this.isWide) this.buffer.write(piece, 2 * this.units, 'utf16le');
    else this.buffer.write(piece, this.units, 'latin1');
    this.units += piece.length;
  }

  toString(units: number): string {
    return this.isWide ? this.buffer.toString('utf16le', 0, 2 * units) : this.buffer.toString('latin1', 0, units);
  }
}

const beyondLatin1 = /[^\u0000-\u00ff]/;

/**
 * Decodes the JSON string whose contents start at `start` into `into`, piece by piece: how many code units it wrote
 * and the offset of its closing quote, or undefined when a piece holds what JSON.parse refuses.
 */
function readLongString(bytes: Buffer, start: number, into: DecodedString, piece: number): { units: number; end: number } | undefined {
  into.start();
  let from = start;
  while (from < bytes.length) {
    const to = pieceEnd(bytes, from, Math.min(from + piece, bytes.length));
    const decoded = decodedPiece(bytes, from, to);
    if (decoded !== undefined) {
      into.append(decoded);
      from = to;
      continue;
    }
    // The string ends in this piece (a piece with its closing quote is no JSON string), or the piece is broken.
    const end = closingQuote(bytes, start, from, to);
    const last = end === -1 ? undefined : decodedPiece(bytes, from, end);
    if (last === undefined) return undefined;
    into.append(last);
    return { units: into.units, end };
  }
  return undefined;
}

/** The characters of the string text[from, to) as JSON.parse reads them, or undefined when it refuses them. */
function decodedPiece(bytes: Buffer, from: number, to: number): string | undefined {
  const encoding = isAscii(bytes.subarray(from, to)) ? 'latin1' : 'utf8';
  let json: string;
  if (from > 0 && to < bytes.length) {
    // The piece is read with a quote on each side written over the bytes around it for the moment, so that the JSON
    // string is made in one copy: quotes added by concatenation made a second one when JSON.parse flattened it
    // (garbage of the message's size again, which grew the young generation and the peak heap of an open).
    const before = bytes[from - 1];
    const after = bytes[to];
    bytes[from - 1] = quote;
    bytes[to] = quote;
    try {
      json = bytes.toString(encoding, from - 1, to + 1);
    } finally {
      bytes[from - 1] = before;
      bytes[to] = after;
    }
  } else {
    json = `"${bytes.toString(encoding, from, to)}"`;
  }
  try {
    return JSON.parse(json) as string;
  } catch {
    return undefined;
  }
}

/**
 * Where a piece starting at `from` may end, at `at` or after it: never inside an escape, nor inside a UTF-8
 * character (a continuation byte), so that the pieces decode as the whole string does.
 */
function pieceEnd(bytes: Buffer, from: number, at: number): number {
  let end = at;
  while (end < bytes.length && !(end > from && startsCharacter(bytes, end))) end++;
  return end;
}

function startsCharacter(bytes: Buffer, at: number): boolean {
  const c = bytes[at];
  if (c >= 0x80 && c <= 0xbf) return false;
  // The character before is a backslash that escapes this one, or this one is one of a \uXXXX escape's digits.
  if (escapes(bytes, at - 1)) return false;
  for (let back = 2; back <= 5; back++) {
    if (bytes[at - back + 1] === 0x75 && escapes(bytes, at - back)) return false;
  }
  return true;
}

/** Whether text[at] is a backslash that starts an escape (preceded by an even number of backslashes). */
function escapes(bytes: Buffer, at: number): boolean {
  let before = at;
  while (before >= 0 && bytes[before] === backslash) before--;
  return (at - before) % 2 === 1;
}

/**
 * The offset of the quote that closes the string whose contents start at `start`, searched for in [from, limit); -1
 * when it is not there.
 */
function closingQuote(bytes: Buffer, start: number, from: number, limit: number): number {
  let at = bytes.indexOf(quote, from);
  while (at !== -1 && at < limit) {
    let before = at - 1;
    while (before >= start && bytes[before] === backslash) before--;
    if ((at - 1 - before) % 2 === 0) return at;
    at = bytes.indexOf(quote, at + 1);
  }
  return -1;
}

function nextNonSpace(bytes: Buffer, from: number): number {
  let at = from;
  while (at < bytes.length) {
    const c = bytes[at];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    at++;
  }
  return at;
}
