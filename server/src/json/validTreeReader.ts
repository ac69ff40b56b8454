/**
 * The light tree of treeBuilder.ts for text that is valid JSON, read by recursive descent instead of its token
 * stream and state machine: strings are matched whole as the scanner matches them, containers the plan records are
 * read member by member into arrays of exactly their size, and the others are stepped over by a loop that only
 * follows brackets, commas and colons (folds and depth still counted).
 * It gives exactly the tree, folds and depth the tree builder gives for the same valid text, or undefined at the
 * first thing that is not valid JSON: the tree builder then reads the text again and reports what is wrong.
 */
import { spend, type Budget } from '../common/budget';
import { runSteps, type Steps } from '../common/steps';
import { sharedString, wellFormedNumberEnd, wellFormedStringEnd } from './scanner';
import type { Field, JsonValue, ParsedJson, ReadingPlan } from './tree';
import { maxKeptString } from './treeBuilder';

/** Recorded containers nested deeper than this are left to the tree builder, which needs no call stack for them. */
const MAX_RECORDED_DEPTH = 64;

const QUOTE = 0x22;

class NotValid {}
const notValid = new NotValid();

const noChildren: never[] = [];

/** The tree of valid text[from, end) read by `plan`, or undefined when the text is not valid JSON. */
export function readValidTree<S extends string>(text: string, from: number, end: number, plan: ReadingPlan<S>, budget?: Budget): ParsedJson<S> | undefined {
  return runSteps(readValidTreeInSteps(text, from, end, plan, budget, Infinity));
}

/**
 * readValidTree in steps of about `stepMs` (yielding between the members of the top two levels: a trace's events),
 * returning its result.
 */
export function* readValidTreeInSteps<S extends string>(
  text: string, from: number, end: number, plan: ReadingPlan<S>, budget: Budget | undefined, stepMs: number,
): Steps<ParsedJson<S> | undefined> {
  const reader = new ValidTreeReader<S>(text, from, end, plan, budget, stepMs);
  try {
    const root = yield* reader.document();
    return { root, errors: [], folds: reader.folds, depth: reader.depth };
  } catch (failure) {
    if (failure === notValid) return undefined;
    throw failure;
  }
}

class ValidTreeReader<S extends string> {
  readonly folds: number[] = [];
  depth = 0;
  private pos: number;
  private line = 0;
  private steps = 0;
  /** Frames of the containers a skip is inside: whether each is an object, where it opened, on which line. */
  private readonly skipObject: boolean[] = [];
  private readonly skipStart: number[] = [];
  private readonly skipLine: number[] = [];
  private readonly fieldBuffers: Field<S>[][] = [];
  private readonly itemBuffers: JsonValue<S>[][] = [];

  constructor(
    private readonly text: string, from: number, private readonly end: number, private readonly plan: ReadingPlan<S>,
    private readonly budget: Budget | undefined, private readonly stepMs: number,
  ) {
    // A leading byte order mark is skipped, as the tree builder does.
    this.pos = text.charCodeAt(from) === 0xfeff && from < end ? from + 1 : from;
  }

  *document(): Steps<JsonValue<S> | null> {
    this.whitespace();
    if (this.pos >= this.end) throw notValid;
    const c = this.text.charCodeAt(this.pos);
    let root: JsonValue<S>;
    if (c === 0x7b || c === 0x5b) {
      const shape = this.plan.childShape(undefined, undefined, c === 0x7b);
      root = shape === null ? this.skippedContainer(0) : yield* this.steppedContainer(shape, c === 0x7b, 0);
    } else {
      root = this.scalar();
    }
    this.whitespace();
    if (this.pos < this.end) throw notValid;
    return root;
  }

  /** A recorded container at the top two levels, yielding between its members once `stepMs` has passed. */
  private *steppedContainer(shape: S, isObject: boolean, level: number): Steps<JsonValue<S>> {
    const start = this.pos;
    const line = this.line;
    this.enter(level);
    const fields = this.fieldBuffer(level);
    const items = this.itemBuffer(level);
    let until = performance.now() + this.stepMs;
    if (!this.opensEmpty(isObject ? 0x7d : 0x5d)) {
      let members = 0;
      do {
        if ((++members & 63) === 0 && performance.now() > until) {
          yield;
          until = performance.now() + this.stepMs;
        }
        if (isObject) {
          const field = this.key();
          // The top object's arrays (a trace's `messages`) are read in steps too.
          field.value = level === 0 ? yield* this.steppedMember(shape, field.name, level + 1) : this.member(shape, field.name, level + 1);
          fields.push(field);
        } else {
          items.push(this.member(shape, undefined, level + 1));
        }
      } while (this.another(isObject ? 0x7d : 0x5d));
    }
    return this.recorded(shape, isObject, start, line, fields, items);
  }

  /**
   * The buffers that collect the members of the container being read at `level`, copied out at its close into an
   * array of exactly their number (an array grown by push keeps spare room, most of a trace's heap for short events).
   */
  private fieldBuffer(level: number): Field<S>[] {
    return (this.fieldBuffers[level] ??= []);
  }

  private itemBuffer(level: number): JsonValue<S>[] {
    return (this.itemBuffers[level] ??= []);
  }

  private *steppedMember(parent: S, key: string | undefined, level: number): Steps<JsonValue<S>> {
    const c = this.text.charCodeAt(this.pos);
    if (c !== 0x7b && c !== 0x5b) return this.member(parent, key, level);
    const shape = this.plan.childShape(parent, key, c === 0x7b);
    if (shape === null) return this.skippedContainer(level);
    return yield* this.steppedContainer(shape, c === 0x7b, level);
  }

  /** The value of a member of a recorded container of shape `parent` (under `key` in an object). */
  private member(parent: S, key: string | undefined, level: number): JsonValue<S> {
    this.steps = spend(this.budget, this.steps);
    if (this.pos >= this.end) throw notValid;
    const c = this.text.charCodeAt(this.pos);
    if (c !== 0x7b && c !== 0x5b) return this.scalar();
    const isObject = c === 0x7b;
    const shape = this.plan.childShape(parent, key, isObject);
    if (shape === null) return this.skippedContainer(level);
    if (level >= MAX_RECORDED_DEPTH) throw notValid;
    const start = this.pos;
    const line = this.line;
    this.enter(level);
    const fields = this.fieldBuffer(level);
    const items = this.itemBuffer(level);
    if (!this.opensEmpty(isObject ? 0x7d : 0x5d)) {
      do {
        if (isObject) {
          const field = this.key();
          field.value = this.member(shape, field.name, level + 1);
          fields.push(field);
        } else {
          items.push(this.member(shape, undefined, level + 1));
        }
      } while (this.another(isObject ? 0x7d : 0x5d));
    }
    return this.recorded(shape, isObject, start, line, fields, items);
  }

  private enter(level: number): void {
    if (level + 1 > this.depth) this.depth = level + 1;
  }

  private recorded(shape: S, isObject: boolean, start: number, line: number, fields: Field<S>[], items: JsonValue<S>[]): JsonValue<S> {
    if (line !== this.line) this.folds.push(start, this.pos);
    const value: JsonValue<S> = { kind: isObject ? 'object' : 'array', start, end: this.pos, shape: undefined, fields: undefined, items: undefined, unclosed: false };
    value.shape = shape;
    if (isObject) value.fields = fields.length === 0 ? noChildren : fields.slice();
    else value.items = items.length === 0 ? noChildren : items.slice();
    fields.length = 0;
    items.length = 0;
    return value;
  }

  /** A key and its colon, the field's value still null. */
  private key(): Field<S> {
    if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== QUOTE) throw notValid;
    const keyStart = this.pos;
    const escaped = this.string();
    const keyEnd = this.pos;
    const name = sharedString(this.text, keyStart, keyEnd, escaped);
    this.colon();
    return { name, keyStart, keyEnd, value: null };
  }

  private scalar(): JsonValue<S> {
    const start = this.pos;
    const c = this.text.charCodeAt(start);
    if (c === QUOTE) {
      const escaped = this.string();
      const value: JsonValue<S> = { kind: 'string', start, end: this.pos, str: undefined, escaped: false };
      if (this.pos - start <= maxKeptString) {
        value.str = sharedString(this.text, start, this.pos, escaped);
        value.escaped = escaped;
      } else {
        value.escaped = true;
      }
      return value;
    }
    const kind = this.literalOrNumber(c);
    return { kind, start, end: this.pos, str: undefined, escaped: false };
  }

  /** Steps over true, false, null or a number at pos (first character `c`), followed by a separator; its kind. */
  private literalOrNumber(c: number): 'boolean' | 'null' | 'number' {
    const text = this.text;
    let kind: 'boolean' | 'null' | 'number';
    if (c === 0x74 && text.startsWith('true', this.pos)) {
      this.pos += 4;
      kind = 'boolean';
    } else if (c === 0x66 && text.startsWith('false', this.pos)) {
      this.pos += 5;
      kind = 'boolean';
    } else if (c === 0x6e && text.startsWith('null', this.pos)) {
      this.pos += 4;
      kind = 'null';
    } else {
      this.number();
      kind = 'number';
    }
    if (this.pos > this.end) throw notValid;
    if (this.pos < this.end) {
      const next = text.charCodeAt(this.pos);
      if (!(next === 0x2c || next === 0x5d || next === 0x7d || next === 0x20 || next === 0x0a || next === 0x0d || next === 0x09)) throw notValid;
    }
    return kind;
  }

  /** Steps over the number at pos; the text from `end` on is not read. */
  private number(): void {
    const end = wellFormedNumberEnd(this.text, this.pos, this.end);
    if (end < 0) throw notValid;
    this.pos = end;
  }

  /** Steps over the well-formed string literal at pos (on its opening quote); whether it holds an escape. */
  private string(): boolean {
    const end = wellFormedStringEnd(this.text, this.pos, this.end);
    if (end === 0) throw notValid;
    this.pos = end < 0 ? -end : end;
    return end < 0;
  }

  /** A container not recorded, stepped over with its syntax checked; its folds and depth counted. */
  private skippedContainer(level: number): JsonValue<S> {
    const text = this.text;
    const end = this.end;
    const start = this.pos;
    const objects = this.skipObject;
    const base = objects.length;
    this.openSkipped(text.charCodeAt(start) === 0x7b, level - base);
    // At the start of a member (or the closer of an empty container).
    let first = true;
    for (; ;) {
      this.steps = spend(this.budget, this.steps);
      if (this.pos >= end) throw notValid;
      const isObject = objects[objects.length - 1];
      let c = text.charCodeAt(this.pos);
      if (first && c === (isObject ? 0x7d : 0x5d)) {
        this.closeSkipped();
        if (objects.length === base) return this.skipped(start);
      } else {
        if (isObject) {
          if (c !== QUOTE) throw notValid;
          this.string();
          this.colon();
          if (this.pos >= end) throw notValid;
          c = text.charCodeAt(this.pos);
        }
        if (c === 0x7b || c === 0x5b) {
          this.openSkipped(c === 0x7b, level - base);
          first = true;
          continue;
        }
        if (c === QUOTE) this.string();
        else this.literalOrNumber(c);
      }
      // After a member: commas and closers until the next member or the end of the skipped container.
      for (; ;) {
        this.whitespace();
        if (this.pos >= end) throw notValid;
        const after = text.charCodeAt(this.pos);
        if (after === 0x2c) {
          this.pos++;
          this.whitespace();
          first = false;
          break;
        }
        if (after !== (objects[objects.length - 1] ? 0x7d : 0x5d)) throw notValid;
        this.closeSkipped();
        if (objects.length === base) return this.skipped(start);
      }
    }
  }

  /** The value of the skipped container from `start` to pos. */
  private skipped(start: number): JsonValue<S> {
    const kind = this.text.charCodeAt(start) === 0x7b ? 'object' : 'array';
    return { kind, start, end: this.pos, shape: undefined, fields: undefined, items: undefined, unclosed: false };
  }

  /** Steps into a skipped container at pos; `level` is the nesting of the skip's frames' base. */
  private openSkipped(isObject: boolean, level: number): void {
    this.skipObject.push(isObject);
    this.skipStart.push(this.pos);
    this.skipLine.push(this.line);
    if (level + this.skipObject.length > this.depth) this.depth = level + this.skipObject.length;
    this.pos++;
    this.whitespace();
  }

  /** Steps over the closer at pos of the innermost skipped container. */
  private closeSkipped(): void {
    this.skipObject.pop();
    const start = this.skipStart.pop()!;
    if (this.skipLine.pop() !== this.line) this.folds.push(start, this.pos + 1);
    this.pos++;
  }

  private whitespace(): void {
    const text = this.text;
    const end = this.end;
    let pos = this.pos;
    for (; pos < end; pos++) {
      const c = text.charCodeAt(pos);
      if (c === 0x20) continue;
      if (c === 0x0a) this.line++;
      else if (c === 0x0d) {
        if (text.charCodeAt(pos + 1) !== 0x0a) this.line++;
      } else if (c !== 0x09) break;
    }
    this.pos = pos;
  }

  private colon(): void {
    this.whitespace();
    if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== 0x3a) throw notValid;
    this.pos++;
    this.whitespace();
  }

  /** Steps into the container opening at pos; true when it is empty (then it is closed already). */
  private opensEmpty(close: number): boolean {
    this.pos++;
    this.whitespace();
    if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== close) return false;
    this.pos++;
    return true;
  }

  /** After a member: true at a comma (another member follows), false at the closer (stepped over). */
  private another(close: number): boolean {
    this.whitespace();
    const c = this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
    if (c === 0x2c) {
      this.pos++;
      this.whitespace();
      return true;
    }
    if (c !== close) throw notValid;
    this.pos++;
    return false;
  }
}

