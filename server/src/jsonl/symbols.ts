import type { OutlineItem } from '../common/types';
import type { Line, LinesModel } from './lines';

/**
 * A member's outline (at most model.maxOutlineEntries entries) with a last entry that counts the lines left out:
 * those after the last listed entry that would have had one (`listed`), named `entries` ("traces", "calls").
 */
export function outlineWithLimit(model: LinesModel, items: OutlineItem[], listed: (line: Line) => boolean, entries: string): OutlineItem[] {
  const max = model.maxOutlineEntries;
  const left = countFrom(model, items, listed);
  if (left === 0) return items;
  const first = model.contentLines[model.contentLines.indexOf(lastListed(model, items)) + 1];
  const last = model.lines[model.lines.length - 1];
  items.push({
    name: `${left} more ${entries} are not listed: the outline lists the first ${max}`,
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
