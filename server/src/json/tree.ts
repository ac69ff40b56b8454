import { parseTree, printParseErrorCode, type Node as JsoncNode, type ParseError as JsoncError } from 'jsonc-parser';
import { decodeJsonString, escapeLength, indexOfWithin } from './strings';

/**
 * A JSON tree with absolute source offsets, built for one line of a JSON Lines file.
 * Numbers keep their source text (`raw`): integers wider than 2^53 are never rounded, and nothing here
 * compares numbers as JS doubles unless the caller decides to.
 */
export type JsonNode = JsonObject | JsonArray | JsonString | JsonNumber | JsonLiteral;

export interface JsonProperty {
  key: string;
  keyStart: number;
  keyEnd: number;
  /** Absent when the line is broken right after the key. */
  value?: JsonNode;
  start: number;
  end: number;
}

export interface JsonObject { type: 'object'; start: number; end: number; properties: JsonProperty[] }
export interface JsonArray { type: 'array'; start: number; end: number; items: JsonNode[] }
export interface JsonString { type: 'string'; start: number; end: number; readonly value: string }

const MAX_KEPT_STRING = 4096;

/** A string node that decodes its value on first use: most string values of a large file are never read. */
class SourceString implements JsonString {
  readonly type = 'string' as const;
  private decoded: string | undefined;

  constructor(private readonly text: string, readonly start: number, readonly end: number, private readonly escaped: boolean) {}

  get value(): string {
    if (this.decoded !== undefined) return this.decoded;
    const value = this.decode();
    // Long values (tool outputs, documents) are decoded again when needed rather than kept for the file's life.
    if (this.end - this.start <= MAX_KEPT_STRING) this.decoded = value;
    return value;
  }

  decode(): string {
    if (this.decoded !== undefined) return this.decoded;
    // The literal is valid JSON (it was read once already): V8's JSON parser decodes it fastest.
    return this.escaped ? JSON.parse(this.text.slice(this.start, this.end)) as string : this.text.slice(this.start + 1, this.end - 1);
  }
}

/**
 * The value of a string node, without keeping it on the node: for reads made while a file is parsed (annotation
 * ranges), whose strings would otherwise stay decoded for the life of the document.
 */
export function transientStringValue(node: JsonString): string {
  return node instanceof SourceString ? node.decode() : node.value;
}

/**
 * Containers from this depth down (the events of a trace, the parts of an agentguard call) are checked for syntax
 * while the line is read but built only when a feature walks into them: most are never visited, and a large
 * dataset then costs little more memory than its text.
 */
const LAZY_DEPTH = 2;

/** An object node that can look one property up without building the others. */
export interface Findable {
  find(key: string): JsonProperty | undefined;
}

/** A node for a container read once already (its syntax is known to be valid), built when first visited. */
export function lazyContainer(text: string, start: number, end: number, isObject: boolean): JsonObject | JsonArray {
  return isObject ? new LazyObject(text, start, end, new Map()) : new LazyArray(text, start, end, new Map());
}

/**
 * Where the large containers of one lazily built tree end (opening offset → end), shared by every container built
 * from it: building a container steps over its nested ones, and without this each level of a deeply nested value
 * would read its whole subtree again (5,000 levels around a big array: quadratic).
 */
type ContainerEnds = Map<number, number>;
/** Containers shorter than this are stepped over again rather than remembered (cheap, and keeps the map small). */
const REMEMBERED_CONTAINER_LENGTH = 1024;

/** A node for a valid string literal text[start, end), decoded when first read. */
export function sourceString(text: string, start: number, end: number, escaped: boolean): JsonString {
  return new SourceString(text, start, end, escaped);
}

class LazyObject implements JsonObject, Findable {
  readonly type = 'object' as const;
  private built: JsonProperty[] | undefined;
  private found: Map<string, JsonProperty | null> | undefined;

  constructor(private readonly text: string, readonly start: number, readonly end: number, private readonly ends: ContainerEnds) {}

  /** One property, without building the others (an address or a fact usually needs one path only). */
  find(key: string): JsonProperty | undefined {
    if (this.built) return this.built.find((p) => p.key === key);
    this.found ??= new Map();
    let found = this.found.get(key);
    if (found === undefined) {
      found = new StrictParser(this.text, this.start, this.end, true, true, this.ends).findProperty(key) ?? null;
      this.found.set(key, found);
    }
    return found ?? undefined;
  }

  get properties(): JsonProperty[] {
    // Already checked when the line was read, so control characters need no second look.
    if (!this.built) this.built = (new StrictParser(this.text, this.start, this.end, true, true, this.ends).parseDocument() as JsonObject).properties;
    return this.built;
  }
}

class LazyArray implements JsonArray {
  readonly type = 'array' as const;
  private built: JsonNode[] | undefined;

  constructor(private readonly text: string, readonly start: number, readonly end: number, private readonly ends: ContainerEnds) {}

  get items(): JsonNode[] {
    if (!this.built) this.built = (new StrictParser(this.text, this.start, this.end, true, true, this.ends).parseDocument() as JsonArray).items;
    return this.built;
  }
}

export interface JsonNumber { type: 'number'; start: number; end: number; raw: string }
export interface JsonLiteral { type: 'boolean' | 'null'; start: number; end: number; value: boolean | null }

export interface JsonSyntaxError {
  start: number;
  end: number;
  message: string;
}

export interface ParsedValue {
  root?: JsonNode;
  errors: JsonSyntaxError[];
}

class SyntaxFailure {
  constructor(readonly offset: number, readonly message: string) {}
}

const QUOTE = 0x22;
/** Raw control characters are not allowed inside JSON strings (Python's json.loads rejects them too). */
const CONTROL_CHARACTER = /[\x00-\x1f]/g;
const BACKSLASH = 0x5c;

/** Strict JSON parser over text[start, end). Fast path for valid input; throws SyntaxFailure otherwise. */
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
  ) {
    this.pos = start;
  }

  parseDocument(): JsonNode {
    this.skipWhitespace();
    const value = this.parseValue();
    this.skipWhitespace();
    if (this.pos < this.end) throw new SyntaxFailure(this.pos, 'Unexpected text after the JSON value');
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
    if (this.pos >= this.end) throw new SyntaxFailure(this.pos, 'Value expected');
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: return this.depth >= LAZY_DEPTH ? this.skipContainer(true) : this.parseObject();
      case 0x5b: return this.depth >= LAZY_DEPTH ? this.skipContainer(false) : this.parseArray();
      case QUOTE: return this.parseString();
      case 0x74: return this.parseLiteral('true', 'boolean', true);
      case 0x66: return this.parseLiteral('false', 'boolean', false);
      case 0x6e: return this.parseLiteral('null', 'null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        throw new SyntaxFailure(this.pos, 'Value expected');
    }
  }

  private parseLiteral(word: string, type: 'boolean' | 'null', value: boolean | null): JsonLiteral {
    const start = this.pos;
    if (!this.text.startsWith(word, start) || start + word.length > this.end) {
      throw new SyntaxFailure(start, 'Value expected');
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
    const text = this.text;
    const start = this.pos;
    let pos = start;
    if (text.charCodeAt(pos) === 0x2d) pos++;
    const firstDigit = text.charCodeAt(pos);
    if (firstDigit === 0x30) pos++;
    else if (firstDigit >= 0x31 && firstDigit <= 0x39) {
      pos++;
      while (pos < this.end && isDigit(text.charCodeAt(pos))) pos++;
    } else throw new SyntaxFailure(start, 'Invalid number');
    if (pos < this.end && text.charCodeAt(pos) === 0x2e) {
      pos++;
      if (!(pos < this.end && isDigit(text.charCodeAt(pos)))) throw new SyntaxFailure(start, 'Invalid number');
      while (pos < this.end && isDigit(text.charCodeAt(pos))) pos++;
    }
    const e = text.charCodeAt(pos);
    if (pos < this.end && (e === 0x65 || e === 0x45)) {
      pos++;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos++;
      if (!(pos < this.end && isDigit(text.charCodeAt(pos)))) throw new SyntaxFailure(start, 'Invalid number');
      while (pos < this.end && isDigit(text.charCodeAt(pos))) pos++;
    }
    this.pos = pos;
  }

  /**
   * For an object already read once: the property named key, with only its value built (the other values are
   * stepped over). Containers in that value are built one level deep, as when the whole object is built.
   */
  findProperty(key: string): JsonProperty | undefined {
    const text = this.text;
    this.skipWhitespace();
    this.pos++;
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === 0x7d) return undefined;
    while (this.pos < this.end) {
      const keyStart = this.pos;
      const name = this.parseKey();
      const keyEnd = this.pos;
      this.skipWhitespace();
      this.pos++;
      this.skipWhitespace();
      if (name === key) {
        this.depth = 1;
        const value = this.parseValue();
        return { key: name, keyStart, keyEnd, value, start: keyStart, end: value.end };
      }
      this.skipValue();
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== 0x2c) return undefined;
      this.pos++;
      this.skipWhitespace();
    }
    return undefined;
  }

  /** Checks a nested object or array without building it; its tree is built when first asked for. */
  private skipContainer(isObject: boolean): JsonNode {
    const start = this.pos;
    this.skipValue();
    return isObject ? new LazyObject(this.text, start, this.pos, this.ends) : new LazyArray(this.text, start, this.pos, this.ends);
  }

  private skipValue(): void {
    if (this.pos >= this.end) throw new SyntaxFailure(this.pos, 'Value expected');
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
      this.pos++;
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) === close && this.pos < this.end) {
        this.pos++;
        return;
      }
      while (true) {
        if (isObject) {
          if (this.pos >= this.end || text.charCodeAt(this.pos) !== QUOTE) throw new SyntaxFailure(this.pos, 'Property name expected');
          this.scanString();
          this.skipWhitespace();
          if (text.charCodeAt(this.pos) !== 0x3a || this.pos >= this.end) throw new SyntaxFailure(this.pos, 'Colon expected');
          this.pos++;
          this.skipWhitespace();
        }
        this.skipValue();
        this.skipWhitespace();
        const next = this.pos < this.end ? text.charCodeAt(this.pos) : -1;
        if (next === 0x2c) {
          this.pos++;
          this.skipWhitespace();
          continue;
        }
        if (next === close) {
          this.pos++;
          if (this.pos - containerStart >= REMEMBERED_CONTAINER_LENGTH) this.ends.set(containerStart, this.pos);
          return;
        }
        throw new SyntaxFailure(this.pos, isObject ? 'Comma or closing brace expected' : 'Comma or closing bracket expected');
      }
    }
    if (c === 0x74) this.checkLiteral('true');
    else if (c === 0x66) this.checkLiteral('false');
    else if (c === 0x6e) this.checkLiteral('null');
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) this.scanNumber();
    else throw new SyntaxFailure(this.pos, 'Value expected');
  }

  private checkLiteral(word: string): void {
    if (!this.text.startsWith(word, this.pos) || this.pos + word.length > this.end) throw new SyntaxFailure(this.pos, 'Value expected');
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
      if (close === -1 || close >= this.end) throw new SyntaxFailure(open, 'Unterminated string');
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
    if (!this.controlFree && this.nextControl < close) throw new SyntaxFailure(this.nextControl, 'Control characters in a string must be escaped (e.g. \\t, \\n)');
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
      if (length === 0) throw new SyntaxFailure(at, 'Invalid escape character in string');
      at = indexOfWithin(text, BACKSLASH, at + length, close);
    }
    this.pos = close + 1;
    return escaped;
  }

  private parseString(): JsonString {
    const start = this.pos;
    const escaped = this.scanString();
    return new SourceString(this.text, start, this.pos, escaped);
  }

  private parseKey(): string {
    const start = this.pos;
    const escaped = this.scanString();
    return escaped ? decodeJsonString(this.text, start + 1, this.pos - 1, Infinity) : this.text.slice(start + 1, this.pos - 1);
  }

  private parseObject(): JsonObject {
    const text = this.text;
    const start = this.pos;
    this.pos++;
    const properties: JsonProperty[] = [];
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return { type: 'object', start, end: this.pos, properties };
    }
    while (true) {
      if (this.pos >= this.end || text.charCodeAt(this.pos) !== QUOTE) throw new SyntaxFailure(this.pos, 'Property name expected');
      const keyStart = this.pos;
      const key = this.parseKey();
      const keyEnd = this.pos;
      this.skipWhitespace();
      if (text.charCodeAt(this.pos) !== 0x3a || this.pos >= this.end) throw new SyntaxFailure(this.pos, 'Colon expected');
      this.pos++;
      this.skipWhitespace();
      this.depth++;
      const value = this.parseValue();
      this.depth--;
      properties.push({ key, keyStart, keyEnd, value, start: keyStart, end: value.end });
      this.skipWhitespace();
      const c = this.pos < this.end ? text.charCodeAt(this.pos) : -1;
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        return { type: 'object', start, end: this.pos, properties };
      }
      throw new SyntaxFailure(this.pos, 'Comma or closing brace expected');
    }
  }

  private parseArray(): JsonArray {
    const text = this.text;
    const start = this.pos;
    this.pos++;
    const items: JsonNode[] = [];
    this.skipWhitespace();
    if (text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return { type: 'array', start, end: this.pos, items };
    }
    while (true) {
      this.depth++;
      items.push(this.parseValue());
      this.depth--;
      this.skipWhitespace();
      const c = this.pos < this.end ? text.charCodeAt(this.pos) : -1;
      if (c === 0x2c) {
        this.pos++;
        this.skipWhitespace();
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        return { type: 'array', start, end: this.pos, items };
      }
      throw new SyntaxFailure(this.pos, 'Comma or closing bracket expected');
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}


/**
 * Parses the JSON value in text[start, end). Valid input takes the fast strict path; broken input is re-read
 * by jsonc-parser, which recovers, so a broken line still yields every error and a partial tree.
 */
export function parseJsonValue(text: string, start: number, end: number): ParsedValue {
  try {
    // One scan of the line for control characters; usually there are none and strings need no check at all.
    CONTROL_CHARACTER.lastIndex = start;
    const control = CONTROL_CHARACTER.exec(text);
    const controlFree = !control || control.index >= end;
    return { root: new StrictParser(text, start, end, controlFree).parseDocument(), errors: [] };
  } catch (failure) {
    if (failure instanceof SyntaxFailure) {
      try {
        return parseWithRecovery(text, start, end, failure);
      } catch (recoveryFailure) {
        if (!(recoveryFailure instanceof RangeError)) throw recoveryFailure;
      }
    } else if (!(failure instanceof RangeError)) throw failure;
    // Nesting deep enough to exhaust the stack: say so instead of crashing the server.
    return { errors: [{ start, end: Math.min(end, start + 1), message: 'Values are nested too deeply to be read' }] };
  }
}

function parseWithRecovery(text: string, start: number, end: number, strictFailure: SyntaxFailure): ParsedValue {
  const slice = text.slice(start, end);
  const errors: JsoncError[] = [];
  const tree = parseTree(slice, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const converted: JsonSyntaxError[] = errors.map((error) => ({
    start: start + error.offset,
    end: start + error.offset + Math.max(error.length, 1),
    message: describeJsoncError(printParseErrorCode(error.error)),
  }));
  // After the first error jsonc-parser's recovery adds empty "closing bracket expected" errors at the end of the
  // line; they repeat the first finding.
  const useful = converted.filter((error, i) => i === 0 || error.start < end);
  converted.length = 0;
  converted.push(...useful);
  // The strict reading pins some errors down better (an escape inside a string jsonc-parser flags whole).
  const first = converted[0];
  if (first && strictFailure.offset > first.start && strictFailure.offset < first.end) {
    converted[0] = { start: strictFailure.offset, end: Math.min(first.end, strictFailure.offset + 2), message: strictFailure.message };
  }
  if (converted.length === 0) {
    // jsonc-parser is more lenient than JSON (e.g. control characters); keep the strict finding.
    converted.push({ start: strictFailure.offset, end: Math.min(strictFailure.offset + 1, Math.max(end, strictFailure.offset + 1)), message: strictFailure.message });
  }
  return { root: tree ? convertNode(tree, text, start) : undefined, errors: converted };
}

function describeJsoncError(code: string): string {
  switch (code) {
    case 'InvalidSymbol': return 'Invalid symbol';
    case 'InvalidNumberFormat': return 'Invalid number';
    case 'PropertyNameExpected': return 'Property name expected';
    case 'ValueExpected': return 'Value expected';
    case 'ColonExpected': return 'Colon expected';
    case 'CommaExpected': return 'Comma expected';
    case 'CloseBraceExpected': return 'Closing brace expected';
    case 'CloseBracketExpected': return 'Closing bracket expected';
    case 'EndOfFileExpected': return 'Unexpected text after the JSON value';
    case 'InvalidCommentToken': return 'Comments are not allowed in JSON';
    case 'UnexpectedEndOfComment': return 'Unterminated comment';
    case 'UnexpectedEndOfString': return 'Unterminated string';
    case 'UnexpectedEndOfNumber': return 'Invalid number';
    case 'InvalidUnicode': return 'Invalid unicode escape';
    case 'InvalidEscapeCharacter': return 'Invalid escape character in string';
    case 'InvalidCharacter': return 'Invalid character in string';
    default: return code;
  }
}

function convertNode(node: JsoncNode, text: string, base: number): JsonNode {
  const start = base + node.offset;
  const end = start + node.length;
  switch (node.type) {
    case 'object': {
      const properties: JsonProperty[] = [];
      for (const property of node.children ?? []) {
        const keyNode = property.children?.[0];
        if (!keyNode) continue;
        const valueNode = property.children?.[1];
        const keyStart = base + keyNode.offset;
        properties.push({
          key: String(keyNode.value),
          keyStart,
          keyEnd: keyStart + keyNode.length,
          value: valueNode ? convertNode(valueNode, text, base) : undefined,
          start: base + property.offset,
          end: base + property.offset + property.length,
        });
      }
      return { type: 'object', start, end, properties };
    }
    case 'array':
      return { type: 'array', start, end, items: (node.children ?? []).map((child) => convertNode(child, text, base)) };
    case 'string':
      return { type: 'string', start, end, value: String(node.value ?? '') };
    case 'number':
      return { type: 'number', start, end, raw: text.slice(start, end) };
    case 'boolean':
      return { type: 'boolean', start, end, value: Boolean(node.value) };
    default:
      return { type: 'null', start, end, value: null };
  }
}

// ---- Tree helpers ----

export function property(node: JsonNode | undefined, key: string): JsonProperty | undefined {
  if (!node || node.type !== 'object') return undefined;
  // Objects built on demand look one property up without building the others.
  const find = (node as Partial<Findable>).find;
  if (find) return find.call(node, key);
  for (const prop of node.properties) if (prop.key === key) return prop;
  return undefined;
}

export function propertyValue(node: JsonNode | undefined, key: string): JsonNode | undefined {
  return property(node, key)?.value;
}

export function stringValue(node: JsonNode | undefined): string | undefined {
  return node && node.type === 'string' ? node.value : undefined;
}

/** A number literal as a JS number, for display and sums only (never for identity). */
export function numberValue(node: JsonNode | undefined): number | undefined {
  return node && node.type === 'number' ? Number(node.raw) : undefined;
}

export function contains(span: { start: number; end: number }, offset: number): boolean {
  return offset >= span.start && offset <= span.end;
}

/** The chain of nodes from root to the innermost node containing offset, with the key or index used at each step. */
export interface PathStep {
  node: JsonNode;
  /** Set on the last step when offset is on a property's key (then `node` is the object holding it). */
  onKey?: boolean;
  /** The property whose value is `node` (absent for the root and array items). */
  property?: JsonProperty;
  segment?: string | number;
}

export function pathAt(root: JsonNode, offset: number): PathStep[] {
  const steps: PathStep[] = [{ node: root }];
  let current: JsonNode = root;
  while (true) {
    let next: PathStep | undefined;
    if (current.type === 'object') {
      for (const prop of current.properties) {
        if (offset >= prop.keyStart && offset <= prop.end) {
          if (prop.value && offset >= prop.value.start && offset <= prop.value.end) {
            next = { node: prop.value, property: prop, segment: prop.key };
          } else {
            steps.push({ node: current, property: prop, segment: prop.key, onKey: true });
            return steps;
          }
          break;
        }
      }
    } else if (current.type === 'array') {
      const index = findItem(current.items, offset);
      if (index >= 0) next = { node: current.items[index], segment: index };
    }
    if (!next) return steps;
    steps.push(next);
    current = next.node;
  }
}

function findItem(items: JsonNode[], offset: number): number {
  let lo = 0;
  let hi = items.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const item = items[mid];
    if (offset < item.start) hi = mid - 1;
    else if (offset > item.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

