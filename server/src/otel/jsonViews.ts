/**
 * JSON without errors (a span line, or JSON inside a string literal of one) read as nodes at the file's characters
 * that are made only where a reader visits them: an object's members are found by one scan of its characters (their
 * values stepped over), a string is decoded when its value is read, nothing is built for what is never visited. The
 * span reader visits a few members of each span and each message (a model span's history of messages is read this
 * way into calls and outputs); the nodes are those the JSON reader builds (for JSON inside a string, those
 * embedded.ts maps from a whole reading: same places, values and members, the same depth limit), without building
 * the rest.
 */
import type { Findable, JsonArray, JsonNode, JsonObject, JsonProperty, JsonString } from '../json/nodes';
import { transientStringValue } from '../json/nodes';
import { decodeJsonString } from '../json/strings';
import { isValidJson } from '../json/validReader';
import { decoded, isDecoded, LiteralOffsets, markDecoded, maxEmbeddedDepth } from './embedded';

/**
 * The JSON text the nodes are read from and the map of its offsets to the file's, shared by the nodes read from it:
 * the file's text itself, or the decoded text of one literal (its nodes marked decoded, see embedded.ts).
 */
interface Source {
  readonly json: string;
  readonly offsets: { at(offset: number): number };
  readonly decoded: boolean;
  /** Containers nested deeper than this are kept empty (as embedded.ts keeps them). */
  readonly maxDepth: number;
  /**
   * Where the big containers end (opening offset → end), found by the check of the text: each level's scan steps
   * over them at once instead of reading every string inside again (a message attribute's string holds an escaped
   * quote every few characters).
   */
  readonly ends: Map<number, number>;
}

const sameOffsets = { at: (offset: number) => offset };

/** A span line (or any JSON of the file) as a view; undefined when it is not one valid JSON value. */
export function viewOfValidJson(text: string, start: number, end: number): JsonNode | undefined {
  const ends = new Map<number, number>();
  if (!isValidJson(text, start, end, ends)) return undefined;
  const at = skipSpace(text, start);
  return viewAt({ json: text, offsets: sameOffsets, decoded: false, maxDepth: Infinity, ends }, at, valueEnd(text, at, ends), 0);
}

/** The value a string literal holds as JSON, as a view; undefined when it does not hold one valid JSON value. */
export function viewOfEmbeddedJson(text: string, literal: JsonString): JsonNode | undefined {
  const json = transientStringValue(literal);
  const ends = new Map<number, number>();
  if (!isValidJson(json, 0, json.length, ends)) return undefined;
  const start = skipSpace(json, 0);
  return viewAt({ json, offsets: LiteralOffsets.ofLiteral(text, literal), decoded: true, maxDepth: maxEmbeddedDepth, ends }, start, valueEnd(json, start, ends), 0);
}

/** The JSON of the file's characters text[start, end) inside a string literal (a container), as a view. */
function viewOfRange(text: string, start: number, end: number, depth: number): JsonNode {
  const json = decodeJsonString(text, start, end, Infinity);
  const at = skipSpace(json, 0);
  const ends = new Map<number, number>();
  return viewAt({ json, offsets: new LiteralOffsets(text, start, end), decoded: true, maxDepth: maxEmbeddedDepth, ends }, at, valueEnd(json, at, ends), depth);
}

function viewAt(source: Source, start: number, end: number, depth: number): JsonNode {
  const json = source.json;
  const first = json.charCodeAt(start);
  const at = source.offsets;
  switch (first) {
    case 0x7b: return new ViewObject(source, start, end, depth);
    case 0x5b: return new ViewArray(source, start, end, depth);
    case 0x22: return new ViewString(source, start, end);
    case 0x74: case 0x66: return marked(source, { type: 'boolean', start: at.at(start), end: at.at(end), value: first === 0x74 });
    case 0x6e: return marked(source, { type: 'null', start: at.at(start), end: at.at(end), value: null });
    default: return marked(source, { type: 'number', start: at.at(start), end: at.at(end), raw: json.slice(start, end) });
  }
}

const marked = (source: Source, node: JsonNode): JsonNode => (source.decoded ? markDecoded(node) : node);

/** A value of a view: where it is in the JSON it is read from, and in the file. */
abstract class ViewNode {
  readonly start: number;
  readonly end: number;

  constructor(protected readonly source: Source, protected readonly jsonStart: number, protected readonly jsonEnd: number) {
    this.start = source.offsets.at(jsonStart);
    this.end = source.offsets.at(jsonEnd);
  }

  get [decoded](): boolean {
    return this.source.decoded;
  }
}

/** An object's members, found by one scan of its characters when first asked for; each member's node made once. */
export class ViewObject extends ViewNode implements JsonObject, Findable {
  readonly type = 'object' as const;
  /** Per member: its key, then the decoded offsets of the key's start and end and of the value's start and end. */
  private members: (string | number)[] | undefined;
  private made: (JsonProperty | undefined)[] = [];
  private built: JsonProperty[] | undefined;

  constructor(source: Source, jsonStart: number, jsonEnd: number, readonly depth: number) {
    super(source, jsonStart, jsonEnd);
  }

  find(key: string): JsonProperty | undefined {
    if (this.depth >= this.source.maxDepth) return undefined;
    const members = this.scan();
    for (let i = 0; i < members.length; i += 5) if (members[i] === key) return this.member(i / 5);
    return undefined;
  }

  get properties(): JsonProperty[] {
    if (this.built) return this.built;
    const count = this.depth >= this.source.maxDepth ? 0 : this.scan().length / 5;
    const properties: JsonProperty[] = [];
    for (let i = 0; i < count; i++) properties.push(this.member(i));
    this.built = properties;
    return properties;
  }

  private member(index: number): JsonProperty {
    const made = this.made[index];
    if (made) return made;
    const members = this.members!;
    const at = this.source.offsets;
    const base = index * 5;
    const keyStart = at.at(members[base + 1] as number);
    const value = viewAt(this.source, members[base + 3] as number, members[base + 4] as number, this.depth + 1);
    const property: JsonProperty = { key: members[base] as string, keyStart, keyEnd: at.at(members[base + 2] as number), value, start: keyStart, end: value.end };
    this.made[index] = property;
    return property;
  }

  private scan(): (string | number)[] {
    if (this.members) return this.members;
    const json = this.source.json;
    const members: (string | number)[] = [];
    let pos = skipSpace(json, this.jsonStart + 1);
    while (json.charCodeAt(pos) === 0x22) {
      const keyEnd = stringEnd(json, pos);
      const slash = json.indexOf('\\', pos + 1);
      const key = slash === -1 || slash >= keyEnd ? json.slice(pos + 1, keyEnd - 1) : decodeJsonString(json, pos + 1, keyEnd - 1, Infinity);
      const valueStart = skipSpace(json, skipSpace(json, keyEnd) + 1);
      const end = valueEnd(json, valueStart, this.source.ends);
      members.push(key, pos, keyEnd, valueStart, end);
      pos = nextMember(json, end);
    }
    this.members = members;
    return members;
  }
}

export class ViewArray extends ViewNode implements JsonArray {
  readonly type = 'array' as const;
  private built: JsonNode[] | undefined;

  constructor(source: Source, jsonStart: number, jsonEnd: number, readonly depth: number) {
    super(source, jsonStart, jsonEnd);
  }

  get items(): JsonNode[] {
    if (this.built) return this.built;
    const items: JsonNode[] = [];
    const json = this.source.json;
    if (this.depth < this.source.maxDepth) {
      let pos = skipSpace(json, this.jsonStart + 1);
      while (json.charCodeAt(pos) !== 0x5d) {
        const end = valueEnd(json, pos, this.source.ends);
        items.push(viewAt(this.source, pos, end, this.depth + 1));
        pos = nextMember(json, end);
      }
    }
    this.built = items;
    return items;
  }
}

/** A string decoded when its value is read (most tool outputs in a history never are). */
export class ViewString extends ViewNode implements JsonString {
  readonly type = 'string' as const;

  get value(): string {
    return decodeJsonString(this.source.json, this.jsonStart + 1, this.jsonEnd - 1, Infinity);
  }
}

function skipSpace(json: string, pos: number): number {
  for (;;) {
    const c = json.charCodeAt(pos);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
    else return pos;
  }
}

/** Where the next member of a container starts after one ending at `end` (or its closer, after the last). */
function nextMember(json: string, end: number): number {
  const pos = skipSpace(json, end);
  return json.charCodeAt(pos) === 0x2c ? skipSpace(json, pos + 1) : pos;
}

/** After the closing quote of the string opening at `open` (the text is valid JSON). */
function stringEnd(json: string, open: number): number {
  let search = open + 1;
  for (;;) {
    const close = json.indexOf('"', search);
    let backslashes = 0;
    for (let b = close - 1; json.charCodeAt(b) === 0x5c; b--) backslashes++;
    if ((backslashes & 1) === 0) return close + 1;
    search = close + 1;
  }
}

/**
 * After the value starting at `start` (the text is valid JSON): containers are stepped over without recursion, at
 * once where `ends` knows them.
 */
function valueEnd(json: string, start: number, ends: Map<number, number>): number {
  const first = json.charCodeAt(start);
  if (first === 0x22) return stringEnd(json, start);
  if (first === 0x7b || first === 0x5b) {
    const known = ends.get(start);
    if (known !== undefined) return known;
    let depth = 0;
    let pos = start;
    for (;;) {
      const c = json.charCodeAt(pos);
      if (c === 0x22) {
        pos = stringEnd(json, pos);
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        const nestedEnd = depth > 0 ? ends.get(pos) : undefined;
        if (nestedEnd !== undefined) {
          pos = nestedEnd;
          continue;
        }
        depth++;
      } else if (c === 0x7d || c === 0x5d) {
        depth--;
        if (depth === 0) return pos + 1;
      }
      pos++;
    }
  }
  if (first === 0x74 || first === 0x6e) return start + 4;
  if (first === 0x66) return start + 5;
  let pos = start;
  for (;;) {
    const c = json.charCodeAt(pos);
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45) pos++;
    else return pos;
  }
}

/**
 * A node of a view as a node that keeps only its place in the file: what the model keeps of a span's messages (the
 * texts, arguments and results of its calls). A view's node holds the decoded text of its whole attribute; this one
 * decodes its own characters again when its value or its members are first asked for.
 */
export function detached(text: string, node: JsonNode): JsonNode {
  if (!isDecoded(node)) return node;
  if (node instanceof ViewString) return new KeptString(text, node.start, node.end);
  if (node instanceof ViewObject) return new KeptObject(text, node.depth, node.start, node.end);
  if (node instanceof ViewArray) return new KeptArray(text, node.depth, node.start, node.end);
  return node;
}

/** A string inside a string: its characters decoded twice (the file's escapes, then its own). */
class KeptString implements JsonString {
  readonly type = 'string' as const;
  readonly [decoded] = true;

  constructor(private readonly text: string, readonly start: number, readonly end: number) {}

  get value(): string {
    const literal = decodeJsonString(this.text, this.start, this.end, Infinity);
    return decodeJsonString(literal, 1, literal.length - 1, Infinity);
  }
}

class KeptObject implements JsonObject {
  readonly type = 'object' as const;
  readonly [decoded] = true;
  private view: JsonObject | undefined;

  constructor(private readonly text: string, private readonly depth: number, readonly start: number, readonly end: number) {}

  get properties(): JsonProperty[] {
    this.view ??= viewOfRange(this.text, this.start, this.end, this.depth) as JsonObject;
    return this.view.properties;
  }
}

class KeptArray implements JsonArray {
  readonly type = 'array' as const;
  readonly [decoded] = true;
  private view: JsonArray | undefined;

  constructor(private readonly text: string, private readonly depth: number, readonly start: number, readonly end: number) {}

  get items(): JsonNode[] {
    this.view ??= viewOfRange(this.text, this.start, this.end, this.depth) as JsonArray;
    return this.view.items;
  }
}
