/**
 * An OpenAI Responses document as one Invariant trace, for guardrail rules and `agent-traces convert`: the request's
 * `instructions` (as the system message), its `input` and the response's `output`, in the order the file has them
 * (model.ts orders its steps so), each item converted by responses/itemEvents.ts.
 */
import { instructionsEvent, itemEvents, promptEvent } from './itemEvents';
import { brokenJson, type ConvertedTrace, type SourcedEvent } from '../calls/sourcedEvents';
import type { ResponsesModel } from './model';

export function responsesTraces(model: ResponsesModel): ConvertedTrace[] {
  const { text } = model;
  const whole = { start: 0, end: text.length, skippedLines: [], omittedLines: 0 };
  if (model.errors.length > 0) return [{ ...whole, events: [], unreadable: brokenJson(text, model.errors[0]) }];
  const events: SourcedEvent[] = [];
  for (const step of model.steps) {
    if (step.list === 'instructions') events.push(instructionsEvent(text, step.node));
    else if (step.node.type === 'string') events.push(promptEvent(text, step.node));
    else events.push(...itemEvents(text, step.node));
  }
  return [{ ...whole, events }];
}
