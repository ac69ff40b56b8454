/**
 * Invariant events built from another format's JSON, each with its source span: the building blocks every
 * conversion to events uses (calls/anthropicEvents.ts, responses/itemEvents.ts). Each event comes twice: as the
 * plain value the evaluator reads, and as a tree of nodes that carry the source span of what they came from (the
 * original nodes where the event holds a value of the file as it is, made nodes spanning their source elsewhere), so
 * that a violation's address lands on the exact characters of the original file.
 */
import type { JsonArray, JsonNode, JsonObject, JsonProperty, JsonString } from '../json/nodes';
import type { Span } from '../common/types';

/** One converted event. */
export interface SourcedEvent {
  /** The event as the analyzer reads it (what `agent-traces convert` writes). */
  readonly value: Record<string, unknown>;
  /** The same event with source spans: resolve addresses (`messages.<i>.content:3-9`) against it. */
  readonly node: JsonObject;
}

/**
 * Nodes made by the conversion (a role, a `"function"`, an image's data URL): they span the source element they
 * stand for, but their characters are not that element's, so a character range in them cannot be placed closer.
 */
const madeNodes = new WeakSet<JsonNode>();

export function isMadeNode(node: JsonNode): boolean {
  return madeNodes.has(node);
}

export interface Sourced {
  value: unknown;
  node: JsonNode;
}

/** A value of the file as it is: its node, and its value read from its text. */
export function original(text: string, node: JsonNode): Sourced {
  return { value: JSON.parse(text.slice(node.start, node.end)) as unknown, node };
}

export function madeString(value: string, at: Span): Sourced {
  const node: JsonString = { type: 'string', start: at.start, end: at.end, value };
  madeNodes.add(node);
  return { value, node };
}

export function madeNull(at: Span): Sourced {
  const node: JsonNode = { type: 'null', start: at.start, end: at.end, value: null };
  madeNodes.add(node);
  return { value: null, node };
}

export function madeObject(at: Span, fields: [string, Sourced][]): Sourced & { value: Record<string, unknown>; node: JsonObject } {
  const value: Record<string, unknown> = {};
  const properties: JsonProperty[] = [];
  for (const [key, field] of fields) {
    value[key] = field.value;
    properties.push({ key, keyStart: field.node.start, keyEnd: field.node.start, value: field.node, start: field.node.start, end: field.node.end });
  }
  const node: JsonObject = { type: 'object', start: at.start, end: at.end, properties };
  madeNodes.add(node);
  return { value, node };
}

export function madeArray(at: Span, items: Sourced[]): Sourced {
  const node: JsonArray = { type: 'array', start: at.start, end: at.end, items: items.map((item) => item.node) };
  madeNodes.add(node);
  return { value: items.map((item) => item.value), node };
}

export function stringOf(node: JsonNode | undefined): string | undefined {
  return node?.type === 'string' ? node.value : undefined;
}

export function event(at: Span, fields: [string, Sourced][]): SourcedEvent {
  const { value, node } = madeObject(at, fields);
  return { value, node };
}


/**
 * One trace a file of another format converts to: its events with their source spans, the characters it comes from
 * (the whole file for a session; one conversation of a file that holds several), and what of the file was left out.
 */
export interface ConvertedTrace {
  start: number;
  end: number;
  /** 1-based line where the trace starts, in a file that holds several traces by line. */
  line?: number;
  events: SourcedEvent[];
  /** 1-based lines left out of the conversion: not valid JSON (fixed first). */
  skippedLines: number[];
  /** Lines past the line limit, not read. */
  omittedLines: number;
  /** Why nothing of the file converts (its JSON is broken): set instead of events. */
  unreadable?: string;
}

/** Why a JSON document whose first syntax error is `error` converts to nothing: the error and its line. */
export function brokenJson(text: string, error: { start: number; message: string }): string {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < error.start; i = text.indexOf('\n', i + 1)) line++;
  return `${error.message} at line ${line}`;
}
