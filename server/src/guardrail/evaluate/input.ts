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
