import type { Target } from '../common/types';
import { entryFacts } from './agentguard';
import { contains } from './json';
import type { LinesModel } from './model';
import { placeAt } from './locate';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

/**
 * An annotation address jumps to exactly what it names (a value, a character range, a line of a string);
 * in agentguard logs result.call_id and call.call_id lead to each other; elsewhere the trace service answers.
 */
export function definition(model: LinesModel, offset: number): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  if (place.line.kind === 'agentguard') {
    const facts = entryFacts(place.line);
    const { callId, resultCallId } = facts;
    if (callId && resultCallId) {
      if (contains(resultCallId, offset)) return [{ span: { start: callId.start, end: callId.end } }];
      if (contains(callId, offset)) return [{ span: { start: resultCallId.start, end: resultCallId.end } }];
    }
    return [];
  }
  if (place.onAddress && place.annotation?.resolution?.ok) return [{ span: place.annotation.resolution.target }];
  if (isTraceLine(place.line)) return lineTraceService.definition(traceModelOf(model, place.line), offset);
  return [];
}
