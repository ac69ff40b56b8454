import type { Highlight } from '../common/types';
import { entryFacts } from './agentguard';
import { contains } from './json';
import type { LinesModel } from './model';
import { placeAt } from './locate';
import { annotationsNaming } from './references';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

/** The mentions to light up in the line under the cursor. */
export function highlights(model: LinesModel, offset: number): Highlight[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  if (place.line.kind === 'agentguard') {
    const { callId, resultCallId } = entryFacts(place.line);
    if (callId && resultCallId && (contains(callId, offset) || contains(resultCallId, offset))) {
      return [
        { span: { start: callId.start, end: callId.end }, kind: 'write' },
        { span: { start: resultCallId.start, end: resultCallId.end }, kind: 'read' },
      ];
    }
    return [];
  }
  if (place.onAddress && place.annotation?.resolution?.ok) {
    const target = place.annotation.resolution.target;
    return [
      { span: target, kind: 'write' },
      ...annotationsNaming(model, place.line, target).map((span) => ({ span, kind: 'read' as const })),
    ];
  }
  if (isTraceLine(place.line)) return lineTraceService.highlights(traceModelOf(model, place.line), offset);
  return [];
}
