import { PyDict, PyError, PyObject, TStr, isStr, pyEquals, str, type Value } from './values';

/**
 * The objects a trace is read into, as the official analyzer's (`runtime/input.py`) are: Message, ToolCall (with
 * its Function), ToolOutput, Tool and ToolParameter events, content chunks, and the conversions between them and
 * JSON. Each reads only the attributes the analyzer allows.
 */

export class InvariantAttributeError extends PyError {
  constructor(detail: string) {
    super('InvariantAttributeError', `Invariant Attribute Error: ${detail}`);
  }
}

/**
 * Lists read from JSON or made by reading the trace: any other list (a literal, a comprehension, a builtin's result)
 * is nowhere in the trace, so a range on it is not looked for there.
 */
export const readLists = new WeakSet<object>();

export function readList<T extends Value[]>(list: T): T {
  readLists.add(list);
  return list;
}

/** Converts parsed JSON to run-time values: each string becomes its own TStr (identity for ranges). */
export function fromJson(v: unknown, owner = -1): Value {
  if (typeof v === 'string') {
    const t = new TStr(v);
    t.owner = owner;
    return t;
  }
  if (Array.isArray(v)) return readList(v.map((x) => fromJson(x, owner)));
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
    if (x instanceof PyDict) {
      x.derived = true;
      for (const [k, y] of x.map) x.map.set(k, plain(y));
    }
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
