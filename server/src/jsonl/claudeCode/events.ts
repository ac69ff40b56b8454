/**
 * A Claude Code session as Invariant trace events, for guardrail rules and `agent-traces convert`: the messages of
 * its live conversation (user and assistant records, in file order, abandoned branches left out), each converted
 * as Invariant's gateway converts an Anthropic conversation (calls/anthropicEvents.ts). Records that are not
 * messages sent to the model (progress, hooks, system notes, summaries, snapshots) have no event; a subagent's
 * messages echoed under its Task call are the subagent's, not this conversation's (its own file converts them).
 */
import { messageEvents, type SourcedEvent } from '../../calls/anthropicEvents';
import { parseJsonValue } from '../../json/readJson';
import type { LinesModel } from '../lines';
import { sessionOf } from './session';

export interface SessionEvents {
  events: SourcedEvent[];
  /** 1-based numbers of the conversation's lines that could not be converted (not JSON: fixed first). */
  skippedLines: number[];
}

export function sessionEvents(lines: LinesModel): SessionEvents {
  const session = sessionOf(lines);
  const text = lines.text.toString();
  // A subagent's own file is all side chain: there the side chain is the conversation.
  const ownChain = session.steps.some((step) => !step.facts.sidechain && (step.facts.type === 'user' || step.facts.type === 'assistant'));
  const events: SourcedEvent[] = [];
  const skippedLines: number[] = [];
  for (const step of session.steps) {
    const { type, message, sidechain } = step.facts;
    if ((type !== 'user' && type !== 'assistant') || !message?.contentSpan || step.abandoned || (ownChain && sidechain)) continue;
    const start = step.line.start + message.contentSpan.start;
    const end = step.line.start + message.contentSpan.end;
    const content = parseJsonValue(text, start, end);
    if (!content.root || content.errors.length > 0) {
      skippedLines.push(step.index + 1);
      continue;
    }
    events.push(...messageEvents(text, message.role ?? type, content.root));
  }
  for (const line of lines.contentLines) if (line.errors.length > 0) skippedLines.push(line.number + 1);
  skippedLines.sort((a, b) => a - b);
  return { events, skippedLines };
}
