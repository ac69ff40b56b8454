// Decodes the body of a JSON-RPC message read from stdio. A big message is nearly always one long string: the text
// of a document being opened or replaced. The library's decoder makes the message's whole JSON text into a string and
// then parses it, so for a moment that JSON text and the document's text are both alive, each twice the file's size
// in bytes when the text holds a character beyond Latin-1. Here each string of a big message is decoded from its
// bytes outside the JavaScript heap and made into a string once; only the small rest of the message is parsed as JSON.
// A string is decoded one byte per character for as long as its characters fit in Latin-1, as V8 keeps such strings,
// and widened to UTF-16 only at its first character beyond: an ASCII document costs its size once, not twice (in the
// buffer it is decoded into, and in the string made from it). It takes about as long as the library's way: V8's UTF-8
// decoding, which it avoids, runs at half the speed of a copy, but the buffer it writes is memory touched for the
// first time.
import { endianness } from 'node:os';

/** Bodies smaller than this go the library's way: for them the copy costs nothing worth avoiding. */
export const smallestDecodedFromBytes = 256 * 1024;
/** Strings of at least this many code units stay out of the JSON that is parsed. */
const longStringUnits = 16 * 1024;

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;

/**
 * A message body in UTF-8, as JSON: the value the library's decoder would give, or the same error. Bodies smaller
 * than `smallest` bytes are decoded the library's way.
 */
export function decodeMessageBody(body: Uint8Array, smallest = smallestDecodedFromBytes): unknown {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (bytes.length < smallest || endianness() !== 'LE') return JSON.parse(bytes.toString('utf8'));
  // A string has no more UTF-16 code units than UTF-8 bytes. Only the pages written are made resident: an ASCII or
  // Latin-1 string touches the first half alone.
  const decoded = new DecodedString(Buffer.allocUnsafeSlow(2 * bytes.length));
  const skeleton: string[] = [];
  const longStrings: string[] = [];
  let copiedTo = 0;
  let index = bytes.indexOf(quote);
  while (index !== -1) {
    const string = readString(bytes, index + 1, decoded);
    // Anything the fast reading does not take (bytes that are not UTF-8, a bad escape) is left to the library's way,
    // so that it gives the same value or the same error.
    if (string === undefined) return JSON.parse(bytes.toString('utf8'));
    // Short strings and keys stay in the JSON as they are written.
    if (string.units >= longStringUnits && bytes[nextNonSpace(bytes, string.next)] !== colon) {
      skeleton.push(bytes.toString('utf8', copiedTo, index), JSON.stringify(placeholder + longStrings.length));
      longStrings.push(decoded.toString(string.units));
      copiedTo = string.next;
    }
    index = bytes.indexOf(quote, string.next);
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
 * Where a string is decoded: one byte per code unit while they all fit in Latin-1, then two (UTF-16LE) from the first
 * that does not, the units written so far widened in place.
 */
class DecodedString {
  readonly narrow: Uint8Array;
  readonly wide: Uint16Array;
  /** Set by readString: whether the string it read last is in `wide`. */
  isWide = false;

  constructor(private readonly buffer: Buffer) {
    this.narrow = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length / 2);
    this.wide = new Uint16Array(buffer.buffer, buffer.byteOffset, buffer.length / 2);
  }

  /** Widens the `written` units decoded so far; from the last, as each one's two bytes cover its own and the next one's. */
  widen(written: number): void {
    for (let i = written - 1; i >= 0; i--) this.wide[i] = this.narrow[i];
  }

  toString(units: number): string {
    return this.isWide ? this.buffer.toString('utf16le', 0, 2 * units) : this.buffer.toString('latin1', 0, units);
  }
}

/**
 * Decodes the JSON string whose contents start at `start` into `into`: how many code units it wrote and the offset
 * after the closing quote, or undefined for anything but well-formed UTF-8 and valid escapes.
 */
function readString(bytes: Buffer, start: number, into: DecodedString): { units: number; next: number } | undefined {
  const narrow = into.narrow;
  const wide = into.wide;
  let isWide = false;
  let read = start;
  let written = 0;
  const end = bytes.length;
  while (read < end) {
    const byte = bytes[read];
    let unit: number;
    if (byte < 0x80 && byte >= 0x20 && byte !== quote && byte !== backslash) {
      unit = byte;
      read++;
    } else if (byte === quote) {
      into.isWide = isWide;
      return { units: written, next: read + 1 };
    } else if (byte === backslash) {
      unit = escapedUnit(bytes, read + 1);
      if (unit < 0) return undefined;
      read += bytes[read + 1] === 0x75 ? 6 : 2;
    } else if (byte >= 0xc2 && byte <= 0xdf) {
      const second = bytes[read + 1];
      if (!isContinuation(second)) return undefined;
      unit = ((byte & 0x1f) << 6) | (second & 0x3f);
      read += 2;
    } else if (byte >= 0xe0 && byte <= 0xef) {
      const second = bytes[read + 1];
      const third = bytes[read + 2];
      const secondFits = byte === 0xe0 ? second >= 0xa0 && second <= 0xbf : byte === 0xed ? second >= 0x80 && second <= 0x9f : isContinuation(second);
      if (!secondFits || !isContinuation(third)) return undefined;
      unit = ((byte & 0x0f) << 12) | ((second & 0x3f) << 6) | (third & 0x3f);
      read += 3;
    } else if (byte >= 0xf0 && byte <= 0xf4) {
      const second = bytes[read + 1];
      const secondFits = byte === 0xf0 ? second >= 0x90 && second <= 0xbf : byte === 0xf4 ? second >= 0x80 && second <= 0x8f : isContinuation(second);
      if (!secondFits || !isContinuation(bytes[read + 2]) || !isContinuation(bytes[read + 3])) return undefined;
      const codePoint = ((byte & 0x07) << 18) | ((second & 0x3f) << 12) | ((bytes[read + 2] & 0x3f) << 6) | (bytes[read + 3] & 0x3f);
      if (!isWide) into.widen(written);
      isWide = true;
      wide[written++] = 0xd800 + ((codePoint - 0x10000) >> 10);
      unit = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
      read += 4;
    } else {
      // A control character, which JSON allows only escaped, or a byte that cannot start a UTF-8 character.
      return undefined;
    }
    if (isWide) wide[written++] = unit;
    else if (unit <= 0xff) narrow[written++] = unit;
    else {
      into.widen(written);
      isWide = true;
      wide[written++] = unit;
    }
  }
  return undefined;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x80 && byte <= 0xbf;
}

/** The code unit an escape stands for, given the offset of the character after its backslash; -1 if it is not valid. */
function escapedUnit(bytes: Buffer, at: number): number {
  switch (bytes[at]) {
    case quote: return quote;
    case backslash: return backslash;
    case 0x2f: return 0x2f; // '/'
    case 0x62: return 0x08; // 'b'
    case 0x66: return 0x0c; // 'f'
    case 0x6e: return 0x0a; // 'n'
    case 0x72: return 0x0d; // 'r'
    case 0x74: return 0x09; // 't'
    case 0x75: { // 'u': four hex digits, any code unit (a lone surrogate too, as JSON.parse gives it)
      let unit = 0;
      for (let i = at + 1; i <= at + 4; i++) {
        const digit = hexDigit(bytes[i]);
        if (digit < 0) return -1;
        unit = unit * 16 + digit;
      }
      return unit;
    }
    default: return -1;
  }
}

function hexDigit(byte: number | undefined): number {
  if (byte === undefined) return -1;
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x61 + 10 : -1;
}

function nextNonSpace(bytes: Buffer, from: number): number {
  let at = from;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)) at++;
  return at;
}
