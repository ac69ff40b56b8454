/**
 * A Codex rollout as the model of linked calls: every record (line) is a step; the `response_item` records hold
 * the conversation (its calls are `function_call`, `custom_tool_call`, `local_shell_call`, and the tools the API runs
 * itself; its outputs name their call by `call_id`, never by the item's `id`). The `event_msg` records are the UI's
 * view of the same turn: a `user_message` or `agent_message` repeats a message, an `exec_command_end` reports a
 * call, a `token_count` counts a model request's tokens. They are linked to what they repeat and never counted as
 * the conversation's own. Built from the lines' facts on first use per version: an appended line costs its own
 * reading and one pass over small records.
 */
import type { TokenUsage } from '../../calls/model';
import { CallLinker } from '../../calls/links';
import type { Line, LinesModel } from '../lines';
import { codexFormat } from './format';
import { rolloutRecordOf } from './lines';
import type { RolloutFacts } from './records';
import { absolute, type RecordRole, type RolloutCall, type RolloutModel, type RolloutOutput, type RolloutStep } from './types';

const models = new WeakMap<LinesModel, RolloutModel>();

export function rolloutOf(lines: LinesModel): RolloutModel {
  let model = models.get(lines);
  if (!model) {
    model = readRollout(lines);
    models.set(lines, model);
  }
  return model;
}

/** UI events that repeat a message or a reasoning of the conversation. */
const echoEvents = new Set(['user_message', 'agent_message', 'agent_reasoning', 'agent_reasoning_raw_content']);

/**
 * The user-role messages Codex writes itself before a prompt (the environment, AGENTS.md and other instructions,
 * a note that a turn was aborted, a shell command the user ran): context for the model, not a prompt.
 */
const contextOpenings = [
  '<environment_context>', '<user_instructions>', '<INSTRUCTIONS>', '# AGENTS.md instructions', '<turn_aborted>', '<user_shell_command>',
  '<subagent_notification>', '<skill>', '<permissions instructions>', '<collaboration_mode>',
];

export function isContextMessage(text: string | undefined): boolean {
  return text !== undefined && contextOpenings.some((opening) => text.startsWith(opening));
}

function roleOf(facts: RolloutFacts): RecordRole {
  switch (facts.type) {
    case 'session_meta': return 'meta';
    case 'turn_context': return 'turn';
    case 'compacted': return 'compaction';
    case 'event_msg': {
      const type = facts.payloadType;
      if (type !== undefined && echoEvents.has(type)) return 'echo';
      if (type === 'token_count') return 'usage';
      if (facts.event?.callId !== undefined) return 'call-echo';
      return 'marker';
    }
    case 'response_item': {
      const item = facts.item;
      if (!item) return 'other';
      if (item.call) return 'call';
      if (item.output) return 'output';
      if (item.type === 'reasoning') return 'reasoning';
      if (item.type === 'compaction' || item.type === 'compaction_summary') return 'compaction';
      if (item.type === 'message') return item.role === 'user' ? (isContextMessage(item.text) ? 'context' : 'prompt') : 'message';
      return 'item';
    }
    default:
      return 'other';
  }
}

/** Records the model writes (its answer to one request): what a token count's tokens are counted on. */
function writtenByModel(step: RolloutStep): boolean {
  return step.role === 'call' || step.role === 'reasoning' || (step.role === 'message' && step.facts.item?.role === 'assistant');
}

function readRollout(lines: LinesModel): RolloutModel {
  const model = {
    text: lines.text,
    lines,
    steps: [] as RolloutStep[],
    calls: [] as RolloutCall[],
    outputs: [] as RolloutOutput[],
    callsById: new Map<string, RolloutCall[]>(),
    outputsByCallId: new Map<string, RolloutOutput[]>(),
    meta: undefined as RolloutStep | undefined,
    totalUsage: undefined as TokenUsage | undefined,
    echoes: 0,
    format: codexFormat,
  };
  const linker = new CallLinker<RolloutCall, RolloutOutput>(model);
  for (const line of lines.contentLines) {
    const facts = rolloutRecordOf(line);
    if (!facts) continue;
    const step: RolloutStep = { index: line.number, span: { start: line.start, end: line.end }, line, facts, role: roleOf(facts), calls: [], heldOutputs: [] };
    if (facts.time !== undefined) step.time = facts.time;
    model.steps.push(step);
    if (step.role === 'meta') model.meta ??= step;
    const item = facts.item;
    if (item?.call) addCall(model, linker, step, line);
    else if (item?.output) addOutput(linker, step, line);
  }
  linkEchoes(model);
  countTokens(model);
  return model;
}

function addCall(model: { calls: RolloutCall[] }, linker: CallLinker<RolloutCall, RolloutOutput>, step: RolloutStep, line: Line): void {
  const item = step.facts.item!;
  const facts = item.call!;
  const call: RolloutCall = {
    index: 0, step, item, facts, span: absolute(line, item.span)!, argsSpan: absolute(line, facts.argsSpan),
    id: facts.callId, idSpan: absolute(line, facts.callIdSpan), name: facts.name, nameSpan: absolute(line, facts.nameSpan), outputs: [], reports: [],
  };
  step.calls.push(call);
  linker.call(call);
}

function addOutput(linker: CallLinker<RolloutCall, RolloutOutput>, step: RolloutStep, line: Line): void {
  const item = step.facts.item!;
  const facts = item.output!;
  const span = absolute(line, item.span)!;
  const idSpan = absolute(line, facts.callIdSpan);
  const output: RolloutOutput = {
    index: step.index, step, facts, span, outputSpan: absolute(line, facts.outputSpan), callId: facts.callId, idSpan,
    linkSpan: idSpan ?? span, answers: null, implicit: false, isError: facts.isError,
  };
  step.heldOutputs.push(output);
  linker.output(output, false);
}

/**
 * Each UI event that repeats a message or reasoning is linked to the nearest record with the same text (before it,
 * else after it); each that reports a call, to the call with its id. Codex writes the two in either order.
 */
function linkEchoes(model: RolloutModel): void {
  const byText = new Map<string, RolloutStep[]>();
  const keyOf = (kind: string, text: string) => `${kind}\u0000${text}`;
  for (const step of model.steps) {
    const item = step.facts.item;
    if (!item?.text) continue;
    const kind = step.role === 'reasoning' ? 'reasoning' : item.role === 'user' ? 'user' : item.role === 'assistant' ? 'assistant' : undefined;
    if (!kind) continue;
    const key = keyOf(kind, item.text);
    const list = byText.get(key);
    if (list) list.push(step);
    else byText.set(key, [step]);
  }
  const taken = new Set<RolloutStep>();
  for (const step of model.steps) {
    if (step.role === 'call-echo') {
      model.echoes++;
      const id = step.facts.event?.callId;
      const call = id !== undefined ? model.callsById.get(id)?.[0] : undefined;
      if (call) call.reports.push(step);
      continue;
    }
    if (step.role !== 'echo') continue;
    model.echoes++;
    const type = step.facts.payloadType;
    const kind = type === 'user_message' ? 'user' : type === 'agent_message' ? 'assistant' : 'reasoning';
    const text = step.facts.event?.text;
    const candidates = text === undefined ? undefined : byText.get(keyOf(kind, text)) ?? (kind === 'reasoning' ? partOfReasoning(model, text) : undefined);
    step.repeats = nearest(candidates ?? [], step, taken) ?? null;
    if (step.repeats) taken.add(step.repeats);
  }
}

/** Reasoning records whose summary holds the text (Codex sends one UI event per part of a summary). */
function partOfReasoning(model: RolloutModel, text: string): RolloutStep[] {
  const head = text.slice(0, 60);
  return model.steps.filter((step) => step.role === 'reasoning' && step.facts.item?.text?.includes(head));
}

function nearest(candidates: RolloutStep[], step: RolloutStep, taken: Set<RolloutStep>): RolloutStep | undefined {
  let before: RolloutStep | undefined;
  let after: RolloutStep | undefined;
  for (const candidate of candidates) {
    if (candidate.index < step.index) {
      if (!taken.has(candidate) || candidate.role === 'reasoning') before = candidate;
    } else if (!after) after = candidate;
  }
  return before ?? after;
}

/**
 * Token counts: Codex writes one after each model request, with the running total and the request's own tokens,
 * and writes it again unchanged (a rate-limit update). A count whose total did not grow is a repeat and counts
 * nothing; the others are counted once, on the last record the model wrote before them (so the preview and the
 * hover show them where the tokens were spent), else on the count itself.
 */
function countTokens(model: RolloutModel): void {
  let previousTotal: number | undefined;
  let lastWritten: RolloutStep | undefined;
  for (const step of model.steps) {
    if (writtenByModel(step)) lastWritten = step;
    if (step.role !== 'usage') continue;
    const event = step.facts.event;
    const total = event?.totalUsage;
    const usage = event?.lastUsage ?? (total && previousTotal === undefined ? total : undefined);
    if (total) model.totalUsage = total;
    const totalTokens = total?.total;
    const repeat = totalTokens !== undefined && totalTokens === previousTotal;
    if (totalTokens !== undefined) previousTotal = totalTokens;
    if (!usage || repeat) continue;
    const target = lastWritten && !lastWritten.usage ? lastWritten : step;
    target.usage = usage;
    if (target !== step) {
      step.countedOn = target;
      target.countedFrom = step;
    }
    lastWritten = undefined;
  }
}
