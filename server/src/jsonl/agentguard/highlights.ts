import type { Highlight } from '../../common/types';
import { contains } from '../../json/queries';
import type { Place } from '../locate';
import { entryFacts } from './facts';

/** A call id lights up with its other mention (call and result). */
export function agentguardHighlights(place: Place, offset: number): Highlight[] {
  const { callId, resultCallId } = entryFacts(place.line);
  if (callId && resultCallId && (contains(callId, offset) || contains(resultCallId, offset))) {
    return [
      { span: { start: callId.start, end: callId.end }, kind: 'write' },
      { span: { start: resultCallId.start, end: resultCallId.end }, kind: 'read' },
    ];
  }
  return [];
}
