/**
 * The steps of a trace as the diff compares them: one per event (numbered from 0, as addresses count events), read
 * from plain JSON values: Invariant events (a trace file, a dataset line, and every other format through its
 * conversion to events) or agentguard entries (one logged call and its result each). Each step keeps the value it
 * is compared by (ids and ignored keys left out, tool-call arguments given as JSON strings parsed), the calls it
 * makes, the call its output answers (the analyzer's rule: the latest earlier call with that id, or without an id
 * the latest call) and whether that output reports a failure.
 */
import { isFailedStatus } from '../jsonl/agentguard/schema';
import type { Steps } from '../common/steps';
import { IGNORED, parsedArguments, type Fingerprint, type Hasher, type IgnoreRule } from './values';

export type StepKind = 'user' | 'system' | 'assistant' | 'message' | 'call' | 'output' | 'tools' | 'metadata' | 'entry' | 'invalid';

/** What a list of values holds. */
export type StepFormat = 'events' | 'agentguard';

export interface StepCall {
  /** The step making the call. */
  step: Step;
  /** Where the call is in its step's value: `tool_calls.<i>`, or '' for a call that is the step itself. */
  path: string;
  /** Position among the step's calls. */
  position: number;
  id?: string;
  name?: string;
  /** The call's value as compared (see Step.value), made when first asked for. */
  readonly value: unknown;
  /** Of `value`: equal calls have equal fingerprints. */
  fingerprint: Fingerprint;
}

export interface Step {
  index: number;
  kind: StepKind;
  role?: string;
  /** The value as read. */
  raw: unknown;
  /**
   * The value compared, made when first asked for (for changed steps only): ids (unless compared), the output's
   * link and ignored keys left out; arguments written as JSON strings parsed.
   */
  readonly value: unknown;
  /** Of the value, its calls left out (they have their own): with theirs, what makes two steps equal. */
  fingerprint: Fingerprint;
  calls: StepCall[];
  /** For an output: the id it names, and the call it answers. */
  callId?: string;
  answers?: StepCall;
  /** The output (or logged result) reports a failure of its tool. */
  failed: boolean;
  /** Only calls, no text of its own: steps of this kind that follow one another were made in parallel. */
  callsOnly: boolean;
}

export interface ReadOptions {
  ignore: IgnoreRule;
  /** Fingerprints the steps and calls (one hasher for both sides: equal strings get equal numbers). */
  hasher: Hasher;
  /** Call ids are compared as any other field (regenerated ids become changes). */
  compareIds: boolean;
}

/** Steps read between two points where reading may pause. */
const stepsPerPause = 500;

export function* readSteps(values: readonly unknown[], format: StepFormat, options: ReadOptions): Steps<Step[]> {
  const steps: Step[] = [];
  const links = new Links();
  for (let index = 0; index < values.length; index++) {
    if (index % stepsPerPause === stepsPerPause - 1) yield;
    const step = format === 'agentguard' ? entryStep(values[index], index, options) : eventStep(values[index], index, options);
    links.add(step);
    steps.push(step);
  }
  return steps;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function has(value: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** What an event is, by the rules the trace service reads a trace with (trace/model.ts). */
function eventKind(value: unknown, index: number): { kind: StepKind; role?: string } {
  if (!isObject(value)) return { kind: 'invalid' };
  const role = value.role;
  const namesCall = typeof value.tool_call_id === 'string';
  if (has(value, 'role')) {
    if (typeof role === 'string') return role === 'tool' ? { kind: 'output', role } : { kind: messageKind(role), role };
    return { kind: namesCall ? 'output' : 'message' };
  }
  if (has(value, 'type') || has(value, 'function')) return { kind: 'call' };
  if (has(value, 'tools')) return { kind: 'tools' };
  const keys = Object.keys(value);
  if (index === 0 && keys.length > 0 && keys.every((key) => key === 'metadata')) return { kind: 'metadata' };
  if (namesCall) return { kind: 'output' };
  if (has(value, 'tool_calls')) return { kind: 'message' };
  return { kind: 'invalid' };
}

function messageKind(role: string): StepKind {
  if (role === 'user') return 'user';
  if (role === 'system' || role === 'developer') return 'system';
  if (role === 'assistant') return 'assistant';
  return 'message';
}

const unset: unique symbol = Symbol('unset');

/** A step whose compared value is made from its raw value on first use. */
class ReadStep implements Step {
  role?: string;
  fingerprint!: Fingerprint;
  calls: StepCall[] = [];
  callId?: string;
  answers?: StepCall;
  failed = false;
  callsOnly = false;
  private made: unknown = unset;

  constructor(readonly index: number, public kind: StepKind, readonly raw: unknown, private readonly make: (step: ReadStep) => unknown) {}

  get value(): unknown {
    if (this.made === unset) this.made = this.make(this);
    return this.made;
  }
}

class ReadCall implements StepCall {
  id?: string;
  name?: string;
  fingerprint!: Fingerprint;
  private made: unknown = unset;

  constructor(
    readonly step: Step, readonly path: string, readonly position: number, readonly raw: Record<string, unknown>, private readonly options: ReadOptions,
    compared: unknown = unset,
  ) {
    this.made = compared;
    const fn = raw.function;
    if (isObject(fn) && typeof fn.name === 'string') this.name = fn.name;
    if (typeof raw.id === 'string') this.id = raw.id;
  }

  get value(): unknown {
    if (this.made === unset) this.made = comparedCall(this.raw, this.path, this.options);
    return this.made;
  }
}

function eventStep(raw: unknown, index: number, options: ReadOptions): Step {
  const { kind, role } = eventKind(raw, index);
  const step = new ReadStep(index, kind, raw, (self) => comparedEvent(self, options));
  step.role = role;
  const { hasher, ignore } = options;
  if (!isObject(raw)) {
    step.fingerprint = hasher.fingerprint(step.value);
    return step;
  }
  if (kind === 'call') {
    const call = new ReadCall(step, '', 0, raw, options);
    call.fingerprint = ignore.empty ? hasher.fingerprintCall(raw, options.compareIds) : hasher.fingerprint(call.value);
    step.calls = [call];
    step.fingerprint = call.fingerprint;
    step.callsOnly = true;
    return step;
  }
  const list = raw.tool_calls;
  if (list !== undefined && !ignore.ignores(['tool_calls'])) {
    // A single call object where the list should be is still that call, as the trace service reads it.
    const items = Array.isArray(list) ? list : isObject(list) ? [list] : [];
    items.forEach((item, position) => {
      if (!isObject(item)) return;
      const call = new ReadCall(step, `tool_calls.${position}`, step.calls.length, item, options);
      call.fingerprint = ignore.empty ? hasher.fingerprintCall(item, options.compareIds) : hasher.fingerprint(call.value);
      step.calls.push(call);
    });
  }
  const skipsLink = kind === 'output' && !options.compareIds;
  if (ignore.empty && step.calls.length === (Array.isArray(list) ? list.length : isObject(list) ? 1 : 0)) {
    // Every item of the list is a call with a fingerprint of its own: the rest of the event is hashed as it is.
    step.fingerprint = hasher.fingerprintWithout(raw, (key) => key === 'tool_calls' || (skipsLink && key === 'tool_call_id'));
  } else {
    const { tool_calls: calls, ...rest } = step.value as Record<string, unknown>;
    const loose = Array.isArray(calls) ? calls.filter((_, i) => !step.calls.some((call) => call.path === `tool_calls.${i}`)) : calls;
    step.fingerprint = hasher.fingerprint(loose === undefined || (Array.isArray(loose) && loose.length === 0) ? rest : { ...rest, tool_calls: loose });
  }
  if (kind === 'output') {
    if (typeof raw.tool_call_id === 'string') step.callId = raw.tool_call_id;
    step.failed = reportsFailure(raw);
  }
  step.callsOnly = step.calls.length > 0 && (kind === 'assistant' || kind === 'message') && isEmptyContent(raw.content);
  return step;
}

/** The compared value of an event: its output's link (unless ids are compared) and ignored keys left out, calls as compared. */
function comparedEvent(step: ReadStep, options: ReadOptions): unknown {
  const raw = step.raw;
  if (!isObject(raw)) return options.ignore.apply(raw, []);
  if (step.kind === 'call') return step.calls[0].value;
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (step.kind === 'output' && key === 'tool_call_id' && !options.compareIds) continue;
    if (key === 'tool_calls') continue; // below, call by call
    const kept = options.ignore.apply(raw[key], [key]);
    if (kept !== IGNORED) value[key] = kept;
  }
  const list = raw.tool_calls;
  if (list !== undefined && !options.ignore.ignores(['tool_calls'])) {
    const items = Array.isArray(list) ? list : isObject(list) ? [list] : undefined;
    if (items) {
      value.tool_calls = items.map((item, position) => {
        const call = step.calls.find((c) => c.path === `tool_calls.${position}`);
        return call ? call.value : options.ignore.apply(item, ['tool_calls', String(position)]);
      });
    } else value.tool_calls = options.ignore.apply(list, ['tool_calls']);
  }
  return value;
}

function isEmptyContent(content: unknown): boolean {
  return content === undefined || content === null || content === '' || (Array.isArray(content) && content.length === 0);
}

/** `is_error` (Anthropic, Claude Code), `error` (MCP, Inspect) or an error status on an output. */
function reportsFailure(output: Record<string, unknown>): boolean {
  if (output.is_error === true) return true;
  const error = output.error;
  if (error !== undefined && error !== null && error !== false && error !== '') return true;
  return typeof output.status === 'string' && /^(error|failed|failure)$/i.test(output.status);
}

/** A call (a `tool_calls` item or a top-level call event) with its id left out and its arguments parsed. */
function comparedCall(raw: Record<string, unknown>, path: string, options: ReadOptions): unknown {
  const base = path === '' ? [] : path.split('.');
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (key === 'id' && !options.compareIds) continue;
    if (key === 'function' && isObject(raw.function)) {
      const fn: Record<string, unknown> = {};
      for (const fnKey of Object.keys(raw.function)) {
        const fnValue = fnKey === 'arguments' ? parsedArguments(raw.function.arguments) : raw.function[fnKey];
        const kept = options.ignore.apply(fnValue, [...base, 'function', fnKey]);
        if (kept !== IGNORED) fn[fnKey] = kept;
      }
      if (!options.ignore.ignores([...base, 'function'])) value.function = fn;
      continue;
    }
    const kept = options.ignore.apply(raw[key], [...base, key]);
    if (kept !== IGNORED) value[key] = kept;
  }
  return value;
}

/** The keys of an agentguard entry that differ on every run: left out unless asked for (ids) or always (times). */
const entryVolatile = new Set(['call.timestamp', 'result.timestamp', 'result.execution_time_ms']);
const entryIds = new Set(['call.call_id', 'result.call_id', 'call.session_id']);

/** A logged call and its result: one step making one call, failed when agentguard counts its status as a failure. */
function entryStep(raw: unknown, index: number, options: ReadOptions): Step {
  const value = comparedEntry(raw, options);
  const step = new ReadStep(index, isObject(raw) ? 'entry' : 'invalid', raw, () => value);
  step.fingerprint = options.hasher.fingerprint(value);
  if (!isObject(raw)) return step;
  const call = isObject(raw.call) ? raw.call : {};
  const result = isObject(raw.result) ? raw.result : undefined;
  const comparedCallPart = (value as Record<string, unknown>).call;
  const entryCall = new ReadCall(step, 'call', 0, call, options, isObject(comparedCallPart) ? comparedCallPart : {});
  entryCall.name = typeof call.tool_name === 'string' ? call.tool_name : typeof result?.tool_name === 'string' ? result.tool_name : undefined;
  entryCall.id = typeof call.call_id === 'string' ? call.call_id : undefined;
  entryCall.fingerprint = options.hasher.fingerprint(entryCall.value);
  step.calls = [entryCall];
  step.failed = isFailedStatus(typeof result?.status === 'string' ? result.status : undefined);
  return step;
}

function comparedEntry(raw: unknown, options: ReadOptions): unknown {
  if (!isObject(raw)) return options.ignore.apply(raw, []);
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    const part = raw[key];
    if ((key === 'call' || key === 'result') && isObject(part)) {
      const kept: Record<string, unknown> = {};
      for (const inner of Object.keys(part)) {
        const path = `${key}.${inner}`;
        if (entryVolatile.has(path) || (entryIds.has(path) && !options.compareIds)) continue;
        const innerValue = options.ignore.apply(part[inner], [key, inner]);
        if (innerValue !== IGNORED) kept[inner] = innerValue;
      }
      if (!options.ignore.ignores([key])) value[key] = kept;
      continue;
    }
    const kept = options.ignore.apply(part, [key]);
    if (kept !== IGNORED) value[key] = kept;
  }
  return value;
}

/** Links each output to the call it answers, as the analyzer does: by id among earlier calls, else the latest call. */
class Links {
  private latest: StepCall | undefined;
  private readonly byId = new Map<string, StepCall>();

  add(step: Step): void {
    if (step.kind === 'output') {
      const named = isObject(step.raw) ? step.raw.tool_call_id : undefined;
      if (step.callId !== undefined) step.answers = this.byId.get(step.callId);
      else if (named === undefined || named === null) step.answers = this.latest;
    }
    for (const call of step.calls) {
      if (call.id !== undefined) this.byId.set(call.id, call);
      this.latest = call;
    }
  }
}
