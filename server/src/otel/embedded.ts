/**
 * JSON written inside a string (the GenAI conventions' `gen_ai.input.messages`, any-agent's `gen_ai.output`, a
 * tool's arguments): read into nodes whose spans are the source characters they were decoded from, through the
 * string's escapes, so calls, ids and problems found inside land on the file's own characters. The nodes are plain
 * (their characters are escaped JSON, not a literal a reader could read again) and carry nodes.ts's `decoded` mark.
 */
import type { JsonArray, JsonNode, JsonObject, JsonProperty, JsonSyntaxError } from '../json/nodes';
import { decoded, transientStringValue, type JsonString } from '../json/nodes';
import { parseWholeJsonValue } from '../json/readJson';


/** Values nested deeper than this inside a string are not read (the container is kept, empty). */
export const maxEmbeddedDepth = 64;

export interface EmbeddedJson {
  root?: JsonNode;
  /** Syntax errors, at source offsets. */
  errors: JsonSyntaxError[];
}

/**
 * Whether a string literal's value starts (after white space) with `{` or `[`, read from its first source
 * characters: a history of messages is megabytes long, and decoding all of it to look at its head costs as much as
 * reading it.
 */
export function startsAsContainer(text: string, literal: { start: number; end: number }): boolean {
  return /^(?:[ \t\r\n]|\\[nrt]|\\u00(?:20|09|0[aA]|0[dD]))*[[{]/.test(text.slice(literal.start + 1, Math.min(literal.end, literal.start + 129)));
}

/** Maps offsets in a literal's decoded value (or in a stretch of it) to offsets in the source text. */
export class LiteralOffsets {
  /** Decoded and source offsets where each plain run starts (after each escape). */
  private readonly decodedAt: number[] = [0];
  private readonly sourceAt: number[];

  /** The offsets of a string literal's value. */
  static ofLiteral(text: string, literal: { start: number; end: number }): LiteralOffsets {
    const contentEnd = Math.max(literal.start + 1, text.charCodeAt(literal.end - 1) === 0x22 && literal.end - literal.start >= 2 ? literal.end - 1 : literal.end);
    return new LiteralOffsets(text, literal.start + 1, contentEnd);
  }

  /** The offsets of the characters text[contentStart, contentEnd) of a literal's value decode to. */
  constructor(text: string, contentStart: number, contentEnd: number) {
    this.sourceAt = [contentStart];
    let decoded = 0;
    let pos = contentStart;
    for (;;) {
      const slash = text.indexOf('\\', pos);
      if (slash === -1 || slash >= contentEnd) break;
      decoded += slash - pos + 1;
      pos = slash + escapeSourceLength(text, slash, contentEnd);
      this.decodedAt.push(decoded);
      this.sourceAt.push(pos);
    }
  }

  at(decodedOffset: number): number {
    let lo = 0;
    let hi = this.decodedAt.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.decodedAt[mid] <= decodedOffset) lo = mid;
      else hi = mid - 1;
    }
    return this.sourceAt[lo] + (decodedOffset - this.decodedAt[lo]);
  }
}

function escapeSourceLength(text: string, slash: number, end: number): number {
  if (text.charCodeAt(slash + 1) === 0x75) return slash + 6 <= end && /^[0-9a-fA-F]{4}$/.test(text.slice(slash + 2, slash + 6)) ? 6 : 1;
  return Math.min(2, end - slash);
}

/**
 * The JSON a string literal holds, read with source spans; undefined root when it holds no JSON value. The nodes are
 * made one container at a time, when a feature first visits it: a model's history repeats every earlier message and
 * tool output, of which the reading of calls and outputs visits a few fields per message.
 */
export function readEmbeddedJson(text: string, literal: JsonString): EmbeddedJson {
  const decodedText = transientStringValue(literal);
  const offsets = LiteralOffsets.ofLiteral(text, literal);
  const parsed = parseWholeJsonValue(decodedText, 0, decodedText.length);
  const errors = parsed.errors.map((error) => ({ start: offsets.at(error.start), end: Math.max(offsets.at(error.end), offsets.at(error.start)), message: error.message }));
  return parsed.root ? { root: mapped(parsed.root, offsets, 0), errors } : { errors };
}

/** A node of the decoded text as a node at the source characters it was decoded from. */
function mapped(node: JsonNode, offsets: LiteralOffsets, depth: number): JsonNode {
  const start = offsets.at(node.start);
  const end = offsets.at(node.end);
  switch (node.type) {
    case 'object':
      return new MappedObject(node, offsets, depth, start, end);
    case 'array':
      return new MappedArray(node, offsets, depth, start, end);
    case 'string':
      return new MappedString(node, start, end);
    case 'number':
      return { type: 'number', start, end, raw: node.raw, [decoded]: true } as JsonNode;
    default:
      return { type: node.type, start, end, value: node.value, [decoded]: true } as JsonNode;
  }
}

/** An object whose properties are mapped when first asked for (once: the same nodes on every visit). */
class MappedObject implements JsonObject {
  readonly type = 'object' as const;
  readonly [decoded] = true;
  private built: JsonProperty[] | undefined;

  constructor(private readonly inner: JsonObject, private readonly offsets: LiteralOffsets, private readonly depth: number, readonly start: number, readonly end: number) {}

  get properties(): JsonProperty[] {
    if (this.built) return this.built;
    const offsets = this.offsets;
    this.built = this.depth >= maxEmbeddedDepth ? [] : this.inner.properties.map((property) => ({
      key: property.key, keyStart: offsets.at(property.keyStart), keyEnd: offsets.at(property.keyEnd),
      value: property.value && mapped(property.value, offsets, this.depth + 1), start: offsets.at(property.start), end: offsets.at(property.end),
    }));
    return this.built;
  }
}

class MappedArray implements JsonArray {
  readonly type = 'array' as const;
  readonly [decoded] = true;
  private built: JsonNode[] | undefined;

  constructor(private readonly inner: JsonArray, private readonly offsets: LiteralOffsets, private readonly depth: number, readonly start: number, readonly end: number) {}

  get items(): JsonNode[] {
    this.built ??= this.depth >= maxEmbeddedDepth ? [] : this.inner.items.map((item) => mapped(item, this.offsets, this.depth + 1));
    return this.built;
  }
}

/** A string decoded (from the decoded text) when its value is read: most tool outputs in a history are never read. */
class MappedString implements JsonString {
  readonly type = 'string' as const;
  readonly [decoded] = true;

  constructor(private readonly inner: JsonString, readonly start: number, readonly end: number) {}

  get value(): string {
    return this.inner.value;
  }
}

