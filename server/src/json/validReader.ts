/**
 * The reader for text that is (or was) valid JSON, and the containers it builds on first visit. Valid lines take
 * this fast path; anything it rejects is read again by the tolerant reader, which reports the errors.
 */
import type { Steps } from '../common/steps';
import { wellFormedNumberEnd } from './scanner';
import { decodeJsonString, escapeLength, indexOfWithin } from './strings';
import {
  sourceString, type Findable, type JsonArray, type JsonLiteral, type JsonNode, type JsonNumber, type JsonObject,
  type JsonProperty, type JsonString,
} from './nodes';

/**
 * Containers from this depth down (the events of a trace, the parts of an agentguard call) are checked for syntax
 * while the line is read but built only when a feature walks into them: most are never visited, and a large
 * dataset then costs little more memory than its text.
 */
export const LAZY_DEPTH = 2;

/** A node for a container read once already (its syntax is known to be valid), built when first visited. */
export function lazyContainer(text: string, start: number, end: number, isObject: boolean): JsonObject | JsonArray {
  return isObject ? new LazyObject(text, start, end) : new LazyArray(text, start, end);
}

/**
 * Where the large containers of one lazily built tree end (opening offset → end), shared by every container built
 * from it: building a container steps over its nested ones, and without this each level of a deeply nested value
 * would read its whole subtree again (5,000 levels around a big array: quadratic).
 */
type ContainerEnds = Map<number, number>;
/** Containers shorter than this are stepped over again rather than remembered (cheap, and keeps the map small). */
const REMEMBERED_CONTAINER_LENGTH = 1024;

class LazyObject implements JsonObject, Findable {
  readonly type = 'object' as const;
  private built: JsonProperty[] | undefined;
  private found: Map<string, JsonProperty | null> | undefined;

  /** `ends`: shared with the tree it was read in; made when first needed for one read alone (a file keeps many). */
  constructor(private readonly text: string, readonly start: number, readonly end: number, private ends?: ContainerEnds) {}

  /** The same container at start + delta of text (an edit before it moved it), built again when visited. */
  moved(text: string, delta: number): JsonObject {
    return new LazyObject(text, this.start + delta, this.end + delta);
  }

  /** One property, without building the others (an address or a fact usually needs one path only). */
  find(key: string): JsonProperty | undefined {
    if (this.built) return this.built.find((p) => p.key === key);
    this.found ??= new Map();
    let found = this.found.get(key);
    if (found === undefined) {
      found = new StrictParser(this.text, this.start, this.end, true, true, (this.ends ??= new Map())).findProperty(key) ?? null;
      this.found.set(key, found);
    }
    return found ?? undefined;
  }

  get properties(): JsonProperty[] {
    // Already checked when the line was read, so control characters need no second look.
    if (!this.built) this.built = (new StrictParser(this.text, this.start, this.end, true, true, (this.ends ??= new Map())).parseDocument() as JsonObject).properties;
    return this.built;
  }
}

class LazyArray implements JsonArray {
  readonly type = 'array' as const;
  private built: JsonNode[] | undefined;

  constructor(private readonly text: string, readonly start: number, readonly end: number, private ends?: ContainerEnds) {}

  /** The same container at start + delta of text (an edit before it moved it), built again when visited. */
  moved(text: string, delta: number): JsonArray {
    return new LazyArray(text, this.start + delta, this.end + delta);
  }

  get items(): JsonNode[] {
    if (!this.built) this.built = (new StrictParser(this.text, this.start, this.end, true, true, (this.ends ??= new Map())).parseDocument() as JsonArray).items;
    return this.built;
  }
}

/**
 * Thrown where the text is not valid JSON. Where and why are not needed: the tolerant reader reads such text again
 * and says both, in the words trace files get.
 */
class NotValid {}
const notValid = new NotValid();

const QUOTE = 0x22;
/** Raw control characters are not allowed inside JSON strings (Python's json.loads rejects them too). */
const CONTROL_CHARACTER = /[\x00-\x1f]/g;
const CONTROL_CHARACTER_ANYWHERE = /[\x00-\x1f]/;
const BACKSLASH = 0x5c;

/** Strict JSON parser over text[start, end). Fast path for valid input; throws notValid otherwise. */
class StrictParser {
  private pos: number;
  private nextControl = -1;
  /** Nesting of the container being read; containers at LAZY_DEPTH and below are only checked, not built. */
  private depth = 0;

  /**
   * controlFree: text[start, end) is known to hold no raw control characters, so strings skip that check.
   * checked: the text was already read once without error (a container built on demand); escapes are not rechecked.
   */
  constructor(
    private readonly text: string,
    start: number,
    private readonly end: number,
    private readonly controlFree = false,
    private readonly checked = false,
    private readonly ends: ContainerEnds = new Map(),
    /** Containers from this depth down are checked and built on first visit; Infinity builds them all now. */
    private readonly lazyDepth = LAZY_DEPTH,
  ) {
    this.pos = start;
  }

  parseDocument(): JsonNode {
    this.skipWhitespace();
    const value = this.parseValue();
    this.skipWhitespace();
    if (this.pos < this.end) throw notValid;
    return value;
  }

  private skipWhitespace(): void {
    const text = this.text;
    let pos = this.pos;
    while (pos < this.end) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a) pos++;
      else break;
    }
    this.pos = pos;
  }

  private parseValue(): JsonNode {
    if (this.pos >= this.end) throw notValid;
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: return this.depth >= this.lazyDepth ? this.skipContainer(true) : this.parseObject();
      case 0x5b: return this.depth >= this.lazyDepth ? this.skipContainer(false) : this.parseArray();
      case QUOTE: return this.parseString();
      case 0x74: return this.parseLiteral('true', 'boolean', true);
      case 0x66: return this.parseLiteral('false', 'boolean', false);
      case 0x6e: return this.parseLiteral('null', 'null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        throw notValid;
    }
  }

  private parseLiteral(word: string, type: 'boolean' | 'null', value: boolean | null): JsonLiteral {
    const start = this.pos;
    if (!this.text.startsWith(word, start) || start + word.length > this.end) {
      throw notValid;
    }
    this.pos = start + word.length;
    return { type, start, end: this.pos, value };
  }

  private parseNumber(): JsonNumber {
    const start = this.pos;
    this.scanNumber();
    return { type: 'number', start, end: this.pos, raw: this.text.slice(start, this.pos) };
  }

  private scanNumber(): void {
    const end = wellFormedNumberEnd(this.text, this.pos, this.end);
    if (end < 0) throw notValid;
    this.pos = end;
  }

  /**
   * For an object already read once: the property named key, with only its value built (the other values are
   * stepped over). Containers in that value are built one level deep, as when the whole object is built.
   */
  findProperty(key: string): JsonProperty | undefined {
    this.skipWhitespace();
    if (this.opensEmpty(0x7d)) return undefined;
    do {
      const keyStart = this.pos;
      const name = this.parseKey();
      const keyEnd = this.pos;
      this.expectColon();
      if (name === key) {
        this.depth = 1;
        const value = this.parseValue();
        return { key: name, keyStart, keyEnd, value, start: keyStart, end: value.end };
      }
      this.skipValue();
    } while (this.another(0x7d));
    return undefined;
  }

  /**
   * Checks the document as parseDocument reads it, one step per member of the containers it builds at once (those
   * above lazyDepth: a log's samples, each checked in one step), remembering the ends of the big ones, so that
   * building the document afterwards steps over them at once.
   */
  *checkDocumentInSteps(): Steps<void> {
    this.skipWhitespace();
    yield* this.checkValueInSteps(0);
    this.skipWhitespace();
    if (this.pos < this.end) throw notValid;
  }

  private *checkValueInSteps(depth: number): Steps<void> {
    if (this.pos >= this.end) throw notValid;
    const c = this.text.charCodeAt(this.pos);
    if (depth >= this.lazyDepth || (c !== 0x7b && c !== 0x5b)) {
      this.skipValue();
      yield;
      return;
    }
    const containerStart = this.pos;
    const isObject = c === 0x7b;
    const close = isObject ? 0x7d : 0x5d;
    if (this.opensEmpty(close)) return;
    do {
      if (isObject) this.skipKey();
      yield* this.checkValueInSteps(depth + 1);
    } while (this.another(close));
    this.rememberEnd(containerStart);
  }

  /** Steps over a member's key and its colon. */
  private skipKey(): void {
    this.expectKey();
    this.scanString();
    this.expectColon();
  }

  /** Remembers where a big container read from `start` ends, so that reading it again steps over it at once. */
  private rememberEnd(start: number): void {
    if (this.pos - start >= REMEMBERED_CONTAINER_LENGTH) this.ends.set(start, this.pos);
  }

  /** Checks a nested object or array without building it; its tree is built when first asked for. */
  private skipContainer(isObject: boolean): JsonNode {
    const start = this.pos;
    this.skipValue();
    return isObject ? new LazyObject(this.text, start, this.pos, this.ends) : new LazyArray(this.text, start, this.pos, this.ends);
  }

  private skipValue(): void {
    if (this.pos >= this.end) throw notValid;
    const text = this.text;
    const c = text.charCodeAt(this.pos);
    if (c === QUOTE) {
      this.scanString();
      return;
    }
    if (c === 0x7b || c === 0x5b) {
      const known = this.ends.get(this.pos);
      if (known !== undefined) {
        this.pos = known;
        return;
      }
      const containerStart = this.pos;
      const isObject = c === 0x7b;
      const close = isObject ? 0x7d : 0x5d;
      if (this.opensEmpty(close)) return;
      do {
        if (isObject) this.skipKey();
        this.skipValue();
      } while (this.another(close));
      this.rememberEnd(containerStart);
      return;
    }
    if (c === 0x74) this.checkLiteral('true');
    else if (c === 0x66) this.checkLiteral('false');
    else if (c === 0x6e) this.checkLiteral('null');
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) this.scanNumber();
    else throw notValid;
  }

  private checkLiteral(word: string): void {
    if (!this.text.startsWith(word, this.pos) || this.pos + word.length > this.end) throw notValid;
    this.pos += word.length;
  }

  /**
   * Finds the end of the string literal at pos (on the opening quote) and checks its escapes; leaves pos after
   * it. Only the backslashes are visited one by one: the rest is found with indexOf, at native speed, and no
   * search ever reads past the string (a file without backslashes must not be rescanned for each string).
   */
  private scanString(): boolean {
    const text = this.text;
    const open = this.pos;
    let search = open + 1;
    let close: number;
    while (true) {
      close = text.indexOf('"', search);
      if (close === -1 || close >= this.end) throw notValid;
      let backslashes = 0;
      for (let b = close - 1; b > open && text.charCodeAt(b) === BACKSLASH; b--) backslashes++;
      if ((backslashes & 1) === 0) break;
      search = close + 1;
    }
    if (!this.controlFree && this.nextControl < open) {
      CONTROL_CHARACTER.lastIndex = open;
      const found = CONTROL_CHARACTER.exec(text);
      this.nextControl = found ? found.index : Number.MAX_SAFE_INTEGER;
    }
    if (!this.controlFree && this.nextControl < close) throw notValid;
    // Text read before needs no second look: its strings are reported as possibly escaped and decoded
    // by the general decoder, which is as fast when there is nothing to unescape.
    if (this.checked) {
      this.pos = close + 1;
      return true;
    }
    const first = indexOfWithin(text, BACKSLASH, open + 1, close);
    const escaped = first !== -1;
    // Each escape must be valid; only backslashes are visited, always within this string.
    for (let at = first; at !== -1; ) {
      const length = escapeLength(text, at, close);
      if (length === 0) throw notValid;
      at = indexOfWithin(text, BACKSLASH, at + length, close);
    }
    this.pos = close + 1;
    return escaped;
  }

  private parseString(): JsonString {
    const start = this.pos;
    const escaped = this.scanString();
    return sourceString(this.text, start, this.pos, escaped);
  }

  private parseKey(): string {
    const start = this.pos;
    const escaped = this.scanString();
    return escaped ? decodeJsonString(this.text, start + 1, this.pos - 1, Infinity) : this.text.slice(start + 1, this.pos - 1);
  }

  private parseObject(): JsonObject {
    const start = this.pos;
    const properties: JsonProperty[] = [];
    if (!this.opensEmpty(0x7d)) {
      do {
        this.expectKey();
        const keyStart = this.pos;
        const key = this.parseKey();
        const keyEnd = this.pos;
        this.expectColon();
        this.depth++;
        const value = this.parseValue();
        this.depth--;
        properties.push({ key, keyStart, keyEnd, value, start: keyStart, end: value.end });
      } while (this.another(0x7d));
    }
    return { type: 'object', start, end: this.pos, properties };
  }

  private parseArray(): JsonArray {
    const start = this.pos;
    const items: JsonNode[] = [];
    if (!this.opensEmpty(0x5d)) {
      do {
        this.depth++;
        items.push(this.parseValue());
        this.depth--;
      } while (this.another(0x5d));
    }
    return { type: 'array', start, end: this.pos, items };
  }

  /** Steps into the container opening at pos; true when it is empty (then it is closed already). */
  private opensEmpty(close: number): boolean {
    this.pos++;
    this.skipWhitespace();
    if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== close) return false;
    this.pos++;
    return true;
  }

  private expectKey(): void {
    if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== QUOTE) throw notValid;
  }

  private expectColon(): void {
    this.skipWhitespace();
    if (this.pos >= this.end || this.text.charCodeAt(this.pos) !== 0x3a) throw notValid;
    this.pos++;
    this.skipWhitespace();
  }

  /** After a member of a container: true at a comma (another member follows), false at the closer (stepped over). */
  private another(close: number): boolean {
    this.skipWhitespace();
    const c = this.pos < this.end ? this.text.charCodeAt(this.pos) : -1;
    if (c === 0x2c) {
      this.pos++;
      this.skipWhitespace();
      return true;
    }
    if (c !== close) throw notValid;
    this.pos++;
    return false;
  }
}


/**
 * The JSON value in text[start, end) when the text is valid JSON, undefined when it is not (the tolerant reader
 * then reads it for its errors and partial tree). Throws a RangeError when the nesting is too deep to read.
 * `whole`: every container built now, for a reader that visits nearly all of them (a span's attributes and
 * messages): building on first visit would read each level of the text again.
 */
export function readValidJson(text: string, start: number, end: number, whole = false): JsonNode | undefined {
  // One scan of the value for control characters; usually there are none and strings need no check at all.
  CONTROL_CHARACTER.lastIndex = start;
  const control = CONTROL_CHARACTER.exec(text);
  const controlFree = !control || control.index >= end;
  try {
    return new StrictParser(text, start, end, controlFree, false, new Map(), whole ? Infinity : LAZY_DEPTH).parseDocument();
  } catch (failure) {
    if (failure === notValid) return undefined;
    throw failure;
  }
}

/**
 * Whether text[start, end) is one valid JSON value, checked without building any of it (false when too deep to
 * read). `ends` receives where its big containers end (opening offset → end), for a reader that steps over them.
 */
export function isValidJson(text: string, start: number, end: number, ends: Map<number, number> = new Map()): boolean {
  CONTROL_CHARACTER.lastIndex = start;
  const control = CONTROL_CHARACTER.exec(text);
  const controlFree = !control || control.index >= end;
  try {
    new StrictParser(text, start, end, controlFree, false, ends, 0).parseDocument();
    return true;
  } catch (failure) {
    if (failure === notValid || failure instanceof RangeError) return false;
    throw failure;
  }
}

/** Characters searched for raw control characters per step, before a document is checked in steps. */
const controlScanStep = 4 * 1024 * 1024;

/**
 * readValidJson for a big document read while other work goes on: the text is searched for raw control characters
 * a few megabytes per step, then checked one member of its top containers per step (for an Inspect log, one sample
 * per step), then its top containers are built, stepping over the nested ones the check measured. Undefined when the
 * text is not valid JSON; throws a RangeError when the nesting is too deep to read.
 */
export function* readValidJsonInSteps(text: string, start: number, end: number): Steps<JsonNode | undefined> {
  let controlFree = true;
  for (let from = start; from < end && controlFree; from += controlScanStep) {
    // A slice of a long string is a view of it in V8, not a copy.
    controlFree = !CONTROL_CHARACTER_ANYWHERE.test(text.slice(from, Math.min(end, from + controlScanStep)));
    yield;
  }
  const ends: ContainerEnds = new Map();
  try {
    yield* new StrictParser(text, start, end, controlFree, false, ends).checkDocumentInSteps();
    return new StrictParser(text, start, end, true, true, ends).parseDocument();
  } catch (failure) {
    if (failure === notValid) return undefined;
    throw failure;
  }
}
