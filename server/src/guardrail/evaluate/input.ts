import { PyDict, PyError, PyObject, TStr, isStr, pyEquals, str, typeName, type Value } from './values';

/**
 * The trace as the official analyzer reads it (`runtime/input.py`): events parsed into Message, ToolCall,
 * ToolOutput and Tool objects, tool-call arguments given as JSON strings parsed, `metadata.server` copied to
 * `server`, every event (and every call inside a message) stamped with `trace_idx`, outputs linked to their calls,
 * and the linearised order (a message, then its own calls) that `->` and `~>` follow.
 */

export class InvariantAttributeError extends PyError {
  constructor(detail: string) {
    super('InvariantAttributeError', `Invariant Attribute Error: ${detail}`);
  }
}

/** Converts parsed JSON to run-time values: each string becomes its own TStr (identity for ranges). */
export function fromJson(v: unknown, owner = -1): Value {
  if (typeof v === 'string') {
    const t = new TStr(v);
    t.owner = owner;
    return t;
  }
  if (Array.isArray(v)) return v.map((x) => fromJson(x, owner));
  if (v !== null && typeof v === 'object') {
    const d = new PyDict();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) d.map.set(k, fromJson(x, owner));
    return d;
  }
  return v as Value;
}

/** A policy parameter given as plain JSON: its strings are not trace data, so they have no trace identity. */
export function fromParameter(v: unknown): Value {
  const value = fromJson(v);
  const plain = (x: Value): Value => {
    if (x instanceof TStr) return x.s;
    if (Array.isArray(x)) return x.map(plain);
    if (x instanceof PyDict) for (const [k, y] of x.map) x.map.set(k, plain(y));
    return x;
  };
  return plain(value);
}

/** Back to plain JSON (Pydantic's model_dump for events). */
export function toJson(v: Value): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  if (v instanceof TStr) return v.s;
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof PyDict) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.map) o[k] = toJson(x);
    return o;
  }
  if (v instanceof PyObject && 'dump' in v) return (v as unknown as { dump(): unknown }).dump();
  return String(v);
}

export abstract class EventObject extends PyObject {
  metadata = new PyDict();
  server: Value = null;
  /** Position in the linearised trace (messages followed by their own calls). */
  position = -1;
  /** Fields in Pydantic order, for range location and dumps. */
  abstract fields(): [string, Value][];
  dump(): unknown {
    const o: Record<string, unknown> = {};
    for (const [k, v] of this.fields()) o[k] = toJson(v);
    return o;
  }
  get traceIdx(): number {
    const idx = this.metadata.map.get('trace_idx');
    return typeof idx === 'number' ? idx : -1;
  }
  protected allowed(name: string, names: string[], shown: string): Value {
    if (names.includes(name)) return this.fields().find(([k]) => k === name)?.[1] ?? null;
    throw new InvariantAttributeError(`Attribute ${name} not found in ${this.attributeOwner}. Available attributes are: ${shown}`);
  }
  protected get attributeOwner(): string {
    return this.typeName;
  }
  equals(other: Value): boolean {
    if (!(other instanceof EventObject) || other.typeName !== this.typeName) return false;
    const a = this.fields();
    const b = other.fields();
    return a.every(([k, v], i) => b[i][0] === k && pyEquals(v, b[i][1]));
  }
  repr(): string {
    return `<${this.typeName} ${this.fields().map(([k, v]) => `${k}=${reprShort(v)}`).join(' ')}>`;
  }
}

function reprShort(v: Value): string {
  if (isStr(v)) return `'${str(v)}'`;
  if (v === null) return 'None';
  if (v instanceof PyObject && 'repr' in v) return (v as unknown as { repr(): string }).repr();
  return JSON.stringify(toJson(v));
}

export class FunctionObject extends PyObject {
  readonly typeName = 'Function';
  constructor(readonly name: Value, readonly args: PyDict) {
    super();
  }
  attribute(name: string): Value {
    if (name === 'name') return this.name;
    if (name === 'arguments') return this.args;
    throw new InvariantAttributeError(`Attribute ${name} not found in Function. Available attributes are: name, arguments`);
  }
  fields(): [string, Value][] {
    return [['name', this.name], ['arguments', this.args]];
  }
  dump(): unknown {
    return { name: toJson(this.name), arguments: toJson(this.args) };
  }
  equals(other: Value): boolean {
    return other instanceof FunctionObject && pyEquals(this.name, other.name) && pyEquals(this.args, other.args);
  }
}

export class ToolCallEvent extends EventObject {
  readonly typeName = 'ToolCall';
  constructor(readonly id: Value, readonly type: Value, readonly fn: FunctionObject) {
    super();
  }
  attribute(name: string): Value {
    return this.allowed(name, ['function', 'type', 'id', 'metadata'], 'function, type');
  }
  fields(): [string, Value][] {
    return [['metadata', this.metadata], ['server', this.server], ['id', this.id], ['type', this.type], ['function', this.fn]];
  }
}

export class TextChunk extends EventObject {
  readonly typeName = 'TextChunk';
  constructor(readonly type: Value, readonly text: Value) {
    super();
  }
  attribute(name: string): Value {
    return this.allowed(name, ['type', 'text'], 'type, text');
  }
  fields(): [string, Value][] {
    return [['metadata', this.metadata], ['server', this.server], ['type', this.type], ['text', this.text]];
  }
}

export class ImageChunk extends EventObject {
  readonly typeName = 'Image';
  constructor(readonly type: Value, readonly imageUrl: PyDict) {
    super();
  }
  protected override get attributeOwner(): string {
    return 'ImageChunk';
  }
  attribute(name: string): Value {
    return this.allowed(name, ['type', 'image_url'], 'type, image_url');
  }
  fields(): [string, Value][] {
    return [['metadata', this.metadata], ['server', this.server], ['type', this.type], ['image_url', this.imageUrl]];
  }
  get url(): Value {
    return this.imageUrl.map.get('url') ?? null;
  }
}

/** A content list of text and image chunks. */
export class Contents extends PyObject {
  readonly typeName = 'Contents';
  constructor(readonly chunks: (TextChunk | ImageChunk)[]) {
    super();
  }
  get length(): number {
    return this.chunks.length;
  }
  attribute(name: string): Value {
    if (name === 'text') return contentsMethod('text', () => this.texts());
    if (name === 'image') return contentsMethod('image', () => this.images());
    throw new InvariantAttributeError(`Attribute ${name} not found in Contents list. Use .text() to iterate over all contained text chunks.`);
  }
  texts(): Value[] {
    return this.chunks.filter((c): c is TextChunk => c instanceof TextChunk).map((c) => c.text);
  }
  images(): Value[] {
    return this.chunks.filter((c): c is ImageChunk => c instanceof ImageChunk).map((c) => c.url);
  }
  /** Python `item in contents`: a substring of some chunk's text or image URL. */
  contains(item: Value): boolean {
    const s = str(item);
    return this.chunks.some((c) => {
      const t = str(c instanceof TextChunk ? c.text : c.url);
      if (s === undefined || t === undefined) throw new PyError('TypeError', "'in <string>' requires string as left operand");
      return t.includes(s);
    });
  }
  dump(): unknown {
    return this.chunks.map((c) => c.dump());
  }
  equals(other: Value): boolean {
    return other instanceof Contents && other.chunks.length === this.chunks.length && this.chunks.every((c, i) => c.equals(other.chunks[i]));
  }
  repr(): string {
    return `<Contents(${this.chunks.map((c) => c.repr()).join(', ')})>`;
  }
}

/** A bound method of a trace object (set up lazily to avoid an import cycle with builtins). */
let makeMethod: (name: string, impl: () => Value) => Value = () => null;
export function setMethodFactory(f: (name: string, impl: () => Value) => Value): void {
  makeMethod = f;
}
function contentsMethod(name: string, impl: () => Value): Value {
  return makeMethod(name, impl);
}

export class MessageEvent extends EventObject {
  readonly typeName = 'Message';
  constructor(readonly role: Value, readonly content: Value, readonly toolCalls: ToolCallEvent[] | null) {
    super();
  }
  attribute(name: string): Value {
    return this.allowed(name, ['role', 'content', 'tool_calls', 'metadata'], 'role, content, tool_calls');
  }
  fields(): [string, Value][] {
    return [['metadata', this.metadata], ['server', this.server], ['role', this.role], ['content', this.content], ['tool_calls', this.toolCalls]];
  }
}

export class ToolOutputEvent extends EventObject {
  readonly typeName = 'ToolOutput';
  call: ToolCallEvent | null = null;
  constructor(readonly role: Value, readonly content: Value, readonly toolCallId: Value) {
    super();
  }
  attribute(name: string): Value {
    return this.allowed(name, ['role', 'content', 'tool_call_id', 'metadata'], 'role, content, tool_call_id');
  }
  fields(): [string, Value][] {
    return [['metadata', this.metadata], ['server', this.server], ['role', this.role], ['content', this.content], ['tool_call_id', this.toolCallId]];
  }
}

export class ToolParameterObject extends EventObject {
  readonly typeName = 'ToolParameter';
  constructor(readonly values: [string, Value][]) {
    super();
  }
  attribute(name: string): Value {
    const names = ['type', 'name', 'description', 'required', 'properties', 'additionalProperties', 'items', 'enum'];
    if (names.includes(name)) return this.values.find(([k]) => k === name)?.[1] ?? null;
    throw new InvariantAttributeError(`Attribute ${name} not found in ToolParameter. Available attributes are: ${names.join(', ')}`);
  }
  fields(): [string, Value][] {
    return this.values;
  }
}

export class ToolEvent extends EventObject {
  readonly typeName = 'Tool';
  constructor(readonly name: Value, readonly description: Value, readonly inputSchema: ToolParameterObject[]) {
    super();
  }
  attribute(name: string): Value {
    if (name === 'server') return this.server;
    return this.allowed(name, ['name', 'description', 'inputSchema'], 'name, description, inputSchema');
  }
  fields(): [string, Value][] {
    return [['metadata', this.metadata], ['server', this.server], ['name', this.name], ['description', this.description], ['inputSchema', this.inputSchema]];
  }
}

export type TraceEvent = MessageEvent | ToolCallEvent | ToolOutputEvent | ToolEvent;

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
  const steps = buildInputStepwise(trace);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** Events read between two pauses of buildInputStepwise. */
const EVENTS_PER_STEP = 256;

/** The same, pausing every few hundred events (a big trace's input takes about 100 ms to build). */
export function* buildInputStepwise(trace: unknown): Generator<void, TraceInput, void> {
  if (!Array.isArray(trace)) throw invalid('a trace is a list of events');
  const events: Value[] = [];
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
        else if (Array.isArray(rawCalls)) calls = rawCalls.map((c, j) => parseCall(c, `${where}.tool_calls.${j}`, events.length));
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
  const params: ToolParameterObject[] = [];
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
 * Every value of type `wanted` found in `data`, as the analyzer's `Selectable.select` walks it: the value itself
 * when its type matches, otherwise the fields it descends into (not into Function or ToolParameter).
 */
export function select(wanted: string, data: Value): Value[] {
  const out: Value[] = [];
  const walk = (v: Value): void => {
    if (typeName(v) === wanted) {
      out.push(v);
      return;
    }
    if (v instanceof MessageEvent) {
      walk(v.content);
      walk(v.role);
      walk(v.toolCalls);
    } else if (v instanceof ToolCallEvent) {
      walk(v.id);
      walk(v.type);
      walk(v.fn);
    } else if (v instanceof ToolOutputEvent) {
      walk(v.role);
      walk(v.content);
      walk(v.toolCallId);
    } else if (v instanceof ToolEvent) {
      walk(v.inputSchema);
    } else if (v instanceof Contents) {
      for (const c of v.chunks) walk(c);
    } else if (v instanceof ImageChunk) {
      walk(v.imageUrl);
    } else if (v instanceof TextChunk) {
      walk(v.text);
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x);
    } else if (v instanceof PyDict) {
      for (const x of v.map.values()) walk(x);
    } else if (v !== null && typeof v === 'object' && 'items' in v && Array.isArray((v as { items: unknown }).items)) {
      for (const x of (v as { items: Value[] }).items) walk(x);
    }
  };
  walk(data);
  return out;
}

