/**
 * JSON written inside a string (the GenAI conventions' `gen_ai.input.messages`, any-agent's `gen_ai.output`, a
 * tool's arguments): read into nodes whose spans are the source characters they were decoded from, through the
 * string's escapes, so calls, ids and problems found inside land on the file's own characters. The nodes are plain
 * (their characters are escaped JSON, not a literal a reader could read again).
 */
import type { JsonNode, JsonProperty, JsonSyntaxError } from '../json/nodes';
import { transientStringValue, type JsonString } from '../json/nodes';
import { parseJsonValue } from '../json/readJson';

/**
 * The nodes read here (and the containers attributes.ts makes of OTLP's AnyValues): their characters in the file are
 * not a JSON literal of them, so a conversion must not read them back from the text.
 */
const decodedNodes = new WeakSet<JsonNode>();

export function isDecoded(node: JsonNode): boolean {
  return decodedNodes.has(node);
}

export function markDecoded<T extends JsonNode>(node: T): T {
  decodedNodes.add(node);
  return node;
}

/** Values nested deeper than this inside a string are not read (the rest of the value is kept). */
const maxDepth = 64;
/** Nodes read from one string at most: a bigger value keeps what was read before it. */
const maxNodes = 200_000;

export interface EmbeddedJson {
  root?: JsonNode;
  /** Syntax errors, at source offsets. */
  errors: JsonSyntaxError[];
  /** Part of the value was not read (too deep, too many nodes). */
  cut?: boolean;
}

/** Maps offsets in a literal's decoded value to offsets in the source text. */
export class LiteralOffsets {
  /** Decoded and source offsets where each plain run starts (after each escape). */
  private readonly decodedAt: number[] = [0];
  private readonly sourceAt: number[];

  constructor(text: string, literal: { start: number; end: number }) {
    const contentEnd = Math.max(literal.start + 1, text.charCodeAt(literal.end - 1) === 0x22 && literal.end - literal.start >= 2 ? literal.end - 1 : literal.end);
    this.sourceAt = [literal.start + 1];
    let decoded = 0;
    let pos = literal.start + 1;
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

/** The JSON a string literal holds, read with source spans; undefined root when it holds no JSON value. */
export function readEmbeddedJson(text: string, literal: JsonString): EmbeddedJson {
  const decoded = transientStringValue(literal);
  const offsets = new LiteralOffsets(text, literal);
  const parsed = parseJsonValue(decoded, 0, decoded.length);
  const at = (offset: number) => offsets.at(offset);
  const errors = parsed.errors.map((error) => ({ start: at(error.start), end: Math.max(at(error.end), at(error.start)), message: error.message }));
  if (!parsed.root) return { errors };
  const state = { nodes: 0, cut: false };
  const root = mapped(parsed.root, at, 0, state);
  return state.cut ? { root, errors, cut: true } : { root, errors };
}

function mapped(node: JsonNode, at: (offset: number) => number, depth: number, state: { nodes: number; cut: boolean }): JsonNode {
  return markDecoded(mappedNode(node, at, depth, state));
}

function mappedNode(node: JsonNode, at: (offset: number) => number, depth: number, state: { nodes: number; cut: boolean }): JsonNode {
  state.nodes++;
  const start = at(node.start);
  const end = at(node.end);
  switch (node.type) {
    case 'object': {
      const properties: JsonProperty[] = [];
      if (depth < maxDepth) {
        for (const property of node.properties) {
          if (state.nodes >= maxNodes) { state.cut = true; break; }
          properties.push({
            key: property.key, keyStart: at(property.keyStart), keyEnd: at(property.keyEnd),
            value: property.value && mapped(property.value, at, depth + 1, state), start: at(property.start), end: at(property.end),
          });
        }
      } else state.cut = true;
      return { type: 'object', start, end, properties };
    }
    case 'array': {
      const items: JsonNode[] = [];
      if (depth < maxDepth) {
        for (const item of node.items) {
          if (state.nodes >= maxNodes) { state.cut = true; break; }
          items.push(mapped(item, at, depth + 1, state));
        }
      } else state.cut = true;
      return { type: 'array', start, end, items };
    }
    case 'string':
      return { type: 'string', start, end, value: node.value };
    case 'number':
      return { type: 'number', start, end, raw: node.raw };
    default:
      return { type: node.type, start, end, value: node.value } as JsonNode;
  }
}
