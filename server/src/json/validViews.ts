/**
 * Valid JSON read once into a tape, and nodes over the tape made only where a reader visits them. The one pass that
 * checks the text records every value's place in document order (a container also where its subtree ends on the
 * tape); looking a member up then walks the tape, stepping over each member's subtree at once, and reads no
 * character of the text again. Nothing is decoded or built for what is never visited. For a reader that visits a
 * few members of each of many small objects (a span's ids, times and attributes, a message's role and parts), this
 * costs one pass over the text instead of one per level visited.
 *
 * The nodes are those the JSON reader builds for the same text (same places, values, members). The JSON may be the
 * decoded value of a string literal of the file (`ViewSource.offsets` then maps its offsets to the file's, and the
 * nodes carry the `decoded` mark).
 */
import { wellFormedNumberEnd, wellFormedStringEnd } from './scanner';
import { decodeJsonString } from './strings';
import { lazyContainer } from './validReader';
import { decoded, markDecoded, sourceString, type Findable, type JsonArray, type JsonNode, type JsonObject, type JsonProperty, type JsonString } from './nodes';

/**
 * Per value, three numbers: where it starts and where it ends in the JSON (negated for a string that holds an
 * escape), and the tape index after it and its subtree. An object's subtree is its members' keys and values in turn.
 */
export type Tape = number[];

/** Where the values of a tape are read from, shared by every node of one reading. */
export interface ViewSource {
  readonly json: string;
  readonly tape: Tape;
  /** The file's offset for an offset of `json` (undefined: the same). */
  readonly offsets?: { at(offset: number): number };
  /** The JSON is the decoded value of a string literal: its nodes are marked so (nodes.ts `decoded`). */
  readonly decoded: boolean;
  /** Containers nested deeper than this are kept empty. */
  readonly maxDepth: number;
}

class NotValid {}
const notValid = new NotValid();

/**
 * The tape of json[start, end) when it is one valid JSON value (white space around it allowed); undefined when it is
 * not, or when it is nested too deep to read.
 */
export function readTape(json: string, start: number, end: number): Tape | undefined {
  const recorder = new TapeRecorder(json, end);
  try {
    const pos = recorder.value(skipSpace(json, start, end));
    if (skipSpace(json, pos, end) !== end) return undefined;
    return recorder.tape;
  } catch (failure) {
    if (failure === notValid || failure instanceof RangeError) return undefined;
    throw failure;
  }
}

/**
 * The value json[start, end) holds as a node over its tape, undefined when it is not one valid JSON value. `depth`:
 * how deep the value itself is (in the JSON a container of it was taken from), counted against `maxDepth`.
 */
export function viewOfValid(
  json: string, start: number, end: number, options: Partial<Omit<ViewSource, 'json' | 'tape'>> & { depth?: number } = {},
): JsonNode | undefined {
  const tape = readTape(json, start, end);
  if (!tape) return undefined;
  return viewAt({ json, tape, offsets: options.offsets, decoded: options.decoded ?? false, maxDepth: options.maxDepth ?? Infinity }, 0, options.depth ?? 0);
}

class TapeRecorder {
  readonly tape: Tape = [];

  constructor(private readonly json: string, private readonly end: number) {}

  private record(start: number, end: number): number {
    const tape = this.tape;
    const index = tape.length / 3;
    tape.push(start, end, index + 1);
    return index;
  }

  /** Records the value at pos; returns where it ends. */
  value(pos: number): number {
    const json = this.json;
    const end = this.end;
    if (pos >= end) throw notValid;
    const c = json.charCodeAt(pos);
    if (c === 0x22) return this.string(pos);
    if (c === 0x7b || c === 0x5b) return this.container(pos, c === 0x7b);
    let after: number;
    if (c === 0x74) after = json.startsWith('true', pos) ? pos + 4 : -1;
    else if (c === 0x66) after = json.startsWith('false', pos) ? pos + 5 : -1;
    else if (c === 0x6e) after = json.startsWith('null', pos) ? pos + 4 : -1;
    else after = wellFormedNumberEnd(json, pos, end);
    if (after < 0 || after > end) throw notValid;
    this.record(pos, after);
    return after;
  }

  private string(pos: number): number {
    const found = wellFormedStringEnd(this.json, pos, this.end);
    if (found === 0) throw notValid;
    const after = found < 0 ? -found : found;
    this.record(pos, found);
    return after;
  }

  private container(open: number, isObject: boolean): number {
    const json = this.json;
    const end = this.end;
    const index = this.record(open, 0);
    const close = isObject ? 0x7d : 0x5d;
    let pos = skipSpace(json, open + 1, end);
    if (pos < end && json.charCodeAt(pos) === close) return this.closed(index, pos + 1);
    for (;;) {
      if (isObject) {
        if (pos >= end || json.charCodeAt(pos) !== 0x22) throw notValid;
        pos = skipSpace(json, this.string(pos), end);
        if (pos >= end || json.charCodeAt(pos) !== 0x3a) throw notValid;
        pos = skipSpace(json, pos + 1, end);
      }
      pos = skipSpace(json, this.value(pos), end);
      const c = pos < end ? json.charCodeAt(pos) : -1;
      if (c === 0x2c) pos = skipSpace(json, pos + 1, end);
      else if (c === close) return this.closed(index, pos + 1);
      else throw notValid;
    }
  }

  private closed(index: number, after: number): number {
    this.tape[index * 3 + 1] = after;
    this.tape[index * 3 + 2] = this.tape.length / 3;
    return after;
  }
}

function skipSpace(json: string, pos: number, end: number): number {
  while (pos < end) {
    const c = json.charCodeAt(pos);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
    else break;
  }
  return pos;
}


const fileOffset = (source: ViewSource, offset: number): number => (source.offsets ? source.offsets.at(offset) : offset);

/** The tape index after the value at tape index `index` and its subtree. */
export const nextOnTape = (source: ViewSource, index: number): number => source.tape[index * 3 + 2];

/** The first character of the value at tape index `index` (`{`, `[`, `"`, …). */
export const openerOnTape = (source: ViewSource, index: number): number => source.json.charCodeAt(source.tape[index * 3]);

/** Where the value at tape index `index` is in the file. */
export function placeOnTape(source: ViewSource, index: number): { start: number; end: number } {
  const end = source.tape[index * 3 + 1];
  return { start: fileOffset(source, source.tape[index * 3]), end: fileOffset(source, end < 0 ? -end : end) };
}

/** The decoded value of the string (a key, or a value) at tape index `index`. */
export function stringOnTape(source: ViewSource, index: number): string {
  const start = source.tape[index * 3];
  const end = source.tape[index * 3 + 1];
  return end < 0 ? decodeJsonString(source.json, start + 1, -end - 1, Infinity) : source.json.slice(start + 1, end - 1);
}

/**
 * The tape index of the value of the object at tape index `index` under `key` (the first such member), -1 when it
 * has none: a reader that wants one value of many small objects (a span's attributes) finds it without the
 * object's node or its members'.
 */
export function memberOnTape(source: ViewSource, index: number, key: string): number {
  const { json, tape } = source;
  const last = tape[index * 3 + 2];
  for (let at = index + 1; at < last; at = tape[(at + 1) * 3 + 2]) {
    const keyStart = tape[at * 3];
    const keyEnd = tape[at * 3 + 1];
    if (keyEnd < 0 ? stringOnTape(source, at) === key : keyEnd - keyStart - 2 === key.length && json.startsWith(key, keyStart + 1)) return at + 1;
  }
  return -1;
}

/** The node for the value at tape index `index`, `depth` containers deep. */
export function viewAt(source: ViewSource, index: number, depth: number): JsonNode {
  const { json, tape } = source;
  const start = tape[index * 3];
  const end = tape[index * 3 + 1];
  const first = json.charCodeAt(start);
  switch (first) {
    case 0x7b: return new ViewObject(source, index, depth);
    case 0x5b: return new ViewArray(source, index, depth);
    case 0x22: return source.decoded ? new DecodedString(source, start, end < 0 ? -end : end) : sourceString(json, start, end < 0 ? -end : end, end < 0);
  }
  const at = { start: fileOffset(source, start), end: fileOffset(source, end) };
  const node: JsonNode = first === 0x74 || first === 0x66
    ? { type: 'boolean', start: at.start, end: at.end, value: first === 0x74 }
    : first === 0x6e ? { type: 'null', start: at.start, end: at.end, value: null } : { type: 'number', start: at.start, end: at.end, raw: json.slice(start, end) };
  return source.decoded ? markDecoded(node) : node;
}

/** A container of a view: where it is on the tape and in the file. */
export abstract class ViewContainer {
  readonly start: number;
  readonly end: number;

  constructor(readonly source: ViewSource, readonly index: number, readonly depth: number) {
    this.start = fileOffset(source, source.tape[index * 3]);
    this.end = fileOffset(source, source.tape[index * 3 + 1]);
  }

  get [decoded](): boolean {
    return this.source.decoded;
  }
}

/** An object whose members are looked up on the tape; each member's node made once, when first visited. */
export class ViewObject extends ViewContainer implements JsonObject, Findable {
  readonly type = 'object' as const;
  /** The members made so far, by the tape index of their key. */
  private made: Map<number, JsonProperty> | undefined;
  private built: JsonProperty[] | undefined;

  find(key: string): JsonProperty | undefined {
    if (this.depth >= this.source.maxDepth) return undefined;
    const value = memberOnTape(this.source, this.index, key);
    return value === -1 ? undefined : this.member(value - 1);
  }

  get properties(): JsonProperty[] {
    if (this.built) return this.built;
    const properties: JsonProperty[] = [];
    if (this.depth < this.source.maxDepth) {
      const last = nextOnTape(this.source, this.index);
      for (let at = this.index + 1; at < last; at = nextOnTape(this.source, at + 1)) properties.push(this.member(at));
    }
    this.built = properties;
    return properties;
  }

  /** The member whose key is at tape index `at`. */
  private member(at: number): JsonProperty {
    const made = this.made?.get(at);
    if (made) return made;
    const source = this.source;
    const value = viewAt(source, at + 1, this.depth + 1);
    const start = fileOffset(source, source.tape[at * 3]);
    const keyEnd = source.tape[at * 3 + 1];
    const property: JsonProperty = { key: stringOnTape(source, at), keyStart: start, keyEnd: fileOffset(source, keyEnd < 0 ? -keyEnd : keyEnd), value, start, end: value.end };
    (this.made ??= new Map()).set(at, property);
    return property;
  }
}

export class ViewArray extends ViewContainer implements JsonArray {
  readonly type = 'array' as const;
  private built: JsonNode[] | undefined;

  get items(): JsonNode[] {
    if (this.built) return this.built;
    const items: JsonNode[] = [];
    if (this.depth < this.source.maxDepth) {
      const last = nextOnTape(this.source, this.index);
      for (let at = this.index + 1; at < last; at = nextOnTape(this.source, at)) items.push(viewAt(this.source, at, this.depth + 1));
    }
    this.built = items;
    return items;
  }
}

/** A string of JSON decoded from a literal, decoded (again) when its value is read. */
export class DecodedString implements JsonString {
  readonly type = 'string' as const;
  readonly [decoded] = true;
  readonly start: number;
  readonly end: number;

  constructor(private readonly source: ViewSource, readonly jsonStart: number, readonly jsonEnd: number) {
    this.start = fileOffset(source, jsonStart);
    this.end = fileOffset(source, jsonEnd);
  }

  get value(): string {
    return decodeJsonString(this.source.json, this.jsonStart + 1, this.jsonEnd - 1, Infinity);
  }
}

/**
 * A node to keep beyond the reading it was made by: a container of a view of the file's own text becomes one that
 * reads its members again from the text when visited (kept as it is, it would keep the tape of the whole value it
 * was read with, a span line's for a span's `"status": {}`).
 */
export function standalone<T extends JsonNode | undefined>(node: T): T {
  if (node instanceof ViewContainer && !node.source.decoded && !node.source.offsets) {
    return lazyContainer(node.source.json, node.start, node.end, node instanceof ViewObject) as T;
  }
  return node;
}
