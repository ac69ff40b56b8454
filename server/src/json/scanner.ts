/**
 * The tolerant JSON scanner: tokens read in place from text[from, end), with the problems of a broken token
 * described where they are. The trace parser builds its model over it.
 */
import { createScanner } from 'jsonc-parser';
import { decodeJsonString } from './strings';
import { ScanError, Token } from './tokens';

/** Keys and values that recur in every trace, shared rather than copied out of the text each time. */
const knownStrings = [
  'role', 'content', 'tool_calls', 'tool_call_id', 'id', 'type', 'function', 'name', 'arguments', 'text', 'image_url',
  'image', 'url', 'messages', 'metadata', 'annotations', 'index', 'tools', 'detail', 'user', 'assistant', 'system',
  'tool', 'developer', 'refusal', 'timestamp',
];
const maxKnownLength = Math.max(...knownStrings.map((name) => name.length));
const knownByLength: (string[] | undefined)[] = [];
for (const name of knownStrings) (knownByLength[name.length] ??= []).push(name);

/** 1 for the characters a string holds as they are (all but '"', '\\' and control characters). */
const ordinary = new Uint8Array(0x10000).fill(1);
ordinary.fill(0, 0, 0x20);
ordinary[0x22] = 0;
ordinary[0x5c] = 0;

const ordinaryRun = /[^"\\\u0000-\u001f]*/y;
/**
 * Part of a well-formed string from a backslash on: valid escapes, each followed by ordinary characters (written so
 * that no text can be matched two ways, which keeps a failing match linear). At most a few hundred escapes a
 * match: the engine keeps a backtracking entry per repetition, and a string of millions would overflow its stack.
 */
const escapedRun = /(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*){1,256}/y;

const isHexDigit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

/**
 * Tokens for the parser, read from text[from, end) in place. Whitespace, punctuation, strings and well-formed
 * numbers and literals are read here (strings are checked but only decoded on request, which keeps large tool
 * outputs cheap); anything else (broken numbers, comments, junk) goes through jsonc-parser's scanner.
 */
export class Lexer {
  pos = 0;
  offset = 0;
  length = 0;
  error: number = ScanError.None;
  line = 0;
  /** Whether the current string token holds a backslash. */
  escaped = false;
  private readonly scanner;
  private readonly len: number;

  /** For tokens that run past the end of the range: a scanner of the range alone (made when first needed). */
  private boundedScanner: ReturnType<typeof createScanner> | undefined;

  constructor(private readonly source: string, private readonly from: number, end: number) {
    this.scanner = createScanner(source, false);
    this.len = end;
    this.pos = from;
  }

  next(): number {
    const source = this.source;
    const len = this.len;
    let pos = this.pos;
    let c = source.charCodeAt(pos);
    while ((c === 32 || c === 10 || c === 13 || c === 9) && pos < len) {
      if (c === 10 || (c === 13 && source.charCodeAt(pos + 1) !== 10)) this.line++;
      c = source.charCodeAt(++pos);
    }
    this.offset = pos;
    this.error = ScanError.None;
    if (pos >= len) {
      this.pos = len;
      this.offset = len;
      this.length = 0;
      return Token.EOF;
    }
    let token: number;
    switch (c) {
      case 123: token = Token.OpenBrace; break;
      case 125: token = Token.CloseBrace; break;
      case 91: token = Token.OpenBracket; break;
      case 93: token = Token.CloseBracket; break;
      case 58: token = Token.Colon; break;
      case 44: token = Token.Comma; break;
      case 34: return this.string(pos);
      default: {
        const simple = this.numberOrLiteral(pos, c);
        if (simple !== 0) return simple;
        let scanner = this.scanner;
        let base = 0;
        scanner.setPosition(pos);
        token = scanner.scan();
        if (pos + scanner.getTokenLength() > len) {
          scanner = this.boundedScanner ??= createScanner(source.substring(this.from, len), false);
          base = this.from;
          scanner.setPosition(pos - base);
          token = scanner.scan();
        }
        this.error = scanner.getTokenError();
        this.length = scanner.getTokenLength();
        this.pos = pos + this.length;
        if (token === Token.BlockComment) {
          const comment = source.substring(pos, this.pos);
          for (let i = comment.indexOf('\n'); i !== -1; i = comment.indexOf('\n', i + 1)) this.line++;
        }
        return token;
      }
    }
    this.length = 1;
    this.pos = pos + 1;
    return token;
  }

  /**
   * A well-formed number, true, false or null followed by a separator, read without jsonc-parser's scanner (which
   * copies each one out of the text); 0 for anything else, which the scanner then reads and reports on.
   */
  private numberOrLiteral(pos: number, c: number): number {
    const source = this.source;
    let end: number;
    let token: number;
    if (c === 116 && source.startsWith('true', pos)) {
      end = pos + 4;
      token = Token.True;
    } else if (c === 102 && source.startsWith('false', pos)) {
      end = pos + 5;
      token = Token.False;
    } else if (c === 110 && source.startsWith('null', pos)) {
      end = pos + 4;
      token = Token.Null;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let i = c === 45 ? pos + 1 : pos;
      let d = source.charCodeAt(i);
      if (d === 48) d = source.charCodeAt(++i);
      else if (d >= 49 && d <= 57) do d = source.charCodeAt(++i); while (d >= 48 && d <= 57);
      else return 0;
      if (d === 46) {
        d = source.charCodeAt(++i);
        if (!(d >= 48 && d <= 57)) return 0;
        do d = source.charCodeAt(++i); while (d >= 48 && d <= 57);
      }
      if (d === 101 || d === 69) {
        d = source.charCodeAt(++i);
        if (d === 43 || d === 45) d = source.charCodeAt(++i);
        if (!(d >= 48 && d <= 57)) return 0;
        do d = source.charCodeAt(++i); while (d >= 48 && d <= 57);
      }
      end = i;
      token = Token.Number;
    } else {
      return 0;
    }
    if (end > this.len) return 0;
    const next = source.charCodeAt(end);
    if (end < this.len && !(next === 44 || next === 93 || next === 125 || next === 58 || next === 32 || next === 10 || next === 13 || next === 9)) return 0;
    this.length = end - pos;
    this.pos = end;
    return token;
  }

  /** A string token: a well-formed one (nearly all) is matched whole, anything else read again by checkedString. */
  private string(start: number): number {
    const end = wellFormedStringEnd(this.source, start, this.len);
    if (end === 0) return this.checkedString(start);
    this.escaped = end < 0;
    this.error = ScanError.None;
    this.length = Math.abs(end) - start;
    this.pos = Math.abs(end);
    return Token.String;
  }

  /**
   * A string checked as it is read, for the ones with a fault to report (or running past the range). Measured on
   * real traces, this beats finding the closing quote and the backslashes with indexOf: each escape would cost a
   * search, and control characters would need a search of their own.
   */
  private checkedString(start: number): number {
    const source = this.source;
    const len = this.len;
    let i = start + 1;
    let escaped = false;
    let error: number = ScanError.None;
    for (; ;) {
      // Ordinary characters: everything but '"', '\\' and control characters. Short runs (between the escapes
      // of a tool output) are read here; a long run is skipped by the regular expression engine, several times faster.
      const shortRun = i + 8 < len ? i + 8 : len;
      while (i < shortRun && ordinary[source.charCodeAt(i)] === 1) i++;
      if (i === shortRun && i < len) {
        ordinaryRun.lastIndex = i;
        ordinaryRun.test(source);
        i = ordinaryRun.lastIndex < len ? ordinaryRun.lastIndex : len;
      }
      const c = source.charCodeAt(i);
      if (i >= len) {
        i = len;
        error = ScanError.UnexpectedEndOfString;
        break;
      }
      if (c === 34) {
        i++;
        break;
      }
      if (c === 92) {
        escaped = true;
        const e = source.charCodeAt(i + 1);
        if (e === 117) {
          if (!(i + 5 < len && isHexDigit(source.charCodeAt(i + 2)) && isHexDigit(source.charCodeAt(i + 3)) &&
            isHexDigit(source.charCodeAt(i + 4)) && isHexDigit(source.charCodeAt(i + 5)))) error = ScanError.InvalidUnicode;
          i += 2;
          continue;
        }
        if (e === 10 || e === 13 || i + 1 >= len) {
          i++;
          continue; // the line end is reported as an unterminated string next round
        }
        if (!(e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)) {
          error = ScanError.InvalidEscapeCharacter;
        }
        i += 2;
        continue;
      }
      if (c < 32) {
        if (c === 10 || c === 13) {
          error = ScanError.UnexpectedEndOfString;
          break;
        }
        error = ScanError.InvalidCharacter;
      }
      i++;
    }
    this.escaped = escaped;
    this.error = error;
    this.length = i - start;
    this.pos = i;
    return Token.String;
  }

  /** The decoded value of the current string token; the common keys and values are shared, not copied each time. */
  shared(): string {
    if (this.error === ScanError.None) return sharedString(this.source, this.offset, this.offset + this.length, this.escaped);
    return this.value();
  }

  /** The decoded value of the current token (strings), or its text. */
  value(): string {
    const from = this.offset;
    const to = this.offset + this.length;
    if (this.source.charCodeAt(from) !== 34) return this.source.substring(from, to);
    const closed = to - from >= 2 && this.source.charCodeAt(to - 1) === 34 && this.error !== ScanError.UnexpectedEndOfString;
    const innerEnd = closed ? to - 1 : to;
    if (!this.escaped) return this.source.substring(from + 1, innerEnd);
    if (this.error === ScanError.None) return JSON.parse(this.source.substring(from, to)) as string;
    return decodeJsonString(this.source, from + 1, innerEnd, Infinity);
  }
}

/**
 * The end (after its closing quote) of the well-formed string literal opening at source[start] and closed before
 * `len`, negative when it holds an escape; 0 when it is not well formed (a control character, a broken escape, no
 * closing quote). Its plain start is read a few characters at a time, then everything after its first escape by
 * one regular expression, rather than one call per run between escapes (escapes are dense in tool outputs and
 * encoded arguments).
 */
export function wellFormedStringEnd(source: string, start: number, len: number): number {
  let i = start + 1;
  const shortRun = i + 8 < len ? i + 8 : len;
  while (i < shortRun && ordinary[source.charCodeAt(i)] === 1) i++;
  if (i === shortRun && i < len) {
    ordinaryRun.lastIndex = i;
    ordinaryRun.test(source);
    i = ordinaryRun.lastIndex;
  }
  if (i >= len) return 0;
  const c = source.charCodeAt(i);
  if (c === 34) return i + 1;
  if (c !== 92) return 0;
  for (; ;) {
    escapedRun.lastIndex = i;
    if (!escapedRun.test(source)) return 0;
    i = escapedRun.lastIndex;
    if (i >= len) return 0;
    const next = source.charCodeAt(i);
    if (next === 34) return -(i + 1);
    if (next !== 92) return 0;
  }
}

/** The end of the well-formed JSON number starting at source[start] and ending before `len`; -1 when there is none. */
export function wellFormedNumberEnd(source: string, start: number, len: number): number {
  const at = (i: number) => (i < len ? source.charCodeAt(i) : -1);
  let i = start;
  let d = at(i);
  if (d === 0x2d) d = at(++i);
  if (d === 0x30) d = at(++i);
  else if (d >= 0x31 && d <= 0x39) do d = at(++i); while (d >= 0x30 && d <= 0x39);
  else return -1;
  if (d === 0x2e) {
    d = at(++i);
    if (!(d >= 0x30 && d <= 0x39)) return -1;
    do d = at(++i); while (d >= 0x30 && d <= 0x39);
  }
  if (d === 0x65 || d === 0x45) {
    d = at(++i);
    if (d === 0x2b || d === 0x2d) d = at(++i);
    if (!(d >= 0x30 && d <= 0x39)) return -1;
    do d = at(++i); while (d >= 0x30 && d <= 0x39);
  }
  return i;
}

/**
 * The decoded value of the well-formed string literal source[start, end) (quotes included; `escaped`: it holds a
 * backslash); the common keys and values are shared, not copied each time.
 */
export function sharedString(source: string, start: number, end: number, escaped: boolean): string {
  if (escaped) return JSON.parse(source.substring(start, end)) as string;
  const length = end - start - 2;
  if (length <= maxKnownLength) {
    const candidates = knownByLength[length];
    if (candidates) {
      const first = source.charCodeAt(start + 1);
      for (const name of candidates) if (name.charCodeAt(0) === first && source.startsWith(name, start + 1)) return name;
    }
  }
  return source.substring(start + 1, end - 1);
}

export function unknownTokenMessage(word: string): string {
  const shown = word.length > 40 ? `${word.slice(0, 40)}…` : word;
  if (/^(True|False|None|TRUE|FALSE|NULL|Null|undefined|NaN|-?Infinity)$/.test(word)) {
    return `Value expected, found '${shown}': JSON literals are true, false and null (numbers cannot be NaN or Infinity)`;
  }
  if (word.startsWith("'")) return `Value expected, found '${shown}': JSON strings use double quotes`;
  return `Value expected, found '${shown}'`;
}

/** A string with a scan error can hold several problems: re-read it to report each one where it is. */
export function reportTokenError(
  source: string, offset: number, length: number, scanError: number, token: number,
  error: (from: number, to: number, message: string) => void,
): void {
  if (token === Token.Number) {
    error(offset, offset + length, 'Invalid number: a digit is expected after \'.\' or the exponent');
    return;
  }
  if (token !== Token.String) return;
  const endOffset = offset + length;
  for (let i = offset + 1; i < endOffset; i++) {
    const ch = source.charCodeAt(i);
    if (ch === 0x22) return; // the closing quote
    if (ch === 0x5c) {
      const next = source.charCodeAt(i + 1);
      if (i + 1 >= endOffset) break;
      if (next === 0x75) {
        let digits = 0;
        while (digits < 4 && i + 2 + digits < endOffset && /[0-9a-fA-F]/.test(source.charAt(i + 2 + digits))) digits++;
        if (digits < 4) {
          error(i, i + 2 + digits, 'Invalid unicode escape: \\u needs four hex digits');
        }
        i += 1 + digits;
        continue;
      }
      if (!(next === 0x22 || next === 0x5c || next === 0x2f || next === 0x62 || next === 0x66 || next === 0x6e ||
        next === 0x72 || next === 0x74)) {
        error(i, i + 2, `Invalid escape sequence '\\${source.charAt(i + 1)}' in string: valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`);
      }
      i++;
      continue;
    }
    if (ch < 0x20) {
      const code = ch.toString(16).toUpperCase().padStart(4, '0');
      const named: Record<number, string> = { 9: '\\t', 8: '\\b', 12: '\\f' };
      error(i, i + 1, `Control character U+${code} in a string: write it as ${named[ch] ?? `\\u${code}`}`);
    }
  }
  if (scanError === ScanError.UnexpectedEndOfString) {
    error(offset, endOffset, 'Unterminated string: expected a closing \'"\' before the end of the line');
  }
}
