// Decodes the body of a JSON-RPC message read from stdio, as its bytes arrive (`bodyDecoding`, driven by
// stdioMessageReader.ts) or whole (`decodeMessageBody`). A big message is nearly always one long string: the text
// of a document being opened or replaced. The library's decoder makes the message's whole JSON text into a string and
// then parses it, so for a moment that JSON text and the document's text are both alive on the heap, each twice the
// file's size in bytes when the text holds a character beyond Latin-1. Here a long string of a big message is decoded
// piece by piece (64 KB each) by V8's own JSON.parse, each piece written outside the JavaScript heap (over the
// body's own bytes where the reader allows it, see arrivingBody.ts), and made into one string from there; only the
// small rest of the message is parsed as JSON whole. The message's structure is found in its bytes with indexOf (a
// UTF-8 character's bytes are all above 0x7f, so they never read as a quote or a backslash; a Latin-1 copy of the
// bytes to search in cost the message's size again). A string stays one byte per character for as long as its
// characters fit in Latin-1, as V8 keeps such strings, and is widened to UTF-16 at the first piece that holds a
// character beyond: an ASCII document costs its size once, not twice. All of it is native work (a byte loop in
// JavaScript took three times as long as the library's decoding in a fresh process, before V8 had optimized it).
import { isAscii } from 'node:buffer';
import { endianness } from 'node:os';
import { ArrivingBody, DecodedString } from './arrivingBody';

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
  if (bytes.length < smallest || !decodesInPieces) return JSON.parse(bytes.toString('utf8'));
  const decoding = bodyDecoding(ArrivingBody.whole(bytes), piece, long);
  const done = decoding.next();
  if (!done.done) throw new Error('a whole body was decoded as if part of it were missing');
  return done.value;
}

/** Pieces are written out as UTF-16 in the machine's order, which V8's strings take only when it is little-endian. */
export const decodesInPieces = endianness() === 'LE';

/**
 * The decoding of a body as its bytes arrive: it yields when it needs bytes that have not arrived, and returns the
 * value (or throws the error) that decoding the whole body at once gives. Every decision waits for the bytes that
 * settle it, so that where the chunks are cut never changes the result.
 */
export type BodyDecoding = Generator<void, unknown, void>;

export function* bodyDecoding(body: ArrivingBody, piece = pieceBytes, long = longStringBytes): BodyDecoding {
  let decoded: DecodedString | undefined;
  const skeleton: string[] = [];
  const longStrings: string[] = [];
  let copiedTo = 0;
  let index = yield* nextQuote(body, 0);
  while (index !== -1) {
    const start = index + 1;
    let end = yield* shortStringEnd(body, start, long);
    if (end === -1) {
      decoded ??= new DecodedString(body);
      const read = yield* readLongString(body, start, decoded, piece);
      // Anything the pieces do not take (a control character, a bad escape, no closing quote) is left to the
      // library's way, so that it gives the same value or the same error.
      if (read === undefined) return yield* wholeBody(body);
      end = read.end;
      // A key stays in the JSON, written again from what was decoded (its bytes may have been written over).
      // (The bytes are looked at once the colon could have arrived: `body.arrived` read before the wait is shorter.)
      const next = yield* nextNonSpace(body, end + 1);
      const isKey = body.arrived[next] === colon;
      const value = decoded.toString(read.units);
      skeleton.push(body.arrived.toString('utf8', copiedTo, index), JSON.stringify(isKey ? value : placeholder + longStrings.length));
      if (!isKey) longStrings.push(value);
      copiedTo = end + 1;
    }
    index = yield* nextQuote(body, end + 1);
  }
  skeleton.push(body.arrived.toString('utf8', copiedTo));
  if (longStrings.length === 0) return JSON.parse(skeleton.join(''));
  return JSON.parse(skeleton.join(''), (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(placeholder) ? longStrings[Number(value.slice(placeholder.length))] : value);
}

/** The library's way: the whole body made a string and parsed. */
function* wholeBody(body: ArrivingBody): BodyDecoding {
  while (!body.complete) yield;
  return JSON.parse(body.asReceived());
}

function* nextQuote(body: ArrivingBody, from: number): Generator<void, number, void> {
  let searchFrom = from;
  for (;;) {
    const at = body.arrived.indexOf(quote, searchFrom);
    if (at !== -1 || body.complete) return at;
    searchFrom = Math.max(searchFrom, body.arrived.length);
    yield;
  }
}

/** The closing quote of a string shorter than `long` bytes whose contents start at `start`; -1 for a longer one. */
function* shortStringEnd(body: ArrivingBody, start: number, long: number): Generator<void, number, void> {
  for (;;) {
    const end = closingQuote(body.arrived, start, start, start + long);
    if (end !== -1 || body.complete || body.arrived.length >= start + long) return end;
    yield;
  }
}

function* nextNonSpace(body: ArrivingBody, from: number): Generator<void, number, void> {
  for (;;) {
    const at = nonSpaceFrom(body.arrived, from);
    if (at < body.arrived.length || body.complete) return at;
    yield;
  }
}

/**
 * Stands in the parsed JSON for a long string, followed by its number. It begins with a character that JSON text
 * holds only escaped and ends in one drawn at random per process, so that no string of a real message reads the same.
 */
const placeholder = `\u0000agent-traces-long-string-${Math.random().toString(36).slice(2)}:`;

/**
 * Decodes the JSON string whose contents start at `start` into `into`, piece by piece as the body arrives: how many
 * code units it wrote and the offset of its closing quote, or undefined when a piece holds what JSON.parse refuses.
 */
function* readLongString(body: ArrivingBody, start: number, into: DecodedString, piece: number): Generator<void, { units: number; end: number } | undefined, void> {
  into.start(start);
  let from = start;
  for (;;) {
    const bytes = body.arrived;
    if (!body.complete && bytes.length < from + piece) {
      yield;
      continue;
    }
    if (from >= bytes.length) return undefined;
    const to = pieceEnd(bytes, from, Math.min(from + piece, bytes.length));
    // Where a piece may end is settled by the byte there, which has not arrived.
    if (to === bytes.length && !body.complete) {
      yield;
      continue;
    }
    const decoded = decodedPiece(bytes, from, to);
    if (decoded !== undefined) {
      into.append(decoded.text);
      body.decodedUpTo(start, to, decoded.sourceLength);
      from = to;
      continue;
    }
    // The string ends in this piece (a piece with its closing quote is no JSON string), or the piece is broken.
    // (From the piece's start: the bytes before it may have been written over by the decoded string.)
    const end = closingQuote(bytes, from, from, to);
    const last = end === -1 ? undefined : decodedPiece(bytes, from, end);
    if (last === undefined) return undefined;
    into.append(last.text);
    body.decodedUpTo(start, end, last.sourceLength);
    return { units: into.units, end };
  }
}

/**
 * The characters of the string text[from, to) as JSON.parse reads them, with the length of that text in UTF-16 code
 * units, or undefined when JSON.parse refuses them.
 */
function decodedPiece(bytes: Buffer, from: number, to: number): { text: string; sourceLength: number } | undefined {
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
    return { text: JSON.parse(json) as string, sourceLength: json.length - 2 };
  } catch {
    return undefined;
  }
}

/**
 * Where a piece starting at `from` may end, at `at` or after it: never inside an escape, nor inside a UTF-8
 * character (a continuation byte), so that the pieces decode as the whole string does. Only the bytes from `from` on
 * are read: `from` starts a character, so the backslashes before it are whole escapes, and they may have been written
 * over by the decoded string.
 */
function pieceEnd(bytes: Buffer, from: number, at: number): number {
  let end = at;
  while (end < bytes.length && !(end > from && startsCharacter(bytes, end, from))) end++;
  return end;
}

function startsCharacter(bytes: Buffer, at: number, from: number): boolean {
  const c = bytes[at];
  if (c >= 0x80 && c <= 0xbf) return false;
  // The character before is a backslash that escapes this one, or this one is one of a \uXXXX escape's digits.
  if (escapes(bytes, at - 1, from)) return false;
  for (let back = 2; back <= 5 && at - back >= from; back++) {
    if (bytes[at - back + 1] === 0x75 && escapes(bytes, at - back, from)) return false;
  }
  return true;
}

/** Whether text[at] is a backslash that starts an escape (preceded by an even number of backslashes since `from`). */
function escapes(bytes: Buffer, at: number, from: number): boolean {
  let before = at;
  while (before >= from && bytes[before] === backslash) before--;
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

function nonSpaceFrom(bytes: Buffer, from: number): number {
  let at = from;
  while (at < bytes.length) {
    const c = bytes[at];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    at++;
  }
  return at;
}
