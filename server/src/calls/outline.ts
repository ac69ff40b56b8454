/**
 * The outline of a conversation by turn, for every format that has prompts: a top entry with the conversation's
 * totals (calls, time, tokens, cost), then one entry per prompt (or per marker the format shows on its own, such as a
 * compaction) with the calls made until the next one nested under it, as `shell: ls -la`, failed ones marked ✗.
 * Calls made before the first prompt (a response's output, a log that starts mid-run) get an entry of their own.
 * Entries are in file order, and each entry's range holds its children's.
 */
import { spend, type Budget } from '../common/budget';
import type { OutlineItem, OutlineKind, Span } from '../common/types';
import { formatDuration, formatTokens } from '../../../shared/format';
import type { CallStep, LinkedCall, LinkedCalls } from './model';
import { callDuration, conversationTotals, describeTotals, sumUsage } from './timing';

export interface OutlineEntry {
  name: string;
  /** What the format adds to the entry's detail (before the counts: the clock, a branch). */
  detail?: string;
  kind: OutlineKind;
  selection: Span;
  /** An entry that stands alone (the instructions): calls after it are not its own. */
  standalone?: boolean;
}

export interface TurnOutlineSource<S extends CallStep, C extends LinkedCall> {
  /** The entry a step opens (a prompt, a compaction), or undefined when it belongs to the entry before it. */
  entry(step: S): OutlineEntry | undefined;
  /** The entry of calls made before any step opened one, named after the first step that made a call. */
  leadingEntry(step: S): OutlineEntry;
  /** A call as the outline lists it: `shell: ls -la`. */
  callTitle(call: C): string;
  /** The top entry (the session's first record, the response object), to which the totals are added. */
  header?: OutlineEntry & { span: Span };
}

interface OpenTurn {
  item: OutlineItem;
  steps: CallStep[];
  calls: number;
  failed: number;
  /** The format's part of the detail. */
  detail?: string;
}

/** `max`: entries listed (the header aside); the caller says what was left out. */
export function turnOutline<S extends CallStep, C extends LinkedCall>(
  model: LinkedCalls & { steps: readonly S[] }, source: TurnOutlineSource<S, C>, max: number, budget?: Budget,
): OutlineItem[] {
  const items: OutlineItem[] = [];
  let turn: OpenTurn | undefined;
  let budgetSteps = 0;
  const close = () => {
    if (turn) turn.item.detail = turnDetail(turn) || undefined;
    turn = undefined;
  };
  const open = (step: S, entry: OutlineEntry): boolean => {
    close();
    if (items.length >= max) return false;
    const item: OutlineItem = { name: entry.name, kind: entry.kind, span: { ...step.span }, selection: { ...entry.selection } };
    items.push(item);
    turn = { item, steps: [], calls: 0, failed: 0, detail: entry.detail };
    if (entry.standalone) close();
    return true;
  };
  for (const step of model.steps) {
    budgetSteps = spend(budget, budgetSteps);
    const entry = source.entry(step);
    if (entry) {
      if (!open(step, entry)) break;
      if (entry.standalone) continue;
    } else if (!turn) {
      if (step.calls.length === 0) continue;
      if (!open(step, source.leadingEntry(step))) break;
    }
    const current = turn!;
    current.steps.push(step);
    current.item.span.end = Math.max(current.item.span.end, step.span.end);
    for (const call of step.calls) {
      const child = callItem(call as C, source);
      (current.item.children ??= []).push(child);
      current.calls++;
      if (call.outputs.some((output) => output.isError)) current.failed++;
    }
  }
  close();
  if (source.header) {
    const { header } = source;
    const totals = describeTotals(conversationTotals(model));
    items.unshift({ name: header.name, detail: [header.detail, totals].filter(Boolean).join(' · '), kind: header.kind, span: { ...header.span }, selection: { ...header.selection } });
  }
  return items;
}

function turnDetail(turn: OpenTurn): string {
  const parts: string[] = [];
  if (turn.calls > 0) parts.push(`${turn.calls} call${turn.calls === 1 ? '' : 's'}${turn.failed > 0 ? `, ${turn.failed} failed` : ''}`);
  const times = turn.steps.map((step) => step.time).filter((time): time is number => time !== undefined);
  if (times.length > 1) parts.push(formatDuration(Math.max(...times) - Math.min(...times)));
  const usage = sumUsage(turn.steps);
  const tokens = usage ? formatTokens({ total: usage.total ?? (usage.input ?? 0) + (usage.output ?? 0) }) : undefined;
  if (tokens) parts.push(tokens);
  if (turn.detail) parts.push(turn.detail);
  return parts.join(' · ');
}

function callItem<C extends LinkedCall>(call: C, source: TurnOutlineSource<CallStep, C>): OutlineItem {
  const failed = call.outputs.some((output) => output.isError);
  const duration = callDuration(call);
  const detail = [failed ? 'failed' : call.outputs.length === 0 ? 'unanswered' : undefined, duration !== undefined ? formatDuration(duration) : undefined]
    .filter(Boolean).join(' · ');
  return {
    name: `${failed ? '✗ ' : ''}${source.callTitle(call)}`,
    detail: detail || undefined,
    kind: failed ? 'event' : 'call',
    span: { ...call.span },
    selection: { ...(call.nameSpan ?? call.idSpan ?? { start: call.span.start, end: call.span.start }) },
  };
}
