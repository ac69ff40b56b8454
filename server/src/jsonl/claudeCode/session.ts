/**
 * A Claude Code session as the model of linked calls: every record (line) is a step; `tool_use` blocks of the
 * conversation's records are its calls and `tool_result` blocks its outputs, linked by id. Besides the links, the
 * session's own structure: the tree of records by `parentUuid` (the live conversation is the chain from the newest
 * record; records on other branches are abandoned: a rewind or a fork left them), assistant messages split over
 * several lines (one `message.id`), compaction boundaries, and the subagent runs echoed by `progress` records under
 * their `Task` call. Built from the lines' facts (records.ts) on first use per version: linking is a pass over small
 * records, so an appended line costs its own reading only.
 */
import type { Span } from '../../common/types';
import { CallLinker } from '../../calls/links';
import type { TokenUsage } from '../../calls/model';
import { oncePerObject } from '../../common/lru';
import type { Line, LinesModel } from '../lines';
import { sessionFormat } from './format';
import { recordOf } from './lines';
import type { BlockFacts } from './records';
import type { RecordStep, SessionCall, SessionModel, SessionOutput, SubagentRun } from './types';

/** The session of a version's lines, built on first use. */
export const sessionOf: (lines: LinesModel) => SessionModel = oncePerObject(readSession);

function absolute(line: Line, span: Span | undefined): Span | undefined {
  return span && { start: line.start + span.start, end: line.start + span.end };
}

function readSession(lines: LinesModel): SessionModel {
  const model: SessionModel = {
    text: lines.text,
    lines,
    steps: [],
    calls: [],
    outputs: [],
    callsById: new Map(),
    outputsByCallId: new Map(),
    byUuid: new Map(),
    subagents: new Map(),
    children: new Map(),
    chained: false,
    sidechain: false,
    format: sessionFormat,
  };
  const linker = new CallLinker<SessionCall, SessionOutput>(model);
  const messageHeads = new Map<string, RecordStep>();
  let chained = false;
  let sidechain = false;
  for (const line of lines.contentLines) {
    const facts = recordOf(line);
    if (!facts) continue;
    const step: RecordStep = { index: line.number, span: { start: line.start, end: line.end }, line, facts, calls: [], heldOutputs: [] };
    if (facts.time !== undefined) step.time = facts.time;
    model.steps.push(step);
    if (facts.uuid !== undefined && !model.byUuid.has(facts.uuid)) model.byUuid.set(facts.uuid, step);
    if (facts.hasParent) chained = true;
    if (facts.sidechain) sidechain = true;
    if (typeof facts.parentUuid === 'string') {
      const siblings = model.children.get(facts.parentUuid);
      if (siblings) siblings.push(step);
      else model.children.set(facts.parentUuid, [step]);
    }
    const message = facts.message;
    if (!message || (facts.type !== 'user' && facts.type !== 'assistant')) continue;
    if (facts.type === 'assistant' && message.id !== undefined) {
      const head = messageHeads.get(message.id);
      if (head) step.messageHead = head;
      else {
        messageHeads.set(message.id, step);
        // Every line of a split message repeats its usage: it is counted once, on the first.
        const usage = usageOf(message.inputTokens, message.outputTokens);
        if (usage) step.usage = usage;
      }
    }
    readBlocks(step, message.blocks, linker, model.outputs.length, (output) => step.heldOutputs.push(output), (call) => step.calls.push(call));
  }
  (model as { chained: boolean }).chained = chained;
  (model as { sidechain: boolean }).sidechain = sidechain;
  findSubagents(model);
  if (chained) markAbandoned(model);
  return model;
}

function usageOf(input: number | undefined, output: number | undefined): TokenUsage | undefined {
  if (input === undefined && output === undefined) return undefined;
  const usage: TokenUsage = {};
  if (input !== undefined) usage.input = input;
  if (output !== undefined) usage.output = output;
  return usage;
}

/** The calls and results of a record's blocks, in order, handed to the linker and to the record. */
function readBlocks(
  step: RecordStep, blocks: BlockFacts[], linker: CallLinker<SessionCall, SessionOutput>, firstOutput: number,
  addOutput: (output: SessionOutput) => void, addCall: (call: SessionCall) => void,
): void {
  const line = step.line;
  let outputs = firstOutput;
  for (const block of blocks) {
    if (block.toolResult) {
      const result = block.toolResult;
      const idSpan = absolute(line, result.idSpan);
      const span = absolute(line, block.span)!;
      const output: SessionOutput = {
        index: outputs++, step, block, result, span, contentSpan: absolute(line, result.contentSpan),
        callId: result.toolUseId, idSpan, linkSpan: idSpan ?? span, answers: null, implicit: false, isError: result.isError,
      };
      addOutput(output);
      linker.output(output, false);
    }
    if (block.toolUse && block.type === 'tool_use') {
      const tool = block.toolUse;
      const call: SessionCall = {
        index: 0, step, block, tool, span: absolute(line, block.span)!, inputSpan: absolute(line, tool.inputSpan),
        id: tool.id, idSpan: absolute(line, tool.idSpan), name: tool.name, nameSpan: absolute(line, tool.nameSpan), outputs: [],
      };
      addCall(call);
      linker.call(call);
    }
  }
}

/**
 * The Task calls and the agent_progress records that echo their subagent's messages (by parentToolUseID); the calls
 * and results those echo are linked per run, apart from the conversation's own.
 */
function findSubagents(model: SessionModel): void {
  for (const call of model.calls) {
    if (call.name !== 'Task' && call.name !== 'Agent') continue;
    if (call.id === undefined) continue;
    const agentId = call.outputs.map((output) => output.step.facts.resultAgentId).find((id) => id !== undefined);
    model.subagents.set(call.id, { call, agentId, echoes: [], calls: [], outputs: [] });
  }
  const linkers = new Map<SubagentRun, CallLinker<SessionCall, SessionOutput>>();
  for (const step of model.steps) {
    const progress = step.facts.progress;
    if (!progress?.echo || progress.parentToolUseId === undefined) continue;
    const run = model.subagents.get(progress.parentToolUseId);
    if (!run) continue;
    run.echoes.push(step);
    run.agentId ??= progress.agentId;
    let linker = linkers.get(run);
    if (!linker) linkers.set(run, (linker = new CallLinker<SessionCall, SessionOutput>({ calls: run.calls, outputs: run.outputs, callsById: new Map(), outputsByCallId: new Map() })));
    // The linker keeps the run's outputs: readBlocks only numbers them.
    readBlocks(step, progress.echo.message?.blocks ?? [], linker, run.outputs.length, () => undefined, () => undefined);
  }
}

/**
 * Marks the records of abandoned branches. Each chain root (a record whose parent is null or not in the file, such
 * as a compaction boundary) starts a tree; its live conversation is the chain of parents from the tree's newest
 * record. Records beside that chain are live too when Claude Code writes them there in a normal run: a parallel
 * call's line and the results of the message's calls (each result's parent is its call's line), the other lines of
 * a split message, and progress, system and other side records hanging off a live record. What is left hangs off
 * a fork that the conversation did not take: a rewind or a fork of the session.
 */
function markAbandoned(model: SessionModel): void {
  const steps = model.steps.filter((step) => step.facts.uuid !== undefined);
  const position = new Map<RecordStep, number>();
  steps.forEach((step, i) => position.set(step, i));
  // Each record's parent, as a position among the records (-1: none in the file).
  const parent = new Int32Array(steps.length);
  for (let i = 0; i < steps.length; i++) {
    const uuid = steps[i].facts.parentUuid;
    const named = typeof uuid === 'string' ? model.byUuid.get(uuid) : undefined;
    parent[i] = named === undefined ? -1 : position.get(named) ?? -1;
  }
  // The root of each record's tree; a cycle (a hand-edited file) ends where it closes.
  const root = new Int32Array(steps.length).fill(-1);
  for (let i = 0; i < steps.length; i++) {
    const path: number[] = [];
    let current = i;
    while (current >= 0 && root[current] < 0 && !path.includes(current)) {
      path.push(current);
      if (parent[current] < 0) break;
      current = parent[current];
    }
    const found = current >= 0 && root[current] >= 0 ? root[current] : path[path.length - 1];
    for (const visited of path) root[visited] = found;
  }
  const newest = new Map<number, number>();
  for (let i = 0; i < steps.length; i++) newest.set(root[i], i);
  const live = new Uint8Array(steps.length);
  for (const leaf of newest.values()) for (let i = leaf; i >= 0 && !live[i]; i = parent[i]) live[i] = 1;
  // Records beside the chain that a normal run writes there; two passes reach those that depend on a later record.
  for (let pass = 0; pass < 2; pass++) {
    const liveMessages = new Set<string>();
    const liveCalls = new Set<string>();
    for (let i = 0; i < steps.length; i++) {
      if (!live[i]) continue;
      const step = steps[i];
      const id = step.facts.message?.id;
      if (id !== undefined && step.facts.type === 'assistant') liveMessages.add(id);
      for (const call of step.calls) if (call.id !== undefined) liveCalls.add(call.id);
    }
    for (let i = 0; i < steps.length; i++) {
      if (live[i] || (parent[i] >= 0 && !live[parent[i]])) continue;
      const facts = steps[i].facts;
      const results = steps[i].heldOutputs;
      const sideRecord = facts.type !== 'user' && facts.type !== 'assistant';
      const sameMessage = facts.type === 'assistant' && facts.message?.id !== undefined && liveMessages.has(facts.message.id);
      const answersLiveCalls = facts.type === 'user' && results.length > 0 && results.length === facts.message!.blocks.length
        && results.every((output) => output.callId !== undefined && liveCalls.has(output.callId));
      if (sideRecord || sameMessage || answersLiveCalls) live[i] = 1;
    }
  }
  for (let i = 0; i < steps.length; i++) if (!live[i]) steps[i].abandoned = true;
}

/** The step of a record line, when it holds one. */
export function stepOfLine(model: SessionModel, line: Line): RecordStep | undefined {
  let lo = 0;
  let hi = model.steps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const number = model.steps[mid].line.number;
    if (number === line.number) return model.steps[mid];
    if (number < line.number) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}
