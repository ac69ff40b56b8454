/**
 * Span attributes as both writers write them, read into one form: a key and a value node. OTLP/JSON writes a list
 * of `{key, value: {stringValue | intValue | doubleValue | boolValue | arrayValue | kvlistValue | bytesValue}}`
 * (64-bit integers as strings); any-agent writes a flat object of plain values. OTLP's arrays and key-value lists
 * become array and object nodes whose leaves are the file's own nodes, so everything read from them keeps its place.
 */
import type { JsonNode, JsonProperty, JsonSyntaxError } from '../json/nodes';
import { property } from '../json/queries';
import type { Span } from '../common/types';
import { markDecoded, sourceString, transientStringValue } from '../json/nodes';
import { memberOnTape, nextOnTape, openerOnTape, placeOnTape, standalone, stringOnTape, viewAt, ViewArray, type ViewSource } from '../json/validViews';
import { readEmbeddedJson, type EmbeddedJson } from './embedded';
import { viewOfEmbeddedJson } from './jsonViews';

/**
 * One attribute: its key, where the key is, and its value. Its places are numbers rather than span objects: a file
 * keeps tens of thousands of attributes for the life of the document. A string value written as a literal of the
 * file (nearly all of them) is kept as its place, its node made each time it is asked for.
 */
export class SpanAttribute {
  /** The syntax errors of the JSON its string holds, once read (the span's messages read it, then its check). */
  jsonErrors: JsonSyntaxError[] | undefined = undefined;

  /**
   * `held`: the value's node, or the file's text when the value is the string literal text[valueStart, |valueEnd|)
   * (valueEnd negative when it holds an escape).
   */
  private constructor(
    readonly key: string,
    readonly keyStart: number,
    readonly keyEnd: number,
    private readonly held: JsonNode | string | undefined,
    private readonly valueStart: number,
    private readonly valueEnd: number,
  ) {}

  static of(key: string, keyStart: number, keyEnd: number, value: JsonNode | undefined): SpanAttribute {
    return new SpanAttribute(key, keyStart, keyEnd, value, 0, 0);
  }

  /** `end` negative when the literal holds an escape, as the tape records it. */
  static ofLiteral(key: string, keyStart: number, keyEnd: number, text: string, start: number, end: number): SpanAttribute {
    return new SpanAttribute(key, keyStart, keyEnd, text, start, end);
  }

  /** The value, unwrapped from OTLP's AnyValue (a string literal, a number, …); undefined when it has none. */
  get value(): JsonNode | undefined {
    const held = this.held;
    if (typeof held !== 'string') return held;
    const end = this.valueEnd;
    return sourceString(held, this.valueStart, end < 0 ? -end : end, end < 0);
  }

  get keySpan(): Span {
    return { start: this.keyStart, end: this.keyEnd };
  }
}

const maxDepth = 32;

/** The attributes of a span, an OTLP resource or scope: a list of key-values, or a plain object. */
export function readAttributes(node: JsonNode | undefined): Map<string, SpanAttribute> {
  const attributes = new Map<string, SpanAttribute>();
  if (node instanceof ViewArray && node.depth + 2 < node.source.maxDepth) {
    readAttributesOnTape(node, attributes);
  } else if (node?.type === 'array') {
    for (const entry of node.items) {
      const key = property(entry, 'key')?.value;
      if (key?.type !== 'string' || attributes.has(key.value)) continue;
      attributes.set(key.value, SpanAttribute.of(key.value, key.start, key.end, anyValue(property(entry, 'value')?.value, 0)));
    }
  } else if (node?.type === 'object') {
    for (const entry of node.properties) {
      if (attributes.has(entry.key)) continue;
      attributes.set(entry.key, SpanAttribute.of(entry.key, entry.keyStart, entry.keyEnd, entry.value));
    }
  }
  return attributes;
}

/**
 * readAttributes for a list of key-values read as a view: each entry's key and value found on the view's tape, without
 * a node for the entry, its members or the AnyValue wrapper (a span has dozens of attributes, and a file thousands of
 * spans). The same attributes as read from the entries' nodes.
 */
function readAttributesOnTape(list: ViewArray, attributes: Map<string, SpanAttribute>): void {
  const source = list.source;
  const last = nextOnTape(source, list.index);
  for (let entry = list.index + 1; entry < last; entry = nextOnTape(source, entry)) {
    if (openerOnTape(source, entry) !== 0x7b) continue;
    const keyAt = memberOnTape(source, entry, 'key');
    if (keyAt === -1 || openerOnTape(source, keyAt) !== 0x22) continue;
    const key = sharedKey(stringOnTape(source, keyAt));
    if (attributes.has(key)) continue;
    const valueAt = memberOnTape(source, entry, 'value');
    const place = placeOnTape(source, keyAt);
    const literal = valueAt === -1 ? -1 : literalValueOnTape(source, valueAt);
    if (literal !== -1) {
      attributes.set(key, SpanAttribute.ofLiteral(key, place.start, place.end, source.json, source.tape[literal * 3], source.tape[literal * 3 + 1]));
    } else {
      attributes.set(key, SpanAttribute.of(key, place.start, place.end, valueAt === -1 ? undefined : anyValueOnTape(source, valueAt, list.depth + 2)));
    }
  }
}

/**
 * The tape index of the string literal an AnyValue at tape index `index` holds as its only scalar (`{"stringValue":
 * "…"}`, OTLP's `{"intValue": "…"}`), -1 for anything else; only in a view of the file's own text, whose places are
 * the file's.
 */
function literalValueOnTape(source: ViewSource, index: number): number {
  if (source.decoded || source.offsets || openerOnTape(source, index) !== 0x7b) return -1;
  const field = index + 1;
  const only = field < nextOnTape(source, index) && nextOnTape(source, field + 1) === nextOnTape(source, index);
  return only && openerOnTape(source, field + 1) === 0x22 && scalarValueKeys.has(stringOnTape(source, field)) ? field + 1 : -1;
}

/**
 * Attribute keys as one string each: read from the tape, every span's `gen_ai.operation.name` is a slice of the file of
 * its own, kept for the life of the document. Bounded: keys are few, but a file may make up any.
 */
const sharedKeys = new Map<string, string>();
const maxSharedKeys = 10_000;
const maxSharedKeyLength = 100;

function sharedKey(key: string): string {
  const shared = sharedKeys.get(key);
  if (shared !== undefined) return shared;
  if (key.length > maxSharedKeyLength || sharedKeys.size >= maxSharedKeys) return key;
  // A copy of its own: the key read is a slice of the file, and would keep the whole text of the first file with it.
  const copy = JSON.parse(JSON.stringify(key)) as string;
  sharedKeys.set(copy, copy);
  return copy;
}

const scalarValueKeys = new Set(['stringValue', 'intValue', 'doubleValue', 'boolValue', 'bytesValue']);

/** anyValue of the value at a tape index: a scalar AnyValue's inner value made alone, anything else as anyValue reads it. */
function anyValueOnTape(source: ViewSource, index: number, depth: number): JsonNode | undefined {
  if (openerOnTape(source, index) === 0x7b) {
    const field = index + 1;
    const only = field < nextOnTape(source, index) && nextOnTape(source, field + 1) === nextOnTape(source, index);
    if (only && scalarValueKeys.has(stringOnTape(source, field))) return standalone(viewAt(source, field + 1, depth + 1));
  }
  return anyValue(viewAt(source, index, depth), 0);
}

/** An OTLP AnyValue as a plain node; a value that is not an AnyValue object is taken as it is. */
function anyValue(node: JsonNode | undefined, depth: number): JsonNode | undefined {
  if (!node || node.type !== 'object') return standalone(node);
  const [field] = node.properties;
  if (!field || node.properties.length !== 1) return node.properties.length === 0 ? markDecoded({ type: 'null', start: node.start, end: node.end, value: null }) : standalone(node);
  const inner = field.value;
  if (!inner || depth >= maxDepth) return standalone(inner);
  switch (field.key) {
    case 'arrayValue': {
      const values = property(inner, 'values')?.value;
      const items = values?.type === 'array' ? values.items.map((item) => anyValue(item, depth + 1)).filter((item): item is JsonNode => item !== undefined) : [];
      return markDecoded({ type: 'array', start: inner.start, end: inner.end, items });
    }
    case 'kvlistValue': {
      const values = property(inner, 'values')?.value;
      const properties: JsonProperty[] = [];
      for (const entry of values?.type === 'array' ? values.items : []) {
        const key = property(entry, 'key')?.value;
        if (key?.type !== 'string') continue;
        properties.push({ key: key.value, keyStart: key.start, keyEnd: key.end, value: anyValue(property(entry, 'value')?.value, depth + 1), start: entry.start, end: entry.end });
      }
      return markDecoded({ type: 'object', start: inner.start, end: inner.end, properties });
    }
    default:
      return standalone(inner);
  }
}

export function attributeString(attribute: SpanAttribute | undefined): string | undefined {
  return attribute?.value?.type === 'string' ? attribute.value.value : undefined;
}

/** A number, also when written as a string of digits (OTLP's intValue). */
export function attributeNumber(attribute: SpanAttribute | undefined): number | undefined {
  return numberOf(attribute?.value);
}

export function numberOf(node: JsonNode | undefined): number | undefined {
  if (node?.type === 'number') return Number(node.raw);
  if (node?.type !== 'string') return undefined;
  // Not kept on the node: the number is what is kept.
  const digits = transientStringValue(node);
  return /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(digits) ? Number(digits) : undefined;
}

/** What an attribute holds as JSON: a structured value as it is, a string read as the JSON it encodes. */
export interface AttributeJson extends EmbeddedJson {
  /** The value was a string holding JSON (its problems are inside the string). */
  encoded: boolean;
}

/**
 * What an attribute holds as JSON, its errors kept on the attribute for its check. JSON without errors is read as a
 * view (embeddedView.ts); `asView` false reads it whole, as broken JSON is read. The nodes are the reader's to keep
 * or let go: held by the attribute, a history of messages kept its decoded text and the trees read from it.
 */
export function attributeJson(text: string, attribute: SpanAttribute | undefined, asView = true): AttributeJson | undefined {
  const value = attribute?.value;
  if (!attribute || !value) return undefined;
  if (value.type !== 'string') return { root: value, errors: [], encoded: false };
  const view = asView ? viewOfEmbeddedJson(text, value) : undefined;
  if (view) {
    attribute.jsonErrors = [];
    return { root: view, errors: [], encoded: true };
  }
  // Not valid JSON: read whole, for its errors and the partial tree the messages are read from.
  const read = readEmbeddedJson(text, value);
  attribute.jsonErrors = read.errors;
  return { ...read, encoded: true };
}

/** The syntax errors of the JSON in an attribute's string, read once (the span's messages may have read them). */
export function attributeJsonErrors(text: string, attribute: SpanAttribute): JsonSyntaxError[] {
  return attribute.jsonErrors ?? attributeJson(text, attribute)?.errors ?? [];
}
