/**
 * An agentguard log as the model of linked calls (calls/model.ts): each entry is a step holding its call and the
 * result that answers it, linked by `call_id`, with the tokens and dollars an LLM entry records (the log's totals).
 * Navigation between the two is the shared features'; the entry's own checks (schema, the result against its call)
 * stay in validate.ts.
 */
import type { Span } from '../../common/types';
import type { CallFormat, CallStep, LinkedCall, LinkedCalls, LinkedOutput, TokenUsage } from '../../calls/model';
import { CallLinker } from '../../calls/links';
import { oncePerObject } from '../../common/lru';
import { compactObject } from '../../calls/labels';
import { property } from '../../json/queries';
import type { Line, LinesModel } from '../lines';
import { clip } from '../strings';
import { entryFacts, type EntryFacts } from './facts';

interface EntryStep extends CallStep {
  line: Line;
  calls: EntryCall[];
  heldOutputs: EntryResult[];
}

interface EntryCall extends LinkedCall {
  step: EntryStep;
}

interface EntryResult extends LinkedOutput {
  step: EntryStep;
}

const agentguardFormat: CallFormat = {
  codePrefix: 'ag',
  whole: 'log',
  outputIdKey: 'result.call_id',
  callWord: 'call',
  outputWord: 'result',
  stepWord: 'line',
  stepName: (step) => `line ${(step as EntryStep).line.number + 1}`,
  stepsName: (steps) => `lines ${steps.map((step) => (step as EntryStep).line.number + 1).join(', ')}`,
  stepShort: (step) => `L${(step as EntryStep).line.number + 1}`,
  callLabel: (model, call, max) => entryLabel(model.text.toString(), (call as EntryCall).step.line, max),
  outputText: (model, output) => {
    const value = property(property((output as EntryResult).step.line.root, 'result')?.value, 'return_value')?.value;
    const text = value ? model.text.slice(value.start, value.end) : '';
    return { text, length: text.length };
  },
};

/** `lookup_order(order_id="A-1001")` from the call's kwargs (args listed first). */
function entryLabel(text: string, line: Line, max: number): string {
  const call = property(line.root, 'call')?.value;
  const name = entryFacts(line).toolName ?? '?';
  const parts: string[] = [];
  const args = property(call, 'args')?.value;
  if (args?.type === 'array') for (const item of args.items) parts.push(clip(text.slice(item.start, item.end), 24));
  const kwargs = property(call, 'kwargs')?.value;
  if (kwargs) parts.push(compactObject(text.slice(kwargs.start, kwargs.end), max));
  return clip(`${name}(${parts.filter((part) => part !== '').join(', ')})`, max);
}

/** The log's entries as linked calls, built on first use per model. */
export const agentguardCalls: (model: LinesModel) => LinkedCalls = oncePerObject(readEntries);

function readEntries(model: LinesModel): LinkedCalls {
  const linked = {
    text: model.text,
    steps: [] as EntryStep[],
    calls: [] as EntryCall[],
    outputs: [] as EntryResult[],
    callsById: new Map<string, EntryCall[]>(),
    outputsByCallId: new Map<string, EntryResult[]>(),
    format: agentguardFormat,
  };
  const linker = new CallLinker<EntryCall, EntryResult>(linked);
  for (const line of model.contentLines) {
    if (line.kind !== 'agentguard') continue;
    const facts = entryFacts(line);
    const step: EntryStep = { index: linked.steps.length, span: { start: line.start, end: line.end }, line, calls: [], heldOutputs: [], ...spend(facts) };
    linked.steps.push(step);
    if (facts.callId) {
      const idSpan: Span = { start: facts.callId.start, end: facts.callId.end };
      const nameSpan = facts.toolNameNode ? { start: facts.toolNameNode.start, end: facts.toolNameNode.end } : undefined;
      const call: EntryCall = { index: 0, step, span: idSpan, id: facts.callId.value, idSpan, name: facts.toolName, nameSpan, outputs: [] };
      step.calls.push(call);
      linker.call(call);
    }
    if (facts.resultCallId) {
      const idSpan: Span = { start: facts.resultCallId.start, end: facts.resultCallId.end };
      const result: EntryResult = {
        index: step.index, step, span: idSpan, callId: facts.resultCallId.value, idSpan, linkSpan: idSpan, answers: null, implicit: false, isError: facts.failed,
      };
      step.heldOutputs.push(result);
      linker.output(result, false);
    }
  }
  return linked;
}

/** The entry's tokens and dollars, where its result records them (an LLM call's `usage` and `cost`). */
function spend(facts: EntryFacts): { usage?: TokenUsage; cost?: number } {
  const count = (raw: string | undefined) => (raw !== undefined && Number.isFinite(Number(raw)) ? Number(raw) : undefined);
  const usage: TokenUsage = {};
  const input = count(facts.inputTokens);
  const output = count(facts.outputTokens);
  const total = count(facts.totalTokens);
  if (input !== undefined) usage.input = input;
  if (output !== undefined) usage.output = output;
  if (total !== undefined) usage.total = total;
  const spent: { usage?: TokenUsage; cost?: number } = {};
  if (Object.keys(usage).length > 0) spent.usage = usage;
  if (typeof facts.cost === 'number' && Number.isFinite(facts.cost)) spent.cost = facts.cost;
  return spent;
}
