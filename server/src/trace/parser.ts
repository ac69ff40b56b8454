/**
 * An error-tolerant JSON parser over jsonc-parser's scanner that keeps only what the trace features need.
 * It records a light tree (spans, kinds, short strings) for the parts of a trace that have meaning (the events
 * array, events, content chunks, tool calls, functions); everything below them is checked for syntax and folding
 * but allocates nothing. Iterative with an explicit stack, so deep nesting cannot overflow the call stack.
 */
import { spend, type Budget } from '../common/budget';
import { createScanner } from 'jsonc-parser';
import { decodeJsonString } from '../json/strings';
import { ScanError, Token } from '../json/tokens';

export type ValueKind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array' | 'invalid';

/** What a recorded object or array stands for in a trace. */
export type Shape = 'root' | 'events' | 'event' | 'content' | 'chunk' | 'image' | 'calls' | 'call' | 'function' | 'other';

export interface JsonValue {
  kind: ValueKind;
  start: number;
  /** Exclusive. */
  end: number;
  /** Decoded value of a short string (see maxKeptString). */
  str?: string;
  /** Set on strings whose decoded value differs from the raw text between the quotes. */
  escaped?: boolean;
  /** For recorded objects. */
  shape?: Shape;
  fields?: Field[];
  /** For recorded arrays. */
  items?: JsonValue[];
  /** True when the container was not closed properly (recovered). */
  unclosed?: boolean;
}

export interface Field {
  name: string;
  keyStart: number;
  keyEnd: number;
  /** Null when the value is missing (e.g. `"role": }`). */
  value: JsonValue | null;
}

export type SyntaxCode = 'json/syntax' | 'json/comment' | 'json/trailing-comma';

export interface SyntaxProblem {
  start: number;
  end: number;
  code: SyntaxCode;
  message: string;
}

export interface ParsedJson {
  root: JsonValue | null;
  errors: SyntaxProblem[];
  /** Start/end pairs of objects and arrays that span more than one line. */
  folds: number[];
  /** The deepest nesting of objects and arrays (0 for a scalar). */
  depth: number;
}

/**
 * Strings up to this raw length keep their decoded value in the tree (ids, names, roles, types); longer ones
 * are decoded from the text when a feature asks (most contents and arguments are never read).
 */
const maxKeptString = 64;

const enum State {
  ValueOrClose,
  Value,
  CommaOrClose,
  KeyOrClose,
  Key,
  Colon,
  FieldValue,
  FieldCommaOrClose,
  TopValue,
  TopDone,
}

interface Frame {
  isObject: boolean;
  start: number;
  line: number;
  state: State;
  shape: Shape;
  /** Recorded containers collect their children. */
  recorded: boolean;
  fields?: Field[];
  items?: JsonValue[];
  /**
   * Reused with the frame: children are collected here and copied out at the close into an array of exactly their
   * number (an array grown by push keeps room for 16, which cost a trace of short events most of its heap).
   */
  fieldBuffer: Field[];
  itemBuffer: JsonValue[];
  /** The key awaiting its value (recorded containers only). */
  pendingKey: Field | null;
  /** Relative span of the latest key, for messages. */
  keyStart: number;
  keyEnd: number;
  lastComma: number;
}

/**
 * The shape of a container inside one of the given shape (undefined: the top level) under `key`: what the trace
 * format expects there. Shared by the parser and by completion, which reads a half-typed document the same way.
 */
export function shapeOfChild(parent: Shape | undefined, key: string | undefined, isObject: boolean): Shape {
  if (parent === undefined) return isObject ? 'root' : 'events';
  switch (parent) {
    case 'root': return !isObject && key === 'messages' ? 'events' : 'other';
    case 'events': return isObject ? 'event' : 'other';
    case 'event':
      if (!isObject && key === 'content') return 'content';
      if (key === 'tool_calls') return isObject ? 'call' : 'calls';
      if (isObject && key === 'function') return 'function';
      return 'other';
    case 'content': return isObject ? 'chunk' : 'other';
    case 'chunk': return isObject && (key === 'image_url' || key === 'image') ? 'image' : 'other';
    case 'calls': return isObject ? 'call' : 'other';
    case 'call': return isObject && key === 'function' ? 'function' : 'other';
    default: return 'other';
  }
}

/**
 * Every container gets the same properties in the same order, so V8 keeps one shape for all of them (and scalars
 * one other); a property a value does not need costs 8 bytes on each of millions of values.
 */
function makeValue(kind: ValueKind, start: number, end: number): JsonValue {
  return { kind, start, end, shape: undefined, fields: undefined, items: undefined, unclosed: false };
}

/** Scalars, most of a trace's values: the container properties read undefined. */
function makeScalar(kind: ValueKind, start: number, end: number): JsonValue {
  return { kind, start, end, str: undefined, escaped: false };
}

const noChildren: never[] = [];

/** An array of exactly the buffer's length (slice allocates no spare room); empty ones share one array. */
function exactCopy<T>(buffer: T[]): T[] {
  return buffer.length === 0 ? noChildren : buffer.slice();
}

const closerName = (frame: Frame) => (frame.isObject ? "'}'" : "']'");

/** Parses the JSON value in text[from, end). All offsets in the result are absolute offsets into text. */
export function parseJson(text: string, from = 0, end = text.length, budget?: Budget): ParsedJson {
  // The text is read in place (character access to a slice of it is markedly slower); offsets are absolute.
  const source = text;
  const lexer = new Lexer(source, from, end);
  const errors: SyntaxProblem[] = [];
  const folds: number[] = [];
  const stack: Frame[] = [];
  const spareFrames: Frame[] = [];
  let top: Frame | undefined;
  let topState: State = State.TopValue;
  let root: JsonValue | null = null;
  let openObjects = 0;
  let openArrays = 0;
  let lastLine = 0;
  let depth = 0;
  let steps = 0;

  const error = (from: number, to: number, message: string, code: SyntaxCode = 'json/syntax') => {
    errors.push({ start: from, end: to, code, message });
  };

  // A leading byte order mark is not JSON but editors write it; skip it silently.
  if (source.charCodeAt(from) === 0xfeff && from < end) lexer.pos = from + 1;

  /** Hands a finished value to the container (or the top level) it belongs to. */
  const complete = (value: JsonValue | null) => {
    steps = spend(budget, steps);
    if (!top) {
      root = value;
      topState = State.TopDone;
      return;
    }
    if (top.isObject) {
      if (top.recorded && top.pendingKey) {
        top.pendingKey.value = value;
        top.fields!.push(top.pendingKey);
      }
      top.pendingKey = null;
      top.state = State.FieldCommaOrClose;
    } else {
      if (top.recorded && value) top.items!.push(value);
      top.state = State.CommaOrClose;
    }
  };

  const scalar = (kind: ValueKind, from: number, to: number, withString: boolean) => {
    if (top && !top.recorded) {
      complete(null);
      return;
    }
    const value = makeScalar(kind, from, to);
    if (withString) {
      // An unterminated string is read by the general decoder, which drops no closing quote it does not find.
      if (to - from <= maxKeptString) {
        value.str = lexer.shared();
        value.escaped = lexer.escaped || lexer.error === ScanError.UnexpectedEndOfString;
      } else {
        // Long strings are read by the general decoder, which is as fast when there is nothing to unescape.
        value.escaped = true;
      }
    }
    complete(value);
  };

  const open = (isObject: boolean, offset: number) => {
    const key = top?.isObject ? top.pendingKey?.name : undefined;
    const shape = top && !top.recorded ? 'other' : shapeOfChild(top?.shape, key, isObject);
    const recorded = shape !== 'other';
    // Frames are reused: a trace opens hundreds of thousands of containers, and only the recorded ones stay.
    const frame: Frame = spareFrames.pop() ?? {
      isObject, start: 0, line: 0, state: State.Value, shape, recorded, fields: undefined, items: undefined,
      fieldBuffer: [], itemBuffer: [], pendingKey: null, keyStart: -1, keyEnd: -1, lastComma: -1,
    };
    frame.isObject = isObject;
    frame.start = offset;
    frame.line = lexer.line;
    frame.state = isObject ? State.KeyOrClose : State.ValueOrClose;
    frame.shape = shape;
    frame.recorded = recorded;
    frame.fields = recorded && isObject ? frame.fieldBuffer : undefined;
    frame.items = recorded && !isObject ? frame.itemBuffer : undefined;
    frame.pendingKey = null;
    frame.keyStart = -1;
    frame.keyEnd = -1;
    frame.lastComma = -1;
    // The parent's pending key stays on the parent until the child completes.
    if (top) stack.push(top);
    if (stack.length >= depth) depth = stack.length + 1;
    top = frame;
    if (isObject) openObjects++;
    else openArrays++;
  };

  const close = (endOffset: number, line: number, unclosed: boolean) => {
    const frame = top!;
    if (frame.isObject) openObjects--;
    else openArrays--;
    if (line !== frame.line) folds.push(frame.start, endOffset);
    top = stack.pop();
    spareFrames.push(frame);
    const parentRecords = !top || top.recorded;
    if (!parentRecords) {
      complete(null);
      return;
    }
    const value = makeValue(frame.isObject ? 'object' : 'array', frame.start, endOffset);
    if (frame.recorded) {
      value.shape = frame.shape;
      if (frame.isObject) value.fields = exactCopy(frame.fieldBuffer);
      else value.items = exactCopy(frame.itemBuffer);
    }
    frame.fields = undefined;
    frame.items = undefined;
    frame.fieldBuffer.length = 0;
    frame.itemBuffer.length = 0;
    if (unclosed) value.unclosed = true;
    complete(value);
  };

  /**
   * Set for the token after a string cut at the end of its line that holds its container's closer: that closer
   * is missing because the string swallowed it, so a mismatched closer here is the same error, not a second one.
   */
  let closerSwallowed = false;
  let stringCut = false;

  /** A closer that does not match the innermost container: close it if an outer one matches, else skip. */
  const mismatchedCloser = (isObjectCloser: boolean, offset: number, length: number, message: string): boolean => {
    if (!closerSwallowed) error(offset, offset + length, message);
    if (isObjectCloser ? openObjects > 0 : openArrays > 0) {
      close(offset, lexer.line, true);
      return true; // the token is handled again by the outer container
    }
    return false;
  };

  const beginValue = (token: number, offset: number, length: number): void => {
    switch (token) {
      case Token.OpenBrace: open(true, offset); return;
      case Token.OpenBracket: open(false, offset); return;
      case Token.String: scalar('string', offset, offset + length, true); return;
      case Token.Number: scalar('number', offset, offset + length, false); return;
      case Token.True:
      case Token.False: scalar('boolean', offset, offset + length, false); return;
      case Token.Null: scalar('null', offset, offset + length, false); return;
      default: scalar('invalid', offset, offset + length, false);
    }
  };

  const isValueStart = (token: number) =>
    token === Token.OpenBrace || token === Token.OpenBracket || token === Token.String || token === Token.Number ||
    token === Token.True || token === Token.False || token === Token.Null || token === Token.Unknown;

  let token = 0;
  let reuse = false;
  for (; ;) {
    const reused = reuse;
    if (!reuse) token = lexer.next();
    reuse = false;
    const offset = lexer.offset;
    const length = lexer.length;
    if (token === Token.EOF) {
      lastLine = lexer.line;
      break;
    }
    if (token === Token.LineComment || token === Token.BlockComment) {
      const unterminated = lexer.error === ScanError.UnexpectedEndOfComment;
      error(offset, offset + length, unterminated
        ? 'Unterminated comment: expected \'*/\' (and comments are not allowed in a trace, which is strict JSON)'
        : 'Comments are not allowed in a trace (strict JSON)', 'json/comment');
      continue;
    }
    const scanError = lexer.error;
    if (!reused) {
      closerSwallowed = stringCut;
      stringCut = token === Token.String && scanError === ScanError.UnexpectedEndOfString && top !== undefined &&
        source.substring(offset, offset + length).includes(top.isObject ? '}' : ']');
    }
    if (scanError !== ScanError.None) reportTokenError(source, offset, length, scanError, token, error);
    if (token === Token.Unknown && scanError === ScanError.None) {
      const word = source.substring(offset, offset + length);
      error(offset, offset + length, unknownTokenMessage(word));
    }

    if (!top) {
      if (topState === State.TopValue) {
        if (isValueStart(token)) beginValue(token, offset, length);
        else error(offset, offset + length, `Value expected, found '${source.substring(offset, offset + length)}'`);
        continue;
      }
      error(offset, offset + length, 'End of file expected: a trace file holds one JSON value');
      break;
    }

    switch (top.state) {
      case State.ValueOrClose:
      case State.Value:
        if (isValueStart(token)) beginValue(token, offset, length);
        else if (token === Token.CloseBracket) {
          if (top.state === State.Value && top.lastComma >= 0) {
            error(top.lastComma, top.lastComma + 1, 'Trailing comma: remove it (JSON allows no comma before \']\')', 'json/trailing-comma');
          }
          close(offset + length, lexer.line, false);
        } else if (token === Token.CloseBrace) {
          reuse = mismatchedCloser(true, offset, length, "Value expected, found '}'");
        } else if (token === Token.Comma) {
          error(offset, offset + length, 'Value expected before this comma');
          top.lastComma = offset;
          top.state = State.Value;
        } else {
          error(offset, offset + length, `Value expected, found '${source.substring(offset, offset + length)}'`);
        }
        break;
      case State.CommaOrClose:
        if (token === Token.Comma) {
          top.lastComma = offset;
          top.state = State.Value;
        } else if (token === Token.CloseBracket) {
          close(offset + length, lexer.line, false);
        } else if (isValueStart(token)) {
          error(offset, offset + Math.min(length, 1), 'Expected comma');
          beginValue(token, offset, length);
        } else if (token === Token.CloseBrace) {
          reuse = mismatchedCloser(true, offset, length, "Expected ',' or ']', found '}'");
        } else {
          error(offset, offset + length, `Expected ',' or ']', found '${source.substring(offset, offset + length)}'`);
        }
        break;
      case State.KeyOrClose:
      case State.Key:
        if (token === Token.String || token === Token.Unknown) {
          if (token === Token.Unknown) {
            errors.pop();
            error(offset, offset + length, 'Property name expected: property names are double-quoted strings');
          }
          if (top.recorded) {
            const name = token === Token.String ? lexer.shared() : source.substring(offset, offset + length);
            top.pendingKey = { name, keyStart: offset, keyEnd: offset + length, value: null };
          }
          top.keyStart = offset;
          top.keyEnd = offset + length;
          top.state = State.Colon;
        } else if (token === Token.CloseBrace) {
          if (top.state === State.Key && top.lastComma >= 0) {
            error(top.lastComma, top.lastComma + 1, 'Trailing comma: remove it (JSON allows no comma before \'}\')', 'json/trailing-comma');
          }
          close(offset + length, lexer.line, false);
        } else if (token === Token.CloseBracket) {
          reuse = mismatchedCloser(false, offset, length, "Property name or '}' expected, found ']'");
        } else if (token === Token.Comma) {
          error(offset, offset + length, 'Property name expected before this comma');
          top.lastComma = offset;
          top.state = State.Key;
        } else if (token === Token.Colon) {
          error(offset, offset + length, 'Property name expected before \':\'');
          top.state = State.FieldValue;
        } else {
          error(offset, offset + Math.min(length, 1), 'Property name expected: property names are double-quoted strings');
          beginValue(token, offset, length);
        }
        break;
      case State.Colon:
        if (token === Token.Colon) {
          top.state = State.FieldValue;
        } else if (token === Token.Comma) {
          error(offset, offset + length, `Expected ':' and a value after ${source.substring(top.keyStart, top.keyEnd)}`);
          if (top.recorded && top.pendingKey) top.fields!.push(top.pendingKey);
          top.pendingKey = null;
          top.lastComma = offset;
          top.state = State.Key;
        } else if (token === Token.CloseBrace) {
          error(offset, offset + length, `Expected ':' and a value after ${source.substring(top.keyStart, top.keyEnd)}`);
          if (top.recorded && top.pendingKey) top.fields!.push(top.pendingKey);
          top.pendingKey = null;
          close(offset + length, lexer.line, false);
        } else if (isValueStart(token)) {
          const keyEnd = top.keyEnd >= 0 ? top.keyEnd : offset;
          error(keyEnd, keyEnd + 1 <= offset ? keyEnd + 1 : offset + 1, "Expected ':'");
          beginValue(token, offset, length);
        } else {
          reuse = mismatchedCloser(false, offset, length, "Expected ':'");
        }
        break;
      case State.FieldValue:
        if (isValueStart(token)) beginValue(token, offset, length);
        else if (token === Token.Comma) {
          error(offset, offset + length, 'Value expected');
          if (top.recorded && top.pendingKey) top.fields!.push(top.pendingKey);
          top.pendingKey = null;
          top.lastComma = offset;
          top.state = State.Key;
        } else if (token === Token.CloseBrace) {
          error(offset, offset + length, 'Value expected');
          if (top.recorded && top.pendingKey) top.fields!.push(top.pendingKey);
          top.pendingKey = null;
          close(offset + length, lexer.line, false);
        } else if (token === Token.CloseBracket) {
          if (top.recorded && top.pendingKey) top.fields!.push(top.pendingKey);
          top.pendingKey = null;
          reuse = mismatchedCloser(false, offset, length, 'Value expected');
        } else {
          error(offset, offset + length, 'Value expected');
        }
        break;
      case State.FieldCommaOrClose:
        if (token === Token.Comma) {
          top.lastComma = offset;
          top.state = State.Key;
        } else if (token === Token.CloseBrace) {
          close(offset + length, lexer.line, false);
        } else if (token === Token.String) {
          error(offset, offset + 1, 'Expected comma');
          if (top.recorded) top.pendingKey = { name: lexer.shared(), keyStart: offset, keyEnd: offset + length, value: null };
          top.keyStart = offset;
          top.keyEnd = offset + length;
          top.state = State.Colon;
        } else if (isValueStart(token)) {
          error(offset, offset + Math.min(length, 1), 'Expected comma');
          beginValue(token, offset, length);
        } else if (token === Token.CloseBracket) {
          reuse = mismatchedCloser(false, offset, length, "Expected ',' or '}', found ']'");
        } else {
          error(offset, offset + length, `Expected ',' or '}', found '${source.substring(offset, offset + length)}'`);
        }
        break;
    }
  }

  const eof = end;
  if (!top && topState === State.TopValue) {
    error(eof, eof, 'Unexpected end of file: expected a JSON value (a trace is an array of events)');
  } else if (top) {
    const closers: string[] = [];
    const all = [...stack, top];
    for (let i = all.length - 1; i >= 0 && closers.length < 3; i--) closers.push(closerName(all[i]));
    const more = all.length > 3 ? ` (and ${all.length - 3} more)` : '';
    error(eof, eof, `Unexpected end of file: expected ${closers.join(' then ')}${more}`);
    if (top.isObject && top.recorded && top.pendingKey) {
      top.fields!.push(top.pendingKey);
      top.pendingKey = null;
    }
    while (top) close(eof, lastLine, true);
  }
  errors.sort((a, b) => a.start - b.start);
  return { root, errors, folds, depth };
}

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
class Lexer {
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

  /**
   * A string token. A well-formed one (nearly all) is matched whole: its plain start as in checkedString, then
   * everything after its first escape by one regular expression, rather than one call per run between escapes
   * (escapes are dense in tool outputs and encoded arguments). Anything else is read again by checkedString.
   */
  private string(start: number): number {
    const source = this.source;
    const len = this.len;
    let i = start + 1;
    const shortRun = i + 8 < len ? i + 8 : len;
    while (i < shortRun && ordinary[source.charCodeAt(i)] === 1) i++;
    if (i === shortRun && i < len) {
      ordinaryRun.lastIndex = i;
      ordinaryRun.test(source);
      i = ordinaryRun.lastIndex;
    }
    if (i < len) {
      const c = source.charCodeAt(i);
      if (c === 34) return this.wellFormedString(start, i + 1, false);
      if (c === 92) {
        for (; ;) {
          escapedRun.lastIndex = i;
          if (!escapedRun.test(source)) break;
          i = escapedRun.lastIndex;
          if (i >= len) break;
          const next = source.charCodeAt(i);
          if (next === 34) return this.wellFormedString(start, i + 1, true);
          if (next !== 92) break;
        }
      }
    }
    return this.checkedString(start);
  }

  private wellFormedString(start: number, end: number, escaped: boolean): number {
    this.escaped = escaped;
    this.error = ScanError.None;
    this.length = end - start;
    this.pos = end;
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
    const length = this.length;
    if (length <= maxKnownLength + 2 && this.error === ScanError.None && !this.escaped) {
      const candidates = knownByLength[length - 2];
      if (candidates) {
        const from = this.offset + 1;
        const source = this.source;
        const first = source.charCodeAt(from);
        for (const name of candidates) if (name.charCodeAt(0) === first && source.startsWith(name, from)) return name;
      }
    }
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



function unknownTokenMessage(word: string): string {
  const shown = word.length > 40 ? `${word.slice(0, 40)}…` : word;
  if (/^(True|False|None|TRUE|FALSE|NULL|Null|undefined|NaN|-?Infinity)$/.test(word)) {
    return `Value expected, found '${shown}': JSON literals are true, false and null (numbers cannot be NaN or Infinity)`;
  }
  if (word.startsWith("'")) return `Value expected, found '${shown}': JSON strings use double quotes`;
  return `Value expected, found '${shown}'`;
}

/** A string with a scan error can hold several problems: re-read it to report each one where it is. */
function reportTokenError(
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
