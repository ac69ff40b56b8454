/**
 * The parsed model of one agent trace: events, the tool calls inside them, syntax errors and the indexes every
 * feature reads (call id → calls, call id → outputs, offset → event). Built once per document version.
 */
import type { Budget } from '../common/budget';
import { contains, itemAt } from '../common/spans';
import type { Span } from '../common/types';
import type { TextSource } from '../common/textSource';
import { decodeJsonString, sourceOffsetInLiteral } from '../json/strings';
import { parseJson, parseJsonInSlices, type Field, type JsonValue, type ParsedJson, type SyntaxProblem } from './parser';
import { runSteps, runStepsInSlices } from '../common/steps';
import type { CallStep, LinkedCall, LinkedOutput } from '../calls/model';
import { CallLinker } from '../calls/links';
import { relinkEdited } from './relink';

export type { Field, JsonValue, SyntaxProblem, ValueKind, Shape } from './parser';
export { contains };

/**
 * message: has a role other than "tool"; output: role "tool"; call: a top-level tool call (no role, a type);
 * tools: an MCP `{"tools": [...]}` list; metadata: a `{"metadata": …}`-only first element; invalid: anything else.
 */
export type EventKind = 'message' | 'output' | 'call' | 'tools' | 'metadata' | 'invalid';

/** An event of the trace: a step of its conversation, and (role "tool") an output answering a call. */
export class TraceEvent implements CallStep, LinkedOutput {
  /**
   * For outputs naming an id: the calls with that id still unanswered when it came, when there are two or more
   * (the analyzer links it to the latest, but the trace does not say which one it answers).
   */
  declare ambiguous?: ToolCall[];

  constructor(
    public index: number,
    public kind: EventKind,
    /** The event value (an object unless kind is invalid). */
    public value: JsonValue,
    /** The role string, when it is one. */
    public role: string | undefined,
    public fields: Field[],
    /** Calls inside `tool_calls`, or the event itself for a top-level call. */
    public calls: ToolCall[],
    /** For outputs: the tool_call_id string, when it is one. */
    public callId: string | undefined,
    /** For outputs: the call this output answers (by tool_call_id, or implicitly the latest call before it). */
    public answers: ToolCall | null,
    /** True when the output has no tool_call_id and answers the latest call before it. */
    public implicit: boolean,
  ) {}

  get span(): Span {
    return this.value;
  }

  get step(): TraceEvent {
    return this;
  }

  get heldOutputs(): readonly TraceEvent[] {
    return this.kind === 'output' ? [this] : noOutputs;
  }

  /** An output's tool_call_id value. */
  get idSpan(): Span | undefined {
    return this.kind === 'output' ? field(this.fields, 'tool_call_id')?.value ?? undefined : undefined;
  }

  /** Where an output's answer link starts: its tool_call_id value, or its role value when the link is implicit. */
  get linkSpan(): Span {
    const id = field(this.fields, 'tool_call_id')?.value;
    if (id) return valueSpan(id);
    const role = field(this.fields, 'role');
    return role?.value ? valueSpan(role.value) : { start: this.value.start, end: this.value.start + 1 };
  }
}

const noOutputs: readonly TraceEvent[] = [];

/** A tool call inside an event's `tool_calls`, or a top-level call event. */
export class ToolCall implements LinkedCall {
  constructor(
    /** Position among all calls of the trace. */
    public index: number,
    public event: TraceEvent,
    /** The call object. */
    public value: JsonValue,
    public topLevel: boolean,
    /** The id string, when it is one. */
    public id: string | undefined,
    public idField: Field | undefined,
    public functionField: Field | undefined,
    public nameField: Field | undefined,
    /** The function name, when it is a string. */
    public name: string | undefined,
    public argumentsField: Field | undefined,
    /** Outputs that answer this call, in trace order. */
    public outputs: TraceEvent[],
  ) {}

  get step(): TraceEvent {
    return this.event;
  }

  get span(): Span {
    return this.value;
  }

  get idSpan(): Span | undefined {
    return this.idField?.value ?? undefined;
  }

  get nameSpan(): Span | undefined {
    return this.nameField?.value ?? undefined;
  }
}

export type TraceForm = 'array' | 'object' | 'other' | 'empty';

export interface TraceModel {
  /** A string once read in full; an edited big document's chunks after an incremental read (see TextSource). */
  text: TextSource;
  start: number;
  end: number;
  /** Set by the language service's parse (the JSON Lines service leaves them unset). */
  uri?: string;
  version?: number;
  form: TraceForm;
  root: JsonValue | null;
  /** The array holding the events (the root array, or the `messages` value). */
  eventsValue: JsonValue | null;
  events: TraceEvent[];
  calls: ToolCall[];
  /** The events that are outputs, in order. */
  outputs: TraceEvent[];
  syntaxErrors: SyntaxProblem[];
  /** Start/end pairs of multi-line objects and arrays. */
  folds: number[];
  /** The deepest nesting of objects and arrays. */
  depth: number;
  callsById: Map<string, ToolCall[]>;
  outputsByCallId: Map<string, TraceEvent[]>;
}

export function field(fields: Field[] | undefined, name: string): Field | undefined {
  if (!fields) return undefined;
  // Indexed loops here and in the checks: the first read of a big trace runs mostly unoptimized code, where `for…of`
  // makes an iterator and a result object per step (megabytes of garbage over a trace's fields).
  for (let i = 0; i < fields.length; i++) if (fields[i].name === name) return fields[i];
  return undefined;
}

/** `budget`: the parse stops with BudgetExceeded when a request was cancelled or ran out of time. */
export function parseTrace(text: string, start = 0, end = text.length, budget?: Budget): TraceModel {
  return traceOf(text, start, end, parseJson(text, start, end, budget));
}

/** The same model, read in slices that each end with `pause()` (see parseJsonInSlices). */
export async function parseTraceInSlices(
  text: string, budget: Budget | undefined, pause: () => Promise<void>, sliceMs: number,
): Promise<TraceModel> {
  const model = modelShell(text, 0, text.length, await parseJsonInSlices(text, 0, text.length, budget, pause, sliceMs));
  await runStepsInSlices(eventSteps(model), pause, sliceMs);
  return model;
}

function traceOf(text: string, start: number, end: number, parsed: ParsedJson): TraceModel {
  const model = modelShell(text, start, end, parsed);
  runSteps(eventSteps(model));
  return model;
}

/** The model without its events, which eventSteps adds. */
function modelShell(text: TextSource, start: number, end: number, parsed: ParsedJson): TraceModel {
  const root = parsed.root;
  let form: TraceForm = 'other';
  let eventsValue: JsonValue | null = null;
  if (!root) form = 'empty';
  else if (root.kind === 'array') {
    form = 'array';
    eventsValue = root;
  } else if (root.kind === 'object') {
    form = 'object';
    const messages = field(root.fields, 'messages')?.value;
    if (messages?.kind === 'array') eventsValue = messages;
  }
  const model: TraceModel = {
    text, start, end, form, root, eventsValue,
    events: [], calls: [], outputs: [],
    syntaxErrors: parsed.errors,
    folds: parsed.folds,
    depth: parsed.depth,
    callsById: new Map(),
    outputsByCallId: new Map(),
  };
  return model;
}

/**
 * What an event is. A broken role still leaves the event what its other keys say (an output when it names a
 * tool_call_id, a message when it holds tool_calls), so one fault is reported once and its links still hold.
 */
function classify(text: TextSource, value: JsonValue, index: number): EventKind {
  if (value.kind !== 'object') return 'invalid';
  const fields = value.fields ?? [];
  const role = field(fields, 'role');
  const namesCall = field(fields, 'tool_call_id')?.value?.kind === 'string';
  if (role) {
    if (role.value?.kind === 'string') return stringValue(text, role.value) === 'tool' ? 'output' : 'message';
    return namesCall ? 'output' : 'message';
  }
  if (field(fields, 'type') || field(fields, 'function')) return 'call';
  if (field(fields, 'tools')) return 'tools';
  if (index === 0 && fields.length > 0 && fields.every((f) => f.name === 'metadata')) return 'metadata';
  if (namesCall) return 'output';
  if (field(fields, 'tool_calls')) return 'message';
  return 'invalid';
}

function makeCall(model: TraceModel, event: TraceEvent, value: JsonValue, topLevel: boolean): ToolCall {
  const fields = value.fields ?? [];
  const idField = field(fields, 'id');
  const functionField = field(fields, 'function');
  const functionFields = functionField?.value?.fields;
  const nameField = field(functionFields, 'name');
  const id = idField?.value?.kind === 'string' ? stringValue(model.text, idField.value) : undefined;
  const name = nameField?.value?.kind === 'string' ? stringValue(model.text, nameField.value) : undefined;
  return new ToolCall(model.calls.length, event, value, topLevel, id, idField, functionField, nameField, name, field(functionFields, 'arguments'), []);
}

const noCalls: never[] = [];

/** Events read (or checked, see validate.ts) between two points where work in slices may pause. */
export const EVENTS_PER_STEP = 500;

/** Adds the events, their calls and links to the model, yielding every few hundred events. */
function* eventSteps(model: TraceModel): Generator<void, void, void> {
  const items = model.eventsValue?.items;
  if (!items) return;
  const links = new Links(model);
  for (let index = 0; index < items.length; index++) {
    if (index % EVENTS_PER_STEP === EVENTS_PER_STEP - 1) yield;
    links.add(describeEvent(model, items[index], index));
  }
}

/**
 * The model of a tree patched by an incremental read (see incremental.ts), where only the event at `edited` (-1:
 * none) is new: the other events and their calls are those of `previous` (same values, moved in place), with their
 * links kept when the edited event's links cannot have changed, else linked again where they can (relink.ts). The
 * previous model's events, calls and indexes become this model's: the previous model must not be used afterwards.
 */
export function relinkedTrace(previous: TraceModel, text: TextSource, parsed: ParsedJson, edited: number): TraceModel {
  const model = modelShell(text, 0, text.length, parsed);
  const items = model.eventsValue?.items;
  if (!items) return model;
  const events = previous.events;
  const read = edited < 0 ? undefined : describeEvent(model, items[edited], edited);
  model.events = events;
  model.calls = previous.calls;
  model.outputs = previous.outputs;
  model.callsById = previous.callsById;
  model.outputsByCallId = previous.outputsByCallId;
  // Nothing a link depends on changed: every link is the previous one, and the edited event takes the new reading.
  if (!read || sameLinks(events[edited], read)) {
    if (read) takeOver(events[edited], read);
  } else {
    relinkEdited(model, events[edited], read, read.kind === 'output' && read.callId === undefined && answersImplicitly(read));
  }
  return model;
}

/**
 * Whether `event` (linked) and `edited` (its new reading, not linked) agree in everything links depend on: the kind,
 * the tool_call_id, whether it answers implicitly, and its calls' ids. An event that is no output and makes no call,
 * before and after, takes no part in any link whatever its kind (a user message edited into an event of no known
 * role): linking it again over all events took 50 ms in a trace of 10,000 events.
 */
function sameLinks(event: TraceEvent, edited: TraceEvent): boolean {
  if (takesNoPartInLinks(event) && takesNoPartInLinks(edited)) return true;
  if (event.kind !== edited.kind || event.callId !== edited.callId || event.calls.length !== edited.calls.length) return false;
  if (event.kind === 'output' && event.callId === undefined && answersImplicitly(event) !== answersImplicitly(edited)) return false;
  for (let i = 0; i < event.calls.length; i++) {
    if (event.calls[i].id !== edited.calls[i].id || event.calls[i].topLevel !== edited.calls[i].topLevel) return false;
  }
  return true;
}

function takesNoPartInLinks(event: TraceEvent): boolean {
  return event.kind !== 'output' && event.calls.length === 0;
}

/** `event` takes over its new reading and keeps its links (the other events point at it and at its calls). */
function takeOver(event: TraceEvent, edited: TraceEvent): void {
  event.kind = edited.kind;
  event.value = edited.value;
  event.fields = edited.fields;
  event.role = edited.role;
  for (let i = 0; i < event.calls.length; i++) {
    const call = event.calls[i];
    const read = edited.calls[i];
    call.value = read.value;
    call.idField = read.idField;
    call.functionField = read.functionField;
    call.nameField = read.nameField;
    call.name = read.name;
    call.argumentsField = read.argumentsField;
  }
}

/** An output without a string tool_call_id answers the latest call before it when it names none (or null). */
function answersImplicitly(event: TraceEvent): boolean {
  const idField = field(event.fields, 'tool_call_id');
  return !idField || idField.value?.kind === 'null';
}

/** An event, its kind and its calls, without the links to other events (Links adds them). */
function describeEvent(model: TraceModel, value: JsonValue, index: number): TraceEvent {
  const kind = classify(model.text, value, index);
  const fields = value.fields ?? [];
  const event = new TraceEvent(index, kind, value, undefined, fields, noCalls, undefined, null, false);
  const role = field(fields, 'role')?.value;
  if (role?.kind === 'string') event.role = stringValue(model.text, role);
  if (kind === 'output') {
    const idValue = field(fields, 'tool_call_id')?.value;
    if (idValue?.kind === 'string') event.callId = stringValue(model.text, idValue);
  }
  // An event's calls are an array of exactly their number; events without calls share one empty array.
  if (kind === 'call') event.calls = [makeCall(model, event, value, true)];
  else if (kind === 'message' || kind === 'output') {
    const list = field(fields, 'tool_calls')?.value;
    // A single call object where the list should be is still that call (the list error is reported once).
    const items = list?.kind === 'object' ? [list] : list?.items ?? noCalls;
    const calls = everyIsObject(items) ? items : items.filter((item) => item.kind === 'object');
    event.calls = calls.length === 0 ? noCalls : calls.map((item) => makeCall(model, event, item, false));
  }
  return event;
}

/** Whether every item is an object (a list of calls nearly always is: then it needs no filtered copy). */
function everyIsObject(items: readonly JsonValue[]): boolean {
  for (let i = 0; i < items.length; i++) if (items[i].kind !== 'object') return false;
  return true;
}

/** Adds events in trace order, linking each output to its call and indexing calls and outputs by id. */
class Links {
  private readonly linker: CallLinker<ToolCall, TraceEvent>;

  constructor(private readonly model: TraceModel) {
    this.linker = new CallLinker(model);
  }

  add(event: TraceEvent): void {
    this.model.events.push(event);
    if (event.kind === 'output') this.linker.output(event, event.callId === undefined && answersImplicitly(event));
    const calls = event.calls;
    for (let i = 0; i < calls.length; i++) this.linker.call(calls[i]);
  }
}

/** The decoded value of a string node (kept short strings are returned as is). */
export function stringValue(text: TextSource, value: JsonValue): string {
  if (value.str !== undefined) return value.str;
  return decodeString(text, value, Infinity);
}

/**
 * Decodes at most maxChars characters of a string node without copying the rest of a large string.
 * Tolerates broken escapes (they are kept as written).
 */
export function decodeString(text: TextSource, value: JsonValue, maxChars: number): string {
  if (value.str !== undefined) return value.str.length > maxChars ? value.str.slice(0, maxChars) : value.str;
  const from = value.start + 1;
  let to = value.end;
  if (to > from && text.charCodeAt(to - 1) === 0x22 && to - 1 > value.start) to--;
  if (!value.escaped) return text.substring(from, Math.min(to, from + maxChars));
  if (to - from <= maxChars && to < value.end) {
    // A whole closed string: V8's JSON parser decodes it fastest (it throws on a broken escape, read below).
    try {
      return JSON.parse(text.slice(value.start, value.end)) as string;
    } catch {
      // kept as written by the tolerant decoder
    }
  }
  return decodeJsonString(text, from, to, maxChars);
}

/**
 * Maps an offset in the decoded value of a string node back to the source offset (accounting for escapes).
 */
export function sourceOffsetInString(text: TextSource, value: JsonValue, decodedOffset: number): number {
  return sourceOffsetInLiteral(text, value.start, value.end, decodedOffset);
}

/** Binary search over the sorted event spans. */
export function eventAt(model: TraceModel, offset: number): TraceEvent | undefined {
  return itemAt(model.events, offset, (event) => event.value);
}

/** The event at or before an offset (for completion between events). */
export function eventBefore(model: TraceModel, offset: number): TraceEvent | undefined {
  const events = model.events;
  let lo = 0;
  let hi = events.length - 1;
  let found: TraceEvent | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (events[mid].value.start <= offset) {
      found = events[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}


export function keySpan(f: Field): Span {
  return { start: f.keyStart, end: f.keyEnd };
}

export function valueSpan(v: JsonValue): Span {
  return { start: v.start, end: v.end };
}

/** The call whose object contains the offset, within an event. */
export function callAt(event: TraceEvent, offset: number): ToolCall | undefined {
  for (const call of event.calls) if (contains(call.value, offset)) return call;
  return undefined;
}
