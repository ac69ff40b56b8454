import type { Budget } from '../common/budget';
import type { OutlineItem } from '../common/types';
import { agentguardSymbols } from './agentguard/symbols';
import { datasetSymbols } from './dataset/symbols';
import { isTraceLine } from './dataset/traceBridge';
import type { Line, LinesModel } from './lines';

/**
 * Datasets: one entry per trace (its name or index, event count, first user message) with its events below.
 * agentguard logs: one entry per call, `#<line> <tool>` with status and duration; failures and LLM spend marked.
 * `budget` is checked per line and inside each trace line's parse.
 */
export function symbols(model: LinesModel, budget?: Budget): OutlineItem[] {
  const max = model.maxOutlineEntries;
  const items = model.format === 'agentguard' ? agentguardSymbols(model, max, budget) : datasetSymbols(model, max, budget);
  const left = model.format === 'agentguard'
    ? countFrom(model, items, (line) => line.kind === 'agentguard')
    : countFrom(model, items, (line) => line.kind === 'metadata' || isTraceLine(line));
  if (left === 0) return items;
  const first = model.contentLines[model.contentLines.indexOf(lastListed(model, items)) + 1];
  const last = model.lines[model.lines.length - 1];
  items.push({
    name: `${left} more ${model.format === 'agentguard' ? 'calls' : 'traces'} are not listed: the outline lists the first ${max}`,
    detail: 'setting agentTraces.jsonl.maxOutlineEntries',
    kind: 'metadata',
    span: { start: first.start, end: last.end },
    selection: { start: first.start, end: first.start },
  });
  return items;
}

function lastListed(model: LinesModel, items: OutlineItem[]): Line {
  const end = items[items.length - 1].span.end;
  return model.contentLines.find((line) => line.end === end)!;
}

/** How many lines after the last listed entry would have had one. */
function countFrom(model: LinesModel, items: OutlineItem[], listed: (line: Line) => boolean): number {
  if (items.length < model.maxOutlineEntries) return 0;
  let count = 0;
  for (let i = model.contentLines.indexOf(lastListed(model, items)) + 1; i < model.contentLines.length; i++) {
    if (listed(model.contentLines[i])) count++;
  }
  return count;
}
