import { spend, type Budget } from '../../common/budget';
import type { OutlineItem } from '../../common/types';
import { property } from '../../json/queries';
import type { LinesModel } from '../lines';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';
import { eventCount, firstUserMessage, traceLabel } from './traces';
import { headSpan } from './validate';

/** One entry per trace (its name or index, event count, first user message) with its events below. At most max. */
export function datasetSymbols(model: LinesModel, maxOutlineEntries: number, budget?: Budget): OutlineItem[] {
  const items: OutlineItem[] = [];
  let ordinal = 0;
  let steps = 0;
  for (const line of model.contentLines) {
    if (items.length === maxOutlineEntries) break;
    steps = spend(budget, steps);
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
    const children = line.errors.length === 0 ? lineTraceService.symbols(traceModelOf(model, line, budget), budget) : undefined;
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
