/**
 * An OpenAI Responses document as one Invariant trace, for guardrail rules and `agent-traces convert`: the request's
 * `instructions` (as the system message), then its `input`, then the response's `output`, each item converted by
 * responses/itemEvents.ts. That is the order the model saw them in, whatever order the file writes the three keys in
 * (a recorded body with sorted keys has `input` before `instructions`; the editor's steps follow the file).
 */
import { instructionsEvent, itemEvents, promptEvent } from './itemEvents';
import { brokenJson, type ConvertedTrace, type SourcedEvent } from '../calls/sourcedEvents';
import type { ResponsesModel } from './model';
import type { ItemStep } from './types';

const conversationOrder: Record<ItemStep['list'], number> = { instructions: 0, input: 1, items: 1, output: 2 };

export function responsesTraces(model: ResponsesModel): ConvertedTrace[] {
  const { text } = model;
  const whole = { start: 0, end: text.length, skippedLines: [], omittedLines: 0 };
  if (model.errors.length > 0) return [{ ...whole, events: [], unreadable: brokenJson(text, model.errors[0]) }];
  const events: SourcedEvent[] = [];
  const inConversationOrder = [...model.steps].sort((a, b) => conversationOrder[a.list] - conversationOrder[b.list] || a.index - b.index);
  for (const step of inConversationOrder) {
    if (step.list === 'instructions') events.push(instructionsEvent(text, step.node));
    else if (step.node.type === 'string') events.push(promptEvent(text, step.node));
    else events.push(...itemEvents(text, step.node));
  }
  return [{ ...whole, events }];
}
