import { spend, type Budget } from '../../common/budget';
import type { OutlineItem } from '../../common/types';
import type { Line, LinesModel } from '../lines';
import { clip } from '../strings';
import { formatDuration } from '../../../../shared/format';
import { entryFacts, llmSummary } from './facts';

/** One entry per call, `#<line> <tool>` with status and duration; failures and LLM spend marked. At most max. */
export function agentguardSymbols(model: LinesModel, maxOutlineEntries: number, budget?: Budget): OutlineItem[] {
  const items: OutlineItem[] = [];
  let steps = 0;
  for (const line of model.contentLines) {
    if (items.length === maxOutlineEntries) break;
    steps = spend(budget, steps);
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
