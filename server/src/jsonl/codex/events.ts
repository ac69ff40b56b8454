/**
 * A Codex rollout as Invariant trace events, for guardrail rules and `agent-traces convert`: its `response_item`
 * records in file order, each converted as the Responses items they are (responses/itemEvents.ts). The records that
 * are not items sent to or written by the model (the session's and turns' settings, the UI events that repeat a
 * turn, compaction markers) have no event, so nothing is counted twice.
 */
import { itemEvents } from '../../responses/itemEvents';
import type { SourcedEvent } from '../../calls/sourcedEvents';
import { parseJsonValue } from '../../json/readJson';
import type { LinesModel } from '../lines';
import { rolloutOf } from './rollout';

export function rolloutEvents(lines: LinesModel): { events: SourcedEvent[]; skippedLines: number[] } {
  const rollout = rolloutOf(lines);
  const text = lines.text.toString();
  const events: SourcedEvent[] = [];
  const skipped = new Set<number>();
  for (const step of rollout.steps) {
    const { type, payloadSpan } = step.facts;
    if (type !== 'response_item' || !payloadSpan) continue;
    if (step.line.errors.length > 0) continue;
    const payload = parseJsonValue(text, step.line.start + payloadSpan.start, step.line.start + payloadSpan.end);
    if (!payload.root || payload.errors.length > 0) continue;
    events.push(...itemEvents(text, payload.root));
  }
  for (const line of lines.contentLines) if (line.errors.length > 0) skipped.add(line.number + 1);
  return { events, skippedLines: [...skipped].sort((a, b) => a - b) };
}
