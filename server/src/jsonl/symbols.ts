import type { OutlineItem } from '../common/types';
import { formatDuration } from '../../../shared/format';
import { entryFacts, llmSummary } from './agentguard';
import { property } from './json';
import type { Line, LinesModel } from './model';
import { clip } from './strings';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';
import { eventCount, firstUserMessage, traceLabel } from './traces';
import { headSpan } from './validateDataset';

/**
 * Datasets: one entry per trace (its name or index, event count, first user message) with its events below.
 * agentguard logs: one entry per call, `#<line> <tool>` with status and duration; failures and LLM spend marked.
 */
export function symbols(model: LinesModel): OutlineItem[] {
  const items = model.format === 'agentguard' ? agentguardSymbols(model) : datasetSymbols(model);
  const left = model.format === 'agentguard'
    ? countFrom(model, items, (line) => line.kind === 'agentguard')
    : countFrom(model, items, (line) => line.kind === 'metadata' || isTraceLine(line));
  if (left === 0) return items;
  const first = model.contentLines[model.contentLines.indexOf(lastListed(model, items)) + 1];
  const last = model.lines[model.lines.length - 1];
  items.push({
    name: `${left} more ${model.format === 'agentguard' ? 'calls' : 'traces'} are not listed: the outline lists the first ${maxOutlineEntries}`,
    kind: 'metadata',
    span: { start: first.start, end: last.end },
    selection: { start: first.start, end: first.start },
  });
  return items;
}

/** More entries than this make an outline nobody reads, and cost seconds to send (the editor asks on every edit). */
const maxOutlineEntries = 10_000;

function lastListed(model: LinesModel, items: OutlineItem[]): Line {
  const end = items[items.length - 1].span.end;
  return model.contentLines.find((line) => line.end === end)!;
}

/** How many lines after the last listed entry would have had one. */
function countFrom(model: LinesModel, items: OutlineItem[], listed: (line: Line) => boolean): number {
  if (items.length < maxOutlineEntries) return 0;
  let count = 0;
  for (let i = model.contentLines.indexOf(lastListed(model, items)) + 1; i < model.contentLines.length; i++) {
    if (listed(model.contentLines[i])) count++;
  }
  return count;
}

function datasetSymbols(model: LinesModel): OutlineItem[] {
  const items: OutlineItem[] = [];
  let ordinal = 0;
  for (const line of model.contentLines) {
    if (items.length === maxOutlineEntries) break;
    const root = line.root;
    if (!root) continue;
    const span = { start: line.start, end: line.end };
    if (line.kind === 'metadata') {
      const key = property(root, 'metadata')!;
      items.push({ name: 'Dataset metadata', kind: 'metadata', span, selection: { start: key.keyStart, end: key.keyEnd } });
      continue;
    }
    if (!isTraceLine(line)) continue;
    const count = eventCount(line);
    const first = firstUserMessage(model, line, 60);
    const detail = `${count} event${count === 1 ? '' : 's'}${first ? ` — ${first}` : ''}`;
    const children = line.errors.length === 0 ? lineTraceService.symbols(traceModelOf(model, line)) : undefined;
    items.push({
      name: traceLabel(line, ordinal++),
      detail,
      kind: 'trace',
      span,
      selection: headSpan(root),
      ...(children && children.length > 0 ? { children } : {}),
    });
  }
  return items;
}

function agentguardSymbols(model: LinesModel): OutlineItem[] {
  const items: OutlineItem[] = [];
  for (const line of model.contentLines) {
    if (items.length === maxOutlineEntries) break;
    if (line.kind !== 'agentguard') continue;
    items.push(entrySymbol(line));
  }
  return items;
}

function entrySymbol(line: Line): OutlineItem {
  const facts = entryFacts(line);
  const tool = facts.toolName ?? '(no tool name)';
  const status = facts.status ?? 'no status';
  let detail = `${status}, ${formatDuration(facts.durationMs)}`;
  if (facts.retries) detail += `, ${facts.retries} retr${facts.retries === 1 ? 'y' : 'ies'}`;
  if (facts.isLlm) {
    const spend = llmSummary(facts);
    if (spend) detail += ` — ${spend}`;
  }
  if (facts.failed && facts.exception) detail += ` — ${clip(facts.exception, 60)}`;
  const selection = facts.toolNameNode ?? facts.callId;
  return {
    // The ✗ marks failures in the outline and breadcrumbs even where kinds look alike.
    name: `#${line.number + 1} ${facts.failed ? '✗ ' : ''}${tool}`,
    detail,
    kind: facts.failed ? 'event' : facts.isLlm ? 'message' : 'call',
    span: { start: line.start, end: line.end },
    selection: selection ? { start: selection.start, end: selection.end } : { start: line.start, end: line.start },
  };
}
