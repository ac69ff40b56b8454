import type { Target } from '../../common/types';
import { contains } from '../../json/queries';
import type { Place } from '../locate';
import { entryFacts } from './facts';

/** result.call_id and call.call_id lead to each other. */
export function agentguardDefinition(place: Place, offset: number): Target[] {
  const facts = entryFacts(place.line);
  const { callId, resultCallId } = facts;
  if (callId && resultCallId) {
    if (contains(resultCallId, offset)) return [{ span: { start: callId.start, end: callId.end } }];
    if (contains(callId, offset)) return [{ span: { start: resultCallId.start, end: resultCallId.end } }];
  }
  return [];
}
