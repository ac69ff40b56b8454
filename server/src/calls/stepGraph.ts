/**
 * The preview's items for a format whose nodes are the model's own steps (a Codex rollout's records, a Responses
 * document's items): the format says how a step and a call look (StepDrawing), this turns each drawn step into the
 * graph's item, with its calls inside it (or the step as its one call's node), its outputs, the time a call took and
 * the tokens a step reports; and the conversation's totals for the header.
 */
import type { GraphNodeKind, GraphTotals } from '../../../shared/protocol';
import type { Span } from '../common/types';
import type { GraphItem } from './graph';
import type { CallStep, LinkedCall, LinkedCalls } from './model';
import { callDuration, conversationTotals } from './timing';

/** What the preview shows of a step. */
export interface StepDrawing {
  kind: GraphNodeKind;
  role?: string;
  title: string;
  /** One line. */
  summary: string;
  /** The content for the expanded view, at most the preview's text limit, and its whole length. */
  text: string;
  textLength: number;
  /** Where a click puts the cursor. */
  selection: Span;
}

/** What the preview shows of a call drawn inside its step. */
export type CallDrawing = Omit<StepDrawing, 'kind' | 'role'>;

export interface StepGraphSource<S extends CallStep, C extends LinkedCall> {
  /**
   * The step's node, or undefined when the step is not drawn (it repeats another step, or holds nothing to see).
   * A step drawn as `call` that makes one call is that call's node (in the calls' lane); any other step draws its
   * calls inside it.
   */
  step(step: S, maxText: number): StepDrawing | undefined;
  call(call: C, maxText: number): CallDrawing;
}

export function stepItems<S extends CallStep, C extends LinkedCall>(
  model: { steps: readonly S[] }, source: StepGraphSource<S, C>, maxText: number,
): GraphItem[] {
  const items: GraphItem[] = [];
  for (const step of model.steps) {
    const drawing = source.step(step, maxText);
    if (!drawing) continue;
    const item: GraphItem = {
      kind: drawing.kind,
      eventIndex: step.index,
      title: drawing.title,
      summary: drawing.summary,
      text: { text: drawing.text, length: drawing.textLength },
      span: step.span,
      selection: drawing.selection,
      outputs: step.heldOutputs,
    };
    if (drawing.role !== undefined) item.role = drawing.role;
    if (step.abandoned) item.abandoned = true;
    if (step.usage) item.tokens = step.usage.total ?? (step.usage.input ?? 0) + (step.usage.output ?? 0);
    const ownCall = drawing.kind === 'call' && step.calls.length === 1 ? (step.calls[0] as C) : undefined;
    if (ownCall) {
      item.isCall = ownCall;
      describeCall(item, ownCall);
    } else if (step.calls.length > 0) {
      item.calls = (step.calls as readonly C[]).map((call) => {
        const shown = source.call(call, maxText);
        return { call, title: shown.title, summary: shown.summary, text: { text: shown.text, length: shown.textLength }, selection: shown.selection };
      });
    } else {
      const output = step.heldOutputs[0];
      const answered = output?.answers;
      if (answered?.name !== undefined) item.toolName = answered.name;
      const callId = output?.callId ?? answered?.id;
      if (callId !== undefined) item.callId = callId;
      if (step.heldOutputs.some((held) => held.isError)) item.failed = true;
      const duration = answered && answered.outputs[0] === output ? callDuration(answered) : undefined;
      if (duration !== undefined) item.durationMs = duration;
    }
    items.push(item);
  }
  return items;
}

function describeCall(item: GraphItem, call: LinkedCall): void {
  if (call.name !== undefined) item.toolName = call.name;
  if (call.id !== undefined) item.callId = call.id;
  if (call.outputs.some((output) => output.isError)) item.failed = true;
}

/** The conversation's calls, time, tokens and cost, as the preview's header shows them. */
export function graphTotals(model: LinkedCalls): GraphTotals {
  const totals = conversationTotals(model);
  const figures: GraphTotals = { calls: totals.calls, failedCalls: totals.failedCalls };
  if (totals.durationMs !== undefined) figures.durationMs = totals.durationMs;
  const usage = totals.usage;
  if (usage) {
    const tokens = usage.total ?? (usage.input !== undefined || usage.output !== undefined ? (usage.input ?? 0) + (usage.output ?? 0) : undefined);
    if (tokens !== undefined) figures.tokens = tokens;
    if (usage.input !== undefined) figures.inputTokens = usage.input;
    if (usage.output !== undefined) figures.outputTokens = usage.output;
  }
  if (totals.cost !== undefined) figures.costUsd = totals.cost;
  return figures;
}
