/**
 * The error-tolerant JSON reader over the scanner in json/scanner.ts that every format uses for text that may be
 * broken. It records a light tree (spans, kinds, short strings) for the containers its reading plan asks for (a
 * trace file: the events array, events, content chunks, tool calls, functions; a JSON Lines line: all of them);
 * everything else is checked for syntax and folding but allocates nothing. Iterative with an explicit stack, so
 * deep nesting cannot overflow the call stack.
 */
import { spend, type Budget } from '../common/budget';
import type { Steps } from '../common/steps';
import { Lexer, reportTokenError, unknownTokenMessage } from './scanner';
import { ScanError, Token } from './tokens';
import type { Field, JsonValue, ParsedJson, ReadingPlan, SyntaxCode, SyntaxProblem, ValueKind } from './tree';

/**
 * Strings up to this raw length keep their decoded value in the tree (ids, names, roles, types); longer ones
 * are decoded from the text when a feature asks (most contents and arguments are never read).
 */
export const maxKeptString = 64;

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

interface Frame<S extends string> {
  isObject: boolean;
  start: number;
  line: number;
  state: State;
  /** Null for containers that are not recorded. */
  shape: S | null;
  /** Recorded containers collect their children. */
  recorded: boolean;
  fields?: Field<S>[];
  items?: JsonValue<S>[];
  /**
   * Reused with the frame: children are collected here and copied out at the close into an array of exactly their
   * number (an array grown by push keeps room for 16, which cost a trace of short events most of its heap).
   */
  fieldBuffer: Field<S>[];
  itemBuffer: JsonValue<S>[];
  /** The key awaiting its value (recorded containers only). */
  pendingKey: Field<S> | null;
  /** Relative span of the latest key, for messages. */
  keyStart: number;
  keyEnd: number;
  lastComma: number;
}

/**
 * Every container gets the same properties in the same order, so V8 keeps one shape for all of them (and scalars
 * one other); a property a value does not need costs 8 bytes on each of millions of values.
 */
function makeValue<S extends string>(kind: ValueKind, start: number, end: number): JsonValue<S> {
  return { kind, start, end, shape: undefined, fields: undefined, items: undefined, unclosed: false };
}

/** Scalars, most of a trace's values: the container properties read undefined. */
function makeScalar<S extends string>(kind: ValueKind, start: number, end: number): JsonValue<S> {
  return { kind, start, end, str: undefined, escaped: false };
}

const noChildren: never[] = [];

/** An array of exactly the buffer's length (slice allocates no spare room); empty ones share one array. */
function exactCopy<T>(buffer: T[]): T[] {
  return buffer.length === 0 ? noChildren : buffer.slice();
}

const closerName = (frame: Frame<string>) => (frame.isObject ? "'}'" : "']'");

/** Reads the JSON value in text[from, end) by `plan`. All offsets in the result are absolute offsets into text. */
export function buildTree<S extends string>(text: string, from: number, end: number, plan: ReadingPlan<S>, budget?: Budget): ParsedJson<S> {
  return new TreeBuilder(text, from, end, plan, budget).run();
}

/** The same reading as steps of about `stepMs` each, for work that runs in steps of its own (see common/steps.ts). */
export function* buildTreeInSteps<S extends string>(
  text: string, from: number, end: number, plan: ReadingPlan<S>, budget: Budget | undefined, stepMs: number,
): Steps<ParsedJson<S>> {
  const builder = new TreeBuilder(text, from, end, plan, budget);
  for (; ;) {
    const parsed = builder.advance(performance.now() + stepMs);
    if (parsed) return parsed;
    yield;
  }
}

/** Tokens read between two looks at the clock while parsing in slices. */
const TOKENS_PER_CLOCK_CHECK = 2048;

const isValueStart = (token: number) =>
  token === Token.OpenBrace || token === Token.OpenBracket || token === Token.String || token === Token.Number ||
  token === Token.True || token === Token.False || token === Token.Null || token === Token.Unknown;

/**
 * Reads the tokens of one value and builds its light tree: `run` takes each token to the handler of the state the
 * innermost container is in; each handler returns true when the token must be handled again by an outer container
 * (a closer that closed an unclosed inner one).
 */
class TreeBuilder<S extends string> {
  private readonly lexer: Lexer;
  private readonly errors: SyntaxProblem[] = [];
  private readonly folds: number[] = [];
  /** The containers around the innermost one (top), outermost first. */
  private readonly stack: Frame<S>[] = [];
  private readonly spareFrames: Frame<S>[] = [];
  private top: Frame<S> | undefined;
  private topState: State = State.TopValue;
  private root: JsonValue<S> | null = null;
  private openObjects = 0;
  private openArrays = 0;
  private depth = 0;
  private steps = 0;
  /**
   * Set for the token after a string cut at the end of its line that holds its container's closer: that closer
   * is missing because the string swallowed it, so a mismatched closer here is the same error, not a second one.
   */
  private closerSwallowed = false;
  private stringCut = false;

  // The text is read in place (character access to a slice of it is markedly slower); offsets are absolute.
  constructor(
    private readonly source: string, from: number, private readonly end: number, private readonly plan: ReadingPlan<S>,
    private readonly budget: Budget | undefined,
  ) {
    this.lexer = new Lexer(source, from, end);
    // A leading byte order mark is not JSON but editors write it; skip it silently.
    if (source.charCodeAt(from) === 0xfeff && from < end) this.lexer.pos = from + 1;
  }

  run(): ParsedJson<S> {
    return this.advance(Infinity)!;
  }

  /**
   * Reads tokens until the end (then returns the result) or until `performance.now()` passes `until` (then returns
   * undefined; call again to go on). It stops only between tokens, when no token awaits another handler.
   */
  advance(until: number): ParsedJson<S> | undefined {
    const lexer = this.lexer;
    let token = 0;
    let reuse = false;
    let sinceClock = 0;
    for (; ;) {
      const reused = reuse;
      if (!reuse) {
        if (++sinceClock === TOKENS_PER_CLOCK_CHECK) {
          sinceClock = 0;
          if (performance.now() > until) return undefined;
        }
        token = lexer.next();
      }
      reuse = false;
      const offset = lexer.offset;
      const length = lexer.length;
      if (token === Token.EOF) break;
      if (token === Token.LineComment || token === Token.BlockComment) {
        this.comment(offset, length);
        continue;
      }
      this.checkToken(token, offset, length, reused);
      const top = this.top;
      if (!top) {
        if (this.topState === State.TopValue) {
          if (isValueStart(token)) this.beginValue(token, offset, length);
          else this.error(offset, offset + length, `Value expected, found '${this.text(offset, offset + length)}'`);
          continue;
        }
        const words = this.plan.words;
        this.error(offset, offset + length, `End of ${words.unit} expected: ${words.oneValue}`);
        break;
      }
      switch (top.state) {
        case State.ValueOrClose:
        case State.Value: reuse = this.inArray(top, token, offset, length); break;
        case State.CommaOrClose: reuse = this.afterItem(top, token, offset, length); break;
        case State.KeyOrClose:
        case State.Key: reuse = this.atKey(top, token, offset, length); break;
        case State.Colon: reuse = this.atColon(top, token, offset, length); break;
        case State.FieldValue: reuse = this.atFieldValue(top, token, offset, length); break;
        case State.FieldCommaOrClose: reuse = this.afterField(top, token, offset, length); break;
      }
    }
    this.finish(lexer.line);
    this.errors.sort((a, b) => a.start - b.start);
    return { root: this.root, errors: this.errors, folds: this.folds, depth: this.depth };
  }

  private text(from: number, to: number): string {
    return this.source.substring(from, to);
  }

  private error(from: number, to: number, message: string, code: SyntaxCode = 'json/syntax'): void {
    this.errors.push({ start: from, end: to, code, message });
  }

  private comment(offset: number, length: number): void {
    const unterminated = this.lexer.error === ScanError.UnexpectedEndOfComment;
    const where = this.plan.words.commentsWhere;
    // An unterminated comment swallows the rest of the text: a syntax error, not only a comment where none may be.
    if (unterminated) this.error(offset, offset + length, `Unterminated comment: expected '*/' (and comments are not allowed ${where}, which is strict JSON)`);
    else this.error(offset, offset + length, `Comments are not allowed ${where} (strict JSON)`, 'json/comment');
  }

  /** Reports what is wrong with the token itself (a broken string or number, a word that is no JSON). */
  private checkToken(token: number, offset: number, length: number, reused: boolean): void {
    const scanError = this.lexer.error;
    if (!reused) {
      this.closerSwallowed = this.stringCut;
      const top = this.top;
      this.stringCut = token === Token.String && scanError === ScanError.UnexpectedEndOfString && top !== undefined &&
        this.text(offset, offset + length).includes(top.isObject ? '}' : ']');
    }
    if (scanError !== ScanError.None) reportTokenError(this.source, offset, length, scanError, token, (from, to, message) => this.error(from, to, message));
    if (token === Token.Unknown && scanError === ScanError.None) this.error(offset, offset + length, unknownTokenMessage(this.text(offset, offset + length)));
  }

  /** In an array, where a value or (unless after a comma) its closer may come. */
  private inArray(top: Frame<S>, token: number, offset: number, length: number): boolean {
    if (isValueStart(token)) this.beginValue(token, offset, length);
    else if (token === Token.CloseBracket) {
      if (top.state === State.Value && top.lastComma >= 0) {
        this.error(top.lastComma, top.lastComma + 1, 'Trailing comma: remove it (JSON allows no comma before \']\')', 'json/trailing-comma');
      }
      this.close(offset + length, this.lexer.line, false);
    } else if (token === Token.CloseBrace) {
      return this.mismatchedCloser(true, offset, length, "Value expected, found '}'");
    } else if (token === Token.Comma) {
      this.error(offset, offset + length, 'Value expected before this comma');
      top.lastComma = offset;
      top.state = State.Value;
    } else {
      this.error(offset, offset + length, `Value expected, found '${this.text(offset, offset + length)}'`);
    }
    return false;
  }

  /** In an array after an item: a comma or the closer. */
  private afterItem(top: Frame<S>, token: number, offset: number, length: number): boolean {
    if (token === Token.Comma) {
      top.lastComma = offset;
      top.state = State.Value;
    } else if (token === Token.CloseBracket) {
      this.close(offset + length, this.lexer.line, false);
    } else if (isValueStart(token)) {
      this.error(offset, offset + Math.min(length, 1), 'Expected comma');
      this.beginValue(token, offset, length);
    } else if (token === Token.CloseBrace) {
      return this.mismatchedCloser(true, offset, length, "Expected ',' or ']', found '}'");
    } else {
      this.error(offset, offset + length, `Expected ',' or ']', found '${this.text(offset, offset + length)}'`);
    }
    return false;
  }

  /** In an object, where a key or (unless after a comma) its closer may come. */
  private atKey(top: Frame<S>, token: number, offset: number, length: number): boolean {
    if (token === Token.String || token === Token.Unknown) {
      if (token === Token.Unknown) {
        this.errors.pop();
        this.error(offset, offset + length, 'Property name expected: property names are double-quoted strings');
      }
      if (top.recorded) {
        const name = token === Token.String ? this.lexer.shared() : this.text(offset, offset + length);
        top.pendingKey = { name, keyStart: offset, keyEnd: offset + length, value: null };
      }
      top.keyStart = offset;
      top.keyEnd = offset + length;
      top.state = State.Colon;
    } else if (token === Token.CloseBrace) {
      if (top.state === State.Key && top.lastComma >= 0) {
        this.error(top.lastComma, top.lastComma + 1, 'Trailing comma: remove it (JSON allows no comma before \'}\')', 'json/trailing-comma');
      }
      this.close(offset + length, this.lexer.line, false);
    } else if (token === Token.CloseBracket) {
      return this.mismatchedCloser(false, offset, length, "Property name or '}' expected, found ']'");
    } else if (token === Token.Comma) {
      this.error(offset, offset + length, 'Property name expected before this comma');
      top.lastComma = offset;
      top.state = State.Key;
    } else if (token === Token.Colon) {
      this.error(offset, offset + length, 'Property name expected before \':\'');
      top.state = State.FieldValue;
    } else {
      this.error(offset, offset + Math.min(length, 1), 'Property name expected: property names are double-quoted strings');
      this.beginValue(token, offset, length);
    }
    return false;
  }

  /** After a key: its colon. */
  private atColon(top: Frame<S>, token: number, offset: number, length: number): boolean {
    if (token === Token.Colon) {
      top.state = State.FieldValue;
    } else if (token === Token.Comma) {
      this.error(offset, offset + length, `Expected ':' and a value after ${this.text(top.keyStart, top.keyEnd)}`);
      this.keepPendingKey(top);
      top.lastComma = offset;
      top.state = State.Key;
    } else if (token === Token.CloseBrace) {
      this.error(offset, offset + length, `Expected ':' and a value after ${this.text(top.keyStart, top.keyEnd)}`);
      this.keepPendingKey(top);
      this.close(offset + length, this.lexer.line, false);
    } else if (isValueStart(token)) {
      const keyEnd = top.keyEnd >= 0 ? top.keyEnd : offset;
      this.error(keyEnd, keyEnd + 1 <= offset ? keyEnd + 1 : offset + 1, "Expected ':'");
      this.beginValue(token, offset, length);
    } else {
      return this.mismatchedCloser(false, offset, length, "Expected ':'");
    }
    return false;
  }

  /** After a key's colon: its value. */
  private atFieldValue(top: Frame<S>, token: number, offset: number, length: number): boolean {
    if (isValueStart(token)) this.beginValue(token, offset, length);
    else if (token === Token.Comma) {
      this.error(offset, offset + length, 'Value expected');
      this.keepPendingKey(top);
      top.lastComma = offset;
      top.state = State.Key;
    } else if (token === Token.CloseBrace) {
      this.error(offset, offset + length, 'Value expected');
      this.keepPendingKey(top);
      this.close(offset + length, this.lexer.line, false);
    } else if (token === Token.CloseBracket) {
      this.keepPendingKey(top);
      return this.mismatchedCloser(false, offset, length, 'Value expected');
    } else {
      this.error(offset, offset + length, 'Value expected');
    }
    return false;
  }

  /** In an object after a field: a comma or the closer. */
  private afterField(top: Frame<S>, token: number, offset: number, length: number): boolean {
    if (token === Token.Comma) {
      top.lastComma = offset;
      top.state = State.Key;
    } else if (token === Token.CloseBrace) {
      this.close(offset + length, this.lexer.line, false);
    } else if (token === Token.String) {
      this.error(offset, offset + 1, 'Expected comma');
      if (top.recorded) top.pendingKey = { name: this.lexer.shared(), keyStart: offset, keyEnd: offset + length, value: null };
      top.keyStart = offset;
      top.keyEnd = offset + length;
      top.state = State.Colon;
    } else if (isValueStart(token)) {
      this.error(offset, offset + Math.min(length, 1), 'Expected comma');
      this.beginValue(token, offset, length);
    } else if (token === Token.CloseBracket) {
      return this.mismatchedCloser(false, offset, length, "Expected ',' or '}', found ']'");
    } else {
      this.error(offset, offset + length, `Expected ',' or '}', found '${this.text(offset, offset + length)}'`);
    }
    return false;
  }

  /** A key whose value is missing is kept, without a value. */
  private keepPendingKey(top: Frame<S>): void {
    if (top.recorded && top.pendingKey) top.fields!.push(top.pendingKey);
    top.pendingKey = null;
  }

  /** At the end of the text: what is still missing, and every open container closed there. */
  private finish(lastLine: number): void {
    const eof = this.end;
    const words = this.plan.words;
    if (!this.top && this.topState === State.TopValue) {
      this.error(eof, eof, `Unexpected end of ${words.unit}: expected a JSON value${words.expectedValueHint}`);
      return;
    }
    const top = this.top;
    if (!top) return;
    const closers: string[] = [];
    const all = [...this.stack, top];
    for (let i = all.length - 1; i >= 0 && closers.length < 3; i--) closers.push(closerName(all[i]));
    const more = all.length > 3 ? ` (and ${all.length - 3} more)` : '';
    this.error(eof, eof, `Unexpected end of ${words.unit}: expected ${closers.join(' then ')}${more}`);
    if (top.isObject) this.keepPendingKey(top);
    while (this.top) this.close(eof, lastLine, true);
  }

  private beginValue(token: number, offset: number, length: number): void {
    switch (token) {
      case Token.OpenBrace: this.open(true, offset); return;
      case Token.OpenBracket: this.open(false, offset); return;
      case Token.String: this.scalar('string', offset, offset + length, true); return;
      case Token.Number: this.scalar('number', offset, offset + length, false); return;
      case Token.True:
      case Token.False: this.scalar('boolean', offset, offset + length, false); return;
      case Token.Null: this.scalar('null', offset, offset + length, false); return;
      default: this.scalar('invalid', offset, offset + length, false);
    }
  }

  /** Hands a finished value to the container (or the top level) it belongs to. */
  private complete(value: JsonValue<S> | null): void {
    this.steps = spend(this.budget, this.steps);
    const top = this.top;
    if (!top) {
      this.root = value;
      this.topState = State.TopDone;
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
  }

  private scalar(kind: ValueKind, from: number, to: number, withString: boolean): void {
    if (this.top && !this.top.recorded) {
      this.complete(null);
      return;
    }
    const value = makeScalar<S>(kind, from, to);
    if (withString) {
      // An unterminated string is read by the general decoder, which drops no closing quote it does not find.
      if (to - from <= maxKeptString) {
        value.str = this.lexer.shared();
        value.escaped = this.lexer.escaped || this.lexer.error === ScanError.UnexpectedEndOfString;
      } else {
        // Long strings are read by the general decoder, which is as fast when there is nothing to unescape.
        value.escaped = true;
      }
    }
    this.complete(value);
  }

  private open(isObject: boolean, offset: number): void {
    const top = this.top;
    const key = top?.isObject ? top.pendingKey?.name : undefined;
    const shape = top && !top.recorded ? null : this.plan.childShape(top?.shape ?? undefined, key, isObject);
    const recorded = shape !== null;
    // Frames are reused: a document opens hundreds of thousands of containers, and only the recorded ones stay.
    const frame: Frame<S> = this.spareFrames.pop() ?? {
      isObject, start: 0, line: 0, state: State.Value, shape, recorded, fields: undefined, items: undefined,
      fieldBuffer: [], itemBuffer: [], pendingKey: null, keyStart: -1, keyEnd: -1, lastComma: -1,
    };
    frame.isObject = isObject;
    frame.start = offset;
    frame.line = this.lexer.line;
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
    if (top) this.stack.push(top);
    if (this.stack.length >= this.depth) this.depth = this.stack.length + 1;
    this.top = frame;
    if (isObject) this.openObjects++;
    else this.openArrays++;
  }

  private close(endOffset: number, line: number, unclosed: boolean): void {
    const frame = this.top!;
    if (frame.isObject) this.openObjects--;
    else this.openArrays--;
    if (line !== frame.line) this.folds.push(frame.start, endOffset);
    this.top = this.stack.pop();
    this.spareFrames.push(frame);
    const parentRecords = !this.top || this.top.recorded;
    if (!parentRecords) {
      this.complete(null);
      return;
    }
    const value = makeValue<S>(frame.isObject ? 'object' : 'array', frame.start, endOffset);
    if (frame.recorded) {
      value.shape = frame.shape!;
      if (frame.isObject) value.fields = exactCopy(frame.fieldBuffer);
      else value.items = exactCopy(frame.itemBuffer);
    }
    frame.fields = undefined;
    frame.items = undefined;
    frame.fieldBuffer.length = 0;
    frame.itemBuffer.length = 0;
    if (unclosed) value.unclosed = true;
    this.complete(value);
  }

  /** A closer that does not match the innermost container: close it if an outer one matches, else skip. */
  private mismatchedCloser(isObjectCloser: boolean, offset: number, length: number, message: string): boolean {
    if (!this.closerSwallowed) this.error(offset, offset + length, message);
    if (isObjectCloser ? this.openObjects > 0 : this.openArrays > 0) {
      this.close(offset, this.lexer.line, true);
      return true; // the token is handled again by the outer container
    }
    return false;
  }
}
