/**
 * The nodes JSON Lines features visit: a JSON tree with absolute source offsets. Numbers keep their source text
 * (`raw`): integers wider than 2^53 are never rounded, and nothing here compares numbers as JS doubles unless the
 * caller decides to.
 */
import { decodeJsonString } from './strings';

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

/** An object node that can look one property up without building the others. */
export interface Findable {
  find(key: string): JsonProperty | undefined;
}

/**
 * The mark of nodes read from JSON written inside a string literal (at the file's characters through its escapes):
 * their characters in the file are not a JSON literal of them, so nothing may read them back from the text. A
 * property of the node rather than a WeakSet: a history of messages makes hundreds of thousands of these nodes, and a
 * weak collection of that many costs more than reading them.
 */
export const decoded = Symbol('decoded from inside a string');

export function isDecoded(node: JsonNode): boolean {
  return (node as { [decoded]?: true })[decoded] === true;
}

export function markDecoded<T extends JsonNode>(node: T): T {
  (node as { [decoded]?: true })[decoded] = true;
  return node;
}

const MAX_KEPT_STRING = 4096;

/** A string node that decodes its value on first use: most string values of a large file are never read. */
class SourceString implements JsonString {
  readonly type = 'string' as const;
  private decoded: string | undefined;

  constructor(private readonly text: string, readonly start: number, readonly end: number, private readonly escaped: boolean) {}

  /** The same literal at start + delta of text (an edit before it moved it), decoded again when read. */
  moved(text: string, delta: number): JsonString {
    return new SourceString(text, this.start + delta, this.end + delta, this.escaped);
  }

  get value(): string {
    if (this.decoded !== undefined) return this.decoded;
    const value = this.decode();
    // Long values (tool outputs, documents) are decoded again when needed rather than kept for the file's life.
    if (this.end - this.start <= MAX_KEPT_STRING) this.decoded = value;
    return value;
  }

  decode(): string {
    if (this.decoded !== undefined) return this.decoded;
    const closed = this.end - this.start >= 2 && this.text.charCodeAt(this.end - 1) === 0x22;
    if (!this.escaped) return this.text.slice(this.start + 1, closed ? this.end - 1 : this.end);
    // A well-formed literal (nearly all): V8's JSON parser decodes it fastest. A broken one (in a broken line)
    // keeps its broken escapes as written.
    try {
      return JSON.parse(this.text.slice(this.start, this.end)) as string;
    } catch {
      return decodeJsonString(this.text, this.start + 1, closed ? this.end - 1 : this.end, Infinity);
    }
  }
}

/**
 * The value of a string node, without keeping it on the node: for reads made while a file is parsed (annotation
 * ranges), whose strings would otherwise stay decoded for the life of the document.
 */
export function transientStringValue(node: JsonString): string {
  return node instanceof SourceString ? node.decode() : node.value;
}

/** A node for the string literal text[start, end), decoded when first read. */
export function sourceString(text: string, start: number, end: number, escaped: boolean): JsonString {
  return new SourceString(text, start, end, escaped);
}
