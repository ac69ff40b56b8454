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
import { IGNORED, valueHash, type IgnoreRule } from './values';

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
  /** The call's value as compared (see Step.value). */
  value: unknown;
  /** Hash of `value`: equal calls have equal keys. */
  key: number;
}

export interface Step {
  index: number;
  kind: StepKind;
  role?: string;
  /** The value as read. */
  raw: unknown;
  /** The value compared: ids (unless compared), the output's link and ignored keys left out; arguments parsed. */
  value: unknown;
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

function eventStep(raw: unknown, index: number, options: ReadOptions): Step {
  const { kind, role } = eventKind(raw, index);
  const step: Step = { index, kind, role, raw, value: raw, calls: [], failed: false, callsOnly: false };
  if (!isObject(raw)) {
    step.value = options.ignore.apply(raw, []);
    return step;
  }
  if (kind === 'call') {
    const call = readCall(step, raw, '', 0, options);
    step.value = call.value;
    step.calls = [call];
    step.callsOnly = true;
    return step;
  }
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (kind === 'output' && key === 'tool_call_id' && !options.compareIds) continue;
    if (key === 'tool_calls') continue; // read below, call by call
    const kept = options.ignore.apply(raw[key], [key]);
    if (kept !== IGNORED) value[key] = kept;
  }
  const list = raw.tool_calls;
  if (list !== undefined && !options.ignore.ignores(['tool_calls'])) {
    // A single call object where the list should be is still that call, as the trace service reads it.
    const items = Array.isArray(list) ? list : isObject(list) ? [list] : undefined;
    if (items) {
      const compared: unknown[] = [];
      items.forEach((item, position) => {
        if (!isObject(item)) {
          compared.push(options.ignore.apply(item, ['tool_calls', String(position)]));
          return;
        }
        const call = readCall(step, item, `tool_calls.${position}`, step.calls.length, options);
        step.calls.push(call);
        compared.push(call.value);
      });
      value.tool_calls = compared;
    } else value.tool_calls = options.ignore.apply(list, ['tool_calls']);
  }
  step.value = value;
  if (kind === 'output') {
    if (typeof raw.tool_call_id === 'string') step.callId = raw.tool_call_id;
    step.failed = reportsFailure(raw);
  }
  step.callsOnly = step.calls.length > 0 && (kind === 'assistant' || kind === 'message') && isEmptyContent(raw.content);
  return step;
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
function readCall(step: Step, raw: Record<string, unknown>, path: string, position: number, options: ReadOptions): StepCall {
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
  const fn = raw.function;
  const name = isObject(fn) && typeof fn.name === 'string' ? fn.name : undefined;
  const id = typeof raw.id === 'string' ? raw.id : undefined;
  return { step, path, position, id, name, value, key: valueHash(value) };
}

/** Arguments written as a JSON string are compared as what they encode: re-serialising them is no change. */
function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return JSON.parse(trimmed);
  } catch {
    return value;
  }
}

/** The keys of an agentguard entry that differ on every run: left out unless asked for (ids) or always (times). */
const entryVolatile = new Set(['call.timestamp', 'result.timestamp', 'result.execution_time_ms']);
const entryIds = new Set(['call.call_id', 'result.call_id', 'call.session_id']);

/** A logged call and its result: one step making one call, failed when agentguard counts its status as a failure. */
function entryStep(raw: unknown, index: number, options: ReadOptions): Step {
  const step: Step = { index, kind: 'entry', raw, value: raw, calls: [], failed: false, callsOnly: false };
  if (!isObject(raw)) {
    step.kind = 'invalid';
    step.value = options.ignore.apply(raw, []);
    return step;
  }
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
  step.value = value;
  const call = isObject(raw.call) ? raw.call : undefined;
  const result = isObject(raw.result) ? raw.result : undefined;
  const name = typeof call?.tool_name === 'string' ? call.tool_name : typeof result?.tool_name === 'string' ? result.tool_name : undefined;
  const callValue = isObject(value.call) ? value.call : {};
  step.calls = [{ step, path: 'call', position: 0, id: typeof call?.call_id === 'string' ? call.call_id : undefined, name, value: callValue, key: valueHash(callValue) }];
  step.failed = isFailedStatus(typeof result?.status === 'string' ? result.status : undefined);
  return step;
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
