/**
 * A dataset line read with the engine's JSON.parse and checked on the value it gives: the fast way through a big
 * dataset, in the editor and on the command line (readLine.ts). A line is taken here only when it is certainly free of every problem the line's own checks
 * (the trace's checks, its annotations) would find; any other line is read again by the positioned reader
 * (parseLine.ts), which finds its problems on their exact characters. The checks between lines (metadata row, one
 * kind of trace, unique indexes) still run on the line's node, built from the text when they visit it.
 *
 * Where JSON.parse and the positioned reader disagree, the line is left to the positioned reader: a repeated key
 * (JSON.parse keeps the last value, the checks read the first), nesting deeper than the reader's bound, a root that
 * is not an object or array. Text JSON.parse refuses (a byte order mark inside the file, comments, trailing commas,
 * control characters) goes there anyway.
 */
import { lazyContainer } from '../../json/validReader';
import { knownRoles } from '../../trace/roles';
import { callKeys, chunkKeys, eventKeys, functionKeys, rootObjectKeys } from '../../trace/schema';
import type { Line, LineKind } from '../lines';
import { isJsonSpace } from '../model';
import { lineBounds } from '../strings';
import { codePointLength, parseAddress } from './address';

type Value = null | boolean | number | string | Value[] | { [key: string]: Value };
type ObjectValue = { [key: string]: Value };

/** Deeper values go to the positioned reader, whose bound (parseLine.ts) is higher: no line is near both. */
const maxCleanDepth = 200;

const hasOwn = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
const isObject = (value: Value | undefined): value is ObjectValue => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The line, when it is valid JSON whose trace and annotations have no problem (its `traceProblems` and
 * `annotationProblems` empty, its root a node read from the text when visited); undefined otherwise.
 */
export function readCleanDatasetLine(text: string, number: number, start: number, valueStart: number, end: number): Line | undefined {
  let rootStart = valueStart;
  while (rootStart < end && isJsonSpace(text.charCodeAt(rootStart))) rootStart++;
  let rootEnd = end;
  while (rootEnd > rootStart && isJsonSpace(text.charCodeAt(rootEnd - 1))) rootEnd--;
  const opening = text.charCodeAt(rootStart);
  if (opening !== 0x7b && opening !== 0x5b) return undefined;
  const source = text.slice(rootStart, rootEnd);
  let root: Value;
  try {
    root = JSON.parse(source) as Value;
  } catch {
    return undefined;
  }
  if (!hasNoRepeatedKey(source, root)) return undefined;
  const kind = lineKind(root);
  if (!kind) return undefined;
  if (kind === 'raw' || kind === 'annotated') {
    const calledTools: (string | undefined)[] = [];
    if (!traceIsClean(root, calledTools)) return undefined;
    if (kind === 'annotated' && !annotationsAreClean(root as ObjectValue)) return undefined;
    return {
      number, start, end, kind, errors: [], root: lazyContainer(text, rootStart, rootEnd, kind === 'annotated'),
      traceProblems: [], calledTools, ...(kind === 'annotated' ? { annotationProblems: [] } : {}),
    };
  }
  return { number, start, end, kind, errors: [], root: lazyContainer(text, rootStart, rootEnd, isObject(root)) };
}

/** As lines.ts classifies a node (a line whose first key is written "call" never comes here: model.ts reads it whole). */
function lineKind(root: Value): LineKind | undefined {
  if (Array.isArray(root)) return 'raw';
  if (!isObject(root)) return 'other';
  // A first key "call" written with escapes may make an agentguard entry: the positioned reader knows the key order.
  if (hasOwn(root, 'call')) return undefined;
  if (hasOwn(root, 'messages')) return 'annotated';
  if (hasOwn(root, 'metadata')) return 'metadata';
  return 'other';
}

/**
 * Whether no object of the line repeats a key. Every key is followed by one colon outside strings, so the colons of
 * the text are the keys JSON.parse kept, plus those it dropped as repeats, plus the colons written inside strings:
 * equal counts leave no room for a repeat. A colon written as an escape (`\u003a`) is one the count cannot place.
 */
function hasNoRepeatedKey(source: string, root: Value): boolean {
  for (let i = source.indexOf('\\u003'); i !== -1; i = source.indexOf('\\u003', i + 1)) {
    if ((source.charCodeAt(i + 5) | 0x20) === 0x61) return false;
  }
  let colons = 0;
  for (let i = source.indexOf(':'); i !== -1; i = source.indexOf(':', i + 1)) colons++;
  const counted = countKeysAndColons(root, 0);
  return counted >= 0 && counted === colons;
}

/** The keys of every object in the value plus the colons inside its strings (keys included); -1 when too deep. */
function countKeysAndColons(value: Value, depth: number): number {
  if (typeof value === 'string') return colonsIn(value);
  if (typeof value !== 'object' || value === null) return 0;
  if (depth > maxCleanDepth) return -1;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = countKeysAndColons(item, depth + 1);
      if (inner < 0) return -1;
      count += inner;
    }
    return count;
  }
  for (const key of Object.keys(value)) {
    const inner = countKeysAndColons(value[key], depth + 1);
    if (inner < 0) return -1;
    count += 1 + colonsIn(key) + inner;
  }
  return count;
}

function colonsIn(text: string): number {
  let count = 0;
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) count++;
  return count;
}

/**
 * Whether the trace checks (trace/validate.ts) find nothing: every event a message or tool output of a known role
 * with known keys, text content, well-formed calls with their arguments an object (or a string encoding one), every
 * call id given once and answered by a later output that names it, every output naming an earlier call. Shapes
 * outside these (top-level calls, tool lists, images, outputs without an id) are left to the positioned reader.
 */
function traceIsClean(root: Value, calledTools: (string | undefined)[]): boolean {
  let events: Value;
  if (Array.isArray(root)) events = root;
  else {
    if (!isObject(root)) return false;
    for (const key of Object.keys(root)) if (!rootObjectKeys.has(key)) return false;
    events = root.messages;
  }
  if (!Array.isArray(events)) return false;
  /** Each call id given, and whether an output answered it yet. */
  const answered = new Map<string, boolean>();
  for (let index = 0; index < events.length; index++) {
    const event = events[index];
    if (!isObject(event)) return false;
    const keys = Object.keys(event);
    if (!hasOwn(event, 'role')) {
      // A first element holding only "metadata" is the trace's metadata, which has no checks.
      if (index === 0 && keys.length > 0 && keys.every((key) => key === 'metadata')) continue;
      return false;
    }
    const role = event.role;
    if (typeof role !== 'string' || !knownRoles.has(role)) return false;
    for (const key of keys) if (!eventKeys.has(key)) return false;
    const isOutput = role === 'tool';
    if (hasOwn(event, 'content') && !contentIsClean(event.content, isOutput)) return false;
    if (hasOwn(event, 'tool_call_id') && typeof event.tool_call_id !== 'string' && event.tool_call_id !== null) return false;
    if (isOutput) {
      // An output naming no call answers the latest one (a hint); one naming an unknown or later call is an error.
      const id = event.tool_call_id;
      if (typeof id !== 'string' || !answered.has(id)) return false;
      answered.set(id, true);
    }
    if (hasOwn(event, 'tool_calls')) {
      const calls = event.tool_calls;
      if (calls === null) continue;
      if (!Array.isArray(calls)) return false;
      for (const call of calls) {
        if (!isObject(call)) return false;
        const name = cleanCallName(call);
        if (name === undefined) return false;
        const id = call.id as string;
        if (answered.has(id)) return false;
        answered.set(id, false);
        calledTools.push(name);
      }
    }
  }
  for (const done of answered.values()) if (!done) return false;
  return true;
}

function contentIsClean(content: Value, isOutput: boolean): boolean {
  if (typeof content === 'string' || content === null) return true;
  if (isObject(content)) return isOutput;
  if (!Array.isArray(content)) return false;
  for (const chunk of content) {
    if (!isObject(chunk) || chunk.type !== 'text' || typeof chunk.text !== 'string' || !hasOwn(chunk, 'text')) return false;
    for (const key of Object.keys(chunk)) if (!chunkKeys.has(key)) return false;
  }
  return true;
}

/** The function name of a call with nothing to report (a string id, its type, its name, its arguments an object). */
function cleanCallName(call: ObjectValue): string | undefined {
  for (const key of Object.keys(call)) if (!callKeys.has(key)) return undefined;
  if (typeof call.type !== 'string' || typeof call.id !== 'string' || !hasOwn(call, 'type') || !hasOwn(call, 'id')) return undefined;
  const fn = hasOwn(call, 'function') ? call.function : undefined;
  if (!isObject(fn)) return undefined;
  for (const key of Object.keys(fn)) if (!functionKeys.has(key)) return undefined;
  if (!hasOwn(fn, 'name') || typeof fn.name !== 'string' || !hasOwn(fn, 'arguments')) return undefined;
  const args = fn.arguments;
  if (isObject(args)) return fn.name;
  if (typeof args !== 'string') return undefined;
  try {
    return isObject(JSON.parse(args) as Value) ? fn.name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether every annotation (annotations.ts) is an object with a string "content" and "address", an object (or null)
 * "extra_metadata", and an address that names a value of the line, with its range inside it (address.ts). An
 * address that walks into JSON encoded in a string is left to the positioned reader.
 */
function annotationsAreClean(root: ObjectValue): boolean {
  if (!hasOwn(root, 'annotations')) return true;
  const annotations = root.annotations;
  if (annotations === null) return true;
  if (!Array.isArray(annotations)) return false;
  for (const annotation of annotations) {
    if (!isObject(annotation) || !hasOwn(annotation, 'address') || !hasOwn(annotation, 'content')) return false;
    const { address, content } = annotation;
    if (typeof address !== 'string' || typeof content !== 'string') return false;
    if (hasOwn(annotation, 'extra_metadata') && annotation.extra_metadata !== null && !isObject(annotation.extra_metadata)) return false;
    if (!addressResolves(root, address)) return false;
  }
  return true;
}

function addressResolves(root: ObjectValue, address: string): boolean {
  const parsed = parseAddress(address);
  if (parsed.error) return false;
  let node: Value = root;
  for (const segment of parsed.segments) {
    if (isObject(node)) {
      if (!hasOwn(node, segment.key)) return false;
      node = node[segment.key];
    } else if (Array.isArray(node)) {
      if (!/^\d+$/.test(segment.key)) return false;
      const index = Number(segment.key);
      if (index >= node.length) return false;
      node = node[index];
    } else return false;
  }
  const range = parsed.range;
  if (!range || range.kind === 'bbox') return true;
  if (typeof node !== 'string') return false;
  if (range.kind === 'chars') return range.start <= range.end && range.end <= codePointLength(node);
  return lineBounds(node, range.line) !== undefined;
}
