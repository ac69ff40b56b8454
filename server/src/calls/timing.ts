/**
 * Time, tokens and cost of a conversation, where its format records them (timestamps on each record, token counts
 * and dollars per model request): how long a call took (from the step that made it to the first step holding its
 * output), what a step cost, and the totals the outline's top entry and the preview's header show. Every figure is
 * printed by shared/format.ts, so the editor and the preview say the same.
 */
import { formatCost, formatDuration, formatTokens } from '../../../shared/format';
import type { CallStep, LinkedCall, LinkedCalls, TokenUsage } from './model';

/**
 * How long a call took: what the format records of it (a tool span's duration), else the milliseconds from the
 * call's step to its first output's step, when both have a time and the output is not earlier.
 */
export function callDuration(call: LinkedCall): number | undefined {
  if (call.durationMs !== undefined) return call.durationMs;
  const start = call.step.time;
  const output = call.outputs[0];
  const end = output?.step.time;
  if (start === undefined || end === undefined || end < start) return undefined;
  return end - start;
}

export interface ConversationTotals {
  calls: number;
  /** Calls whose output reports an error. */
  failedCalls: number;
  /** The first and last times recorded, and the time between them. */
  firstTime?: number;
  lastTime?: number;
  durationMs?: number;
  /** Tokens of all the model requests, when any step (or the format's running total) records them. */
  usage?: TokenUsage;
  /** US dollars over the steps that record a cost; undefined when none does (no `$0.0000` for a format without costs). */
  cost?: number;
}

/** Tokens of the steps summed, each kind only when some step records it; undefined when none records any. */
export function sumUsage(steps: Iterable<CallStep>): TokenUsage | undefined {
  let sum: TokenUsage | undefined;
  for (const step of steps) {
    const usage = step.usage;
    if (!usage) continue;
    sum ??= {};
    for (const key of ['input', 'cachedInput', 'output', 'reasoning', 'total'] as const) {
      const value = usage[key];
      if (value !== undefined) sum[key] = (sum[key] ?? 0) + value;
    }
  }
  return sum;
}

/** The costs of the steps that record one, summed; undefined when none does. */
export function sumCost(steps: Iterable<CallStep>): number | undefined {
  let sum: number | undefined;
  for (const step of steps) if (step.cost !== undefined) sum = (sum ?? 0) + step.cost;
  return sum;
}

export function conversationTotals(model: LinkedCalls): ConversationTotals {
  let firstTime: number | undefined;
  let lastTime: number | undefined;
  for (const step of model.steps) {
    const time = step.time;
    if (time === undefined) continue;
    const end = step.endTime !== undefined && step.endTime > time ? step.endTime : time;
    if (firstTime === undefined || time < firstTime) firstTime = time;
    if (lastTime === undefined || end > lastTime) lastTime = end;
  }
  const totals: ConversationTotals = {
    calls: model.calls.length,
    failedCalls: model.calls.filter((call) => call.outputs.some((output) => output.isError)).length,
  };
  if (firstTime !== undefined && lastTime !== undefined) Object.assign(totals, { firstTime, lastTime, durationMs: lastTime - firstTime });
  const usage = model.format.totalUsage?.(model) ?? sumUsage(model.steps);
  if (usage) totals.usage = usage;
  const cost = sumCost(model.steps);
  if (cost !== undefined) totals.cost = cost;
  return totals;
}

/** `3 calls, 1 failed · 2 min 5 s · 2,400 tokens · $0.0123`: the parts the format records. */
export function describeTotals(totals: ConversationTotals): string {
  const parts = [`${totals.calls} call${totals.calls === 1 ? '' : 's'}${totals.failedCalls > 0 ? `, ${totals.failedCalls} failed` : ''}`];
  if (totals.durationMs !== undefined) parts.push(formatDuration(totals.durationMs));
  const tokens = totals.usage ? formatTokens(totals.usage) : undefined;
  if (tokens) parts.push(tokens);
  if (totals.cost !== undefined) parts.push(formatCost(totals.cost));
  return parts.join(' · ');
}

/** The step's time as a clock (`09:00:07 UTC`), with the time since the step before it that has one. */
export function describeStepTime(model: LinkedCalls, step: CallStep): string | undefined {
  if (step.time === undefined) return undefined;
  const clock = `${new Date(step.time).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
  let previous: number | undefined;
  for (let i = model.steps.indexOf(step) - 1; i >= 0 && previous === undefined; i--) previous = model.steps[i].time;
  return previous !== undefined && step.time >= previous ? `${clock} (${formatDuration(step.time - previous)} after the step before)` : clock;
}

/** A hover's lines on a step's time and tokens, and on its calls' durations; empty when the format records none. */
export function stepTimingLines(model: LinkedCalls, step: CallStep): string[] {
  const lines: string[] = [];
  const time = describeStepTime(model, step);
  if (time) lines.push(`Written ${time}.`);
  const tokens = step.usage ? formatTokens(step.usage, true) : undefined;
  if (tokens) lines.push(`Model request: ${tokens}.`);
  for (const call of step.calls) {
    const duration = callDuration(call);
    if (duration !== undefined) lines.push(`${call.name ?? 'The call'} took ${formatDuration(duration)} (to its output in ${model.format.stepName(call.outputs[0].step)}).`);
  }
  return lines;
}
