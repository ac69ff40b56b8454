/**
 * The outline of a file of spans: one entry per trace with its totals (calls, time, tokens, cost), holding the tree
 * of its spans (each span under its parent, siblings by start time) named as they are, with their duration, tokens
 * and calls. Spans deeper than maxDepth levels are listed at that level; after maxEntries entries a last one says how
 * many were left out. Each entry's range holds its children's, so breadcrumbs follow the tree.
 */
import type { Budget } from '../common/budget';
import { spend } from '../common/budget';
import type { OutlineItem, OutlineKind, Span } from '../common/types';
import { shorten } from '../common/text';
import { conversationTotals, describeTotals } from '../calls/timing';
import { spanFigures } from './text';
import type { SpanStep, SpansModel, SpanTrace } from './types';
import { spanOf } from '../common/spans';

const maxDepth = 32;
const nameLength = 80;

export function symbols(model: SpansModel, maxEntries: number, budget?: Budget): OutlineItem[] {
  const items: OutlineItem[] = [];
  let entries = 0;
  let steps = 0;
  let left = 0;
  for (const trace of model.traces) {
    const top: OutlineItem = { ...traceEntry(model, trace), children: [] };
    items.push(top);
    const stack: { step: SpanStep; into: OutlineItem[]; level: number }[] = [];
    for (let i = trace.roots.length - 1; i >= 0; i--) stack.push({ step: trace.roots[i], into: top.children!, level: 0 });
    while (stack.length > 0) {
      steps = spend(budget, steps);
      const { step, into, level } = stack.pop()!;
      if (entries >= maxEntries) {
        left++;
        continue;
      }
      entries++;
      const item = spanEntry(step);
      into.push(item);
      const childInto = level < maxDepth ? (item.children = []) : into;
      for (let i = step.children.length - 1; i >= 0; i--) stack.push({ step: step.children[i], into: childInto, level: level < maxDepth ? level + 1 : level });
    }
    widen(top);
  }
  if (left > 0) {
    const end = model.text.length;
    items.push({ name: `… ${left} more span${left === 1 ? '' : 's'} not listed (agentTraces.jsonl.maxOutlineEntries)`, kind: 'metadata', span: { start: end, end }, selection: { start: end, end } });
  }
  return items;
}

function traceEntry(model: SpansModel, trace: SpanTrace): OutlineItem {
  const first = trace.steps[0];
  const name = trace.traceId ? `Trace ${trace.traceId.slice(0, 8)}…` : 'Spans';
  const agent = trace.roots.find((root) => root.role === 'agent')?.name;
  const detail = [`${trace.steps.length} span${trace.steps.length === 1 ? '' : 's'}`, describeTotals(conversationTotals(trace)), agent].filter(Boolean).join(' · ');
  const at: Span = first ? { ...first.span } : { start: 0, end: Math.min(1, model.text.length) };
  return { name, detail, kind: 'trace', span: at, selection: first?.traceId ? spanOf(first.traceId) : { start: at.start, end: at.start } };
}

const kinds: Record<SpanStep['role'], OutlineKind> = { agent: 'trace', model: 'message', tool: 'call', other: 'event' };

function spanEntry(step: SpanStep): OutlineItem {
  const failed = step.status === 'error' || step.heldOutputs.some((output) => output.isError);
  const calls = step.calls.filter((call) => call.source !== 'tool-span').length;
  const detail = [spanFigures(step), calls > 0 ? `${calls} call${calls === 1 ? '' : 's'}` : undefined, failed ? 'error' : undefined, step.cycle ? 'parent cycle' : undefined]
    .filter(Boolean).join(' · ');
  const selection = step.nameNode ?? step.node;
  return {
    name: `${failed ? '✗ ' : ''}${shorten(step.name ?? '(unnamed span)', nameLength)}`,
    detail: detail || undefined,
    kind: kinds[step.role],
    span: { ...step.span },
    selection: { start: selection.start, end: selection.end },
  };
}

/** Each entry's range made to hold its children's (a parent span is often written after its children). */
function widen(top: OutlineItem): void {
  const order: OutlineItem[] = [];
  const stack = [top];
  while (stack.length > 0) {
    const item = stack.pop()!;
    order.push(item);
    for (const child of item.children ?? []) stack.push(child);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const item = order[i];
    for (const child of item.children ?? []) {
      item.span.start = Math.min(item.span.start, child.span.start);
      item.span.end = Math.max(item.span.end, child.span.end);
    }
  }
}
