import { PyDict, PyError, TStr, isStr, str, type Value } from './values';
import {
  Contents, EventObject, FunctionObject, ImageChunk, MessageEvent, TextChunk, ToolCallEvent, ToolEvent, ToolOutputEvent, ToolParameterObject,
  fromJson, readList,
} from './traceObjects';
import { runSteps } from '../../common/steps';

/**
 * The trace as the official analyzer reads it (`runtime/input.py`): events parsed into Message, ToolCall,
 * ToolOutput and Tool objects, tool-call arguments given as JSON strings parsed, `metadata.server` copied to
 * `server`, every event (and every call inside a message) stamped with `trace_idx`, outputs linked to their calls,
 * and the linearised order (a message, then its own calls) that `->` and `~>` follow.
 */

export interface TraceInput {
  events: Value[];
  /** Events and calls inside messages, in the order `->` follows. */
  linear: EventObject[];
  /** Every value of a type in the trace, by type name (a variable's domain), computed on first use. */
  selected: Map<string, Value[]>;
}

function invalid(detail: string): PyError {
  return new PyError('ValidationError', `the trace does not fit the analyzer's input schema: ${detail}`);
}

function get(d: PyDict, key: string): Value | undefined {
  return d.map.get(key);
}

function requireStr(v: Value | undefined, what: string): Value {
  if (!isStr(v)) throw invalid(`${what} must be a string`);
  return v;
}

function optionalStr(v: Value | undefined, what: string): Value {
  if (v === undefined || v === null) return null;
  return requireStr(v, what);
}

function parseCall(raw: Value, where: string, owner: number): ToolCallEvent {
  if (!(raw instanceof PyDict)) throw invalid(`${where} must be an object`);
  const fn = get(raw, 'function');
  if (!(fn instanceof PyDict)) throw invalid(`${where}.function must be an object`);
  let args = get(fn, 'arguments');
  if (isStr(args)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(str(args)!);
    } catch (e) {
      throw new PyError('JSONDecodeError', `${where}.function.arguments is not valid JSON: ${(e as Error).message}`);
    }
    args = fromJson(parsed, owner);
  }
  if (!(args instanceof PyDict)) throw invalid(`${where}.function.arguments must be an object`);
  const call = new ToolCallEvent(optionalStr(get(raw, 'id'), `${where}.id`), requireStr(get(raw, 'type'), `${where}.type`),
    new FunctionObject(requireStr(get(fn, 'name'), `${where}.function.name`), args));
  copyEventFields(call, raw);
  return call;
}

function copyEventFields(event: EventObject, raw: PyDict): void {
  const metadata = get(raw, 'metadata');
  if (metadata instanceof PyDict) event.metadata = new PyDict(metadata.map);
  else if (metadata !== undefined && metadata !== null) throw invalid('metadata must be an object');
  const server = get(raw, 'server');
  if (server !== undefined) event.server = optionalStr(server, 'server');
}

function parseContent(raw: Value | undefined, allowDict: boolean, where: string): Value {
  if (raw === undefined || raw === null) return null;
  if (isStr(raw)) return raw;
  if (raw instanceof PyDict && allowDict) return raw;
  if (Array.isArray(raw)) {
    return new Contents(raw.map((chunk, i) => {
      if (!(chunk instanceof PyDict)) throw invalid(`${where}.${i} must be a chunk object`);
      const type = get(chunk, 'type');
      const text = get(chunk, 'text');
      if (isStr(type) && isStr(text)) {
        const c = new TextChunk(type, text);
        copyEventFields(c, chunk);
        return c;
      }
      const url = get(chunk, 'image_url');
      if (isStr(type) && url instanceof PyDict && [...url.map.values()].every(isStr)) {
        const c = new ImageChunk(type, url);
        copyEventFields(c, chunk);
        return c;
      }
      throw invalid(`${where}.${i} is neither a text nor an image chunk`);
    }));
  }
  throw invalid(`${where} must be a string, a list of chunks${allowDict ? ', an object' : ''} or null`);
}

/** Builds the analyzer's input from a trace given as parsed JSON (a list of events). */
export function buildInput(trace: unknown): TraceInput {
  return runSteps(buildInputStepwise(trace));
}

/** Events read between two pauses of buildInputStepwise. */
const EVENTS_PER_STEP = 256;

/** The same, pausing every few hundred events (a big trace's input takes about 100 ms to build). */
export function* buildInputStepwise(trace: unknown): Generator<void, TraceInput, void> {
  if (!Array.isArray(trace)) throw invalid('a trace is a list of events');
  const events: Value[] = readList([]);
  const callsById = new Map<string, ToolCallEvent>();
  let lastCallId: Value = null;
  for (let i = 0; i < trace.length; i++) {
    if (i % EVENTS_PER_STEP === EVENTS_PER_STEP - 1) yield;
    const rawJson: unknown = trace[i];
    // Strings know their event (tools events expand into several events; their strings are located by a full walk).
    const raw = fromJson(rawJson, isToolsEvent(rawJson) ? -1 : events.length);
    if (!(raw instanceof PyDict)) {
      events.push(raw);
      continue;
    }
    const metadata = get(raw, 'metadata');
    if (metadata instanceof PyDict && metadata.map.has('server')) raw.map.set('server', metadata.map.get('server')!);
    const where = `event ${i}`;
    if (raw.map.has('role')) {
      const role = requireStr(get(raw, 'role'), `${where}.role`);
      if (str(role) !== 'tool') {
        const rawCalls = get(raw, 'tool_calls');
        let calls: ToolCallEvent[] | null = [];
        if (rawCalls === null) calls = null;
        else if (Array.isArray(rawCalls)) calls = readList(rawCalls.map((c, j) => parseCall(c, `${where}.tool_calls.${j}`, events.length)));
        else if (rawCalls !== undefined) throw invalid(`${where}.tool_calls must be a list`);
        const message = new MessageEvent(role, parseContent(get(raw, 'content'), false, `${where}.content`), calls);
        copyEventFields(message, raw);
        events.push(message);
        for (const call of calls ?? []) {
          lastCallId = call.id;
          const id = str(call.id);
          if (id !== undefined) callsById.set(id, call);
          else callsById.set('\u0000none', call);
        }
      } else {
        const id = raw.map.has('tool_call_id') ? get(raw, 'tool_call_id')! : lastCallId;
        const output = new ToolOutputEvent(role, parseContent(get(raw, 'content'), true, `${where}.content`), optionalStr(id, `${where}.tool_call_id`));
        copyEventFields(output, raw);
        const key = str(output.toolCallId) ?? '\u0000none';
        output.call = callsById.get(key) ?? null;
        events.push(output);
      }
    } else if (raw.map.has('type')) {
      const call = parseCall(raw, where, events.length);
      lastCallId = call.id;
      callsById.set(str(call.id) ?? '\u0000none', call);
      events.push(call);
    } else if (raw.map.has('tools')) {
      const tools = get(raw, 'tools');
      if (!Array.isArray(tools)) throw invalid(`${where}.tools must be a list`);
      for (const tool of tools) events.push(parseTool(tool, where));
    } else {
      throw new PyError('InvariantInputValidationError', `Input Validation Error: Input should be a list of one of (Message, ToolCall, ToolOutput, Tool). See the documentation for the schema requirements. (${where})`);
    }
  }
  const linear: EventObject[] = [];
  events.forEach((event, idx) => {
    if (!(event instanceof EventObject)) throw new PyError('AttributeError', `event ${idx} is not an object`);
    event.metadata.map.set('trace_idx', idx);
    event.position = linear.length;
    linear.push(event);
    if (event instanceof MessageEvent) {
      for (const call of event.toolCalls ?? []) {
        call.metadata.map.set('trace_idx', idx);
        call.position = linear.length;
        linear.push(call);
      }
    }
  });
  return { events, linear, selected: new Map() };
}

function isToolsEvent(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && !Array.isArray(raw) && !('role' in raw) && !('type' in raw) && 'tools' in raw;
}

function parseTool(raw: Value, where: string): ToolEvent {
  if (!(raw instanceof PyDict)) throw invalid(`${where}.tools entries must be objects`);
  const schema = get(raw, 'inputSchema');
  const params: ToolParameterObject[] = readList([]);
  if (schema instanceof PyDict) {
    const properties = get(schema, 'properties');
    const required = get(schema, 'required');
    const requiredNames = Array.isArray(required) ? required.map((r) => str(r)) : [];
    if (properties instanceof PyDict) {
      for (const [name, sub] of properties.map) {
        const d = sub instanceof PyDict ? sub : new PyDict();
        const type = get(d, 'type') ?? new TStr('string');
        params.push(new ToolParameterObject([
          ['type', type], ['name', new TStr(name)], ['description', get(d, 'description') ?? new TStr('no description available')],
          ['required', requiredNames.includes(name)], ['properties', null], ['additionalProperties', null], ['items', null], ['enum', get(d, 'enum') ?? null],
        ]));
      }
    }
  }
  const description = get(raw, 'description');
  const tool = new ToolEvent(requireStr(get(raw, 'name'), `${where}.tools.name`), description === undefined || description === null ? new TStr('no description available') : description, params);
  const metadata = get(raw, 'metadata');
  if (metadata instanceof PyDict) tool.server = get(metadata, 'server') ?? null;
  return tool;
}

/**
 * What buildInput would throw on this trace (the same error, with the same detail), or null when it reads it:
 * the schema checked on the parsed JSON without building the analyzer's objects, for a trace none of whose rules
 * need to run (see requiredText.ts). Follows buildInput's order, so that the first problem is the one it reports.
 */
export function inputProblem(trace: unknown): PyError | null {
  try {
    checkInput(trace);
    return null;
  } catch (e) {
    if (e instanceof PyError) return e;
    throw e;
  }
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: Json, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);
const field = (o: Json, key: string): unknown => (has(o, key) ? o[key] : undefined);

function checkStr(v: unknown, what: string): void {
  if (typeof v !== 'string') throw invalid(`${what} must be a string`);
}

function checkOptionalStr(v: unknown, what: string): void {
  if (v !== undefined && v !== null) checkStr(v, what);
}

function checkInput(trace: unknown): void {
  if (!Array.isArray(trace)) throw invalid('a trace is a list of events');
  let events = 0;
  let notObject = -1;
  for (let i = 0; i < trace.length; i++) {
    const raw: unknown = trace[i];
    if (!isObject(raw)) {
      if (notObject < 0) notObject = events;
      events++;
      continue;
    }
    const metadata = field(raw, 'metadata');
    const server = isObject(metadata) && has(metadata, 'server') ? metadata.server : field(raw, 'server');
    const where = `event ${i}`;
    if (has(raw, 'role')) {
      const role = raw.role;
      checkStr(role, `${where}.role`);
      if (role !== 'tool') {
        const calls = field(raw, 'tool_calls');
        if (Array.isArray(calls)) calls.forEach((c, j) => checkCall(c, `${where}.tool_calls.${j}`, undefined));
        else if (calls !== undefined && calls !== null) throw invalid(`${where}.tool_calls must be a list`);
        checkContent(field(raw, 'content'), false, `${where}.content`);
      } else {
        checkContent(field(raw, 'content'), true, `${where}.content`);
        if (has(raw, 'tool_call_id')) checkOptionalStr(raw.tool_call_id, `${where}.tool_call_id`);
      }
      checkEventFields(metadata, server);
    } else if (has(raw, 'type')) {
      checkCall(raw, where, server);
    } else if (has(raw, 'tools')) {
      const tools = raw.tools;
      if (!Array.isArray(tools)) throw invalid(`${where}.tools must be a list`);
      for (const tool of tools) {
        if (!isObject(tool)) throw invalid(`${where}.tools entries must be objects`);
        checkStr(field(tool, 'name'), `${where}.tools.name`);
      }
      events += tools.length;
      continue;
    } else {
      throw new PyError('InvariantInputValidationError', `Input Validation Error: Input should be a list of one of (Message, ToolCall, ToolOutput, Tool). See the documentation for the schema requirements. (${where})`);
    }
    events++;
  }
  if (notObject >= 0) throw new PyError('AttributeError', `event ${notObject} is not an object`);
}

/** A call (inside a message: its own `server`; an event: `server` as the event's metadata gives it). */
function checkCall(raw: unknown, where: string, server: unknown): void {
  if (!isObject(raw)) throw invalid(`${where} must be an object`);
  const fn = field(raw, 'function');
  if (!isObject(fn)) throw invalid(`${where}.function must be an object`);
  let args = field(fn, 'arguments');
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch (e) {
      throw new PyError('JSONDecodeError', `${where}.function.arguments is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (!isObject(args)) throw invalid(`${where}.function.arguments must be an object`);
  checkOptionalStr(field(raw, 'id'), `${where}.id`);
  checkStr(field(raw, 'type'), `${where}.type`);
  checkStr(field(fn, 'name'), `${where}.function.name`);
  checkEventFields(field(raw, 'metadata'), server === undefined ? field(raw, 'server') : server);
}

function checkEventFields(metadata: unknown, server: unknown): void {
  if (!isObject(metadata) && metadata !== undefined && metadata !== null) throw invalid('metadata must be an object');
  if (server !== undefined) checkOptionalStr(server, 'server');
}

function checkContent(raw: unknown, allowDict: boolean, where: string): void {
  if (raw === undefined || raw === null || typeof raw === 'string') return;
  if (isObject(raw) && allowDict) return;
  if (Array.isArray(raw)) {
    raw.forEach((chunk, i) => {
      if (!isObject(chunk)) throw invalid(`${where}.${i} must be a chunk object`);
      const type = field(chunk, 'type');
      const text = field(chunk, 'text');
      const url = field(chunk, 'image_url');
      const readable = typeof type === 'string' && (typeof text === 'string' || (isObject(url) && Object.values(url).every((v) => typeof v === 'string')));
      if (!readable) throw invalid(`${where}.${i} is neither a text nor an image chunk`);
      checkEventFields(field(chunk, 'metadata'), field(chunk, 'server'));
    });
    return;
  }
  throw invalid(`${where} must be a string, a list of chunks${allowDict ? ', an object' : ''} or null`);
}
