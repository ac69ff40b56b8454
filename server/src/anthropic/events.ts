/**
 * An Anthropic Messages document as Invariant traces, for guardrail rules and `agent-traces convert`: each
 * conversation (a request with its response, a list of messages; in JSON Lines, each request with the response
 * after it) is one trace, its system prompt first, then its messages in order, each converted as Invariant's gateway
 * converts them (calls/anthropicEvents.ts). A line that is not valid JSON is left out and named.
 */
import { messageEvents, systemEvent } from '../calls/anthropicEvents';
import { brokenJson, type ConvertedTrace, type SourcedEvent } from '../calls/sourcedEvents';
import type { ConversationModel } from './types';

export function conversationTraces(model: ConversationModel): ConvertedTrace[] {
  const { text } = model;
  const broken = model.values.filter((value) => value.errors.length > 0);
  if (!model.lines && broken.length > 0) {
    return [{ start: 0, end: text.length, events: [], skippedLines: [], omittedLines: 0, unreadable: brokenJson(text, broken[0].errors[0]) }];
  }
  const traces = model.conversations.map((conversation): ConvertedTrace => {
    const events: SourcedEvent[] = [];
    for (const step of conversation.steps) {
      if (step.value.errors.length > 0) continue;
      if (step.system) events.push(systemEvent(text, step.node));
      else if (step.content) events.push(...messageEvents(text, step.role ?? 'user', step.content));
    }
    const first = conversation.values[0];
    return {
      start: conversation.span.start, end: conversation.span.end, events, skippedLines: [], omittedLines: 0,
      ...(model.lines && first?.line !== undefined ? { line: first.line + 1 } : {}),
    };
  });
  // Broken lines belong to no conversation: the first trace names them, once.
  if (traces.length > 0) traces[0].skippedLines = broken.map((value) => (value.line ?? 0) + 1);
  return traces;
}
