/**
 * Reading JSON string literals in place, shared by the trace and JSON Lines services: finding escapes without
 * searching past a string's end, decoding, and mapping decoded offsets back to the source.
 */
import type { TextSource } from '../common/textSource';


/**
 * indexOf that never looks at or past limit, however far away the next match is: long ranges are searched
 * through a slice (no copy in V8), short ones directly.
 */
export function indexOfWithin(text: TextSource, charCode: number, from: number, limit: number): number {
  if (limit - from <= 64) {
    for (let i = from; i < limit; i++) if (text.charCodeAt(i) === charCode) return i;
    return -1;
  }
  const found = text.slice(from, limit).indexOf(String.fromCharCode(charCode));
  return found === -1 ? -1 : from + found;
}

const BACKSLASH = 0x5c;

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** Length of the valid escape sequence at text[pos] (a backslash), or 0. Allocates nothing. */
export function escapeLength(text: TextSource, pos: number, end: number): number {
  if (pos + 1 >= end) return 0;
  switch (text.charCodeAt(pos + 1)) {
    case 0x22: case 0x5c: case 0x2f: case 0x62: case 0x66: case 0x6e: case 0x72: case 0x74:
      return 2;
    case 0x75:
      if (pos + 6 > end) return 0;
      for (let i = pos + 2; i < pos + 6; i++) if (!isHexDigit(text.charCodeAt(i))) return 0;
      return 6;
    default:
      return 0;
  }
}

/** Decodes the text between a string's quotes (at most maxChars characters), keeping broken escapes as written. */
export function decodeJsonString(text: TextSource, from: number, to: number, maxChars: number): string {
  let out = '';
  let i = from;
  while (i < to && out.length < maxChars) {
    const slash = indexOfWithin(text, BACKSLASH, i, to);
    const stop = slash === -1 ? to : slash;
    if (stop > i) {
      out += text.substring(i, Math.min(stop, i + (maxChars - out.length)));
      i = stop;
      continue;
    }
    const next = text.charAt(i + 1);
    switch (next) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        const hex = text.substring(i + 2, i + 6);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        out += '\\u';
        break;
      }
      default: out += next;
    }
    i += 2;
  }
  return out;
}

/**
 * The source offset of decoded character `decodedOffset` of the string literal text[start, end) (quotes
 * included), stepping over escapes as decodeJsonString reads them. Plain runs between backslashes map one to one.
 */
export function sourceOffsetInLiteral(text: TextSource, start: number, end: number, decodedOffset: number): number {
  const contentEnd = Math.max(start + 1, end - 1);
  let pos = start + 1;
  let decoded = 0;
  for (;;) {
    const slash = indexOfWithin(text, BACKSLASH, pos, contentEnd);
    const plainEnd = slash === -1 ? contentEnd : slash;
    if (decoded + (plainEnd - pos) >= decodedOffset) return pos + (decodedOffset - decoded);
    if (slash === -1) return contentEnd;
    decoded += plainEnd - pos + 1;
    pos = slash + escapedSourceLength(text, slash, contentEnd);
  }
}

/** Source characters of the escape at text[pos] that decodeJsonString turns into one character. */
function escapedSourceLength(text: TextSource, pos: number, end: number): number {
  if (text.charCodeAt(pos + 1) === 0x75) {
    // A broken \u is kept as written: its backslash is one character of its own.
    return escapeLength(text, pos, end) === 6 ? 6 : 1;
  }
  return Math.min(2, end - pos);
}
