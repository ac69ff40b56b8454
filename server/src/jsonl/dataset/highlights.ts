import type { Highlight } from '../../common/types';
import type { LinesModel } from '../lines';
import type { DatasetPlace } from './annotations';
import { annotationsNaming } from './references';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

/** What an annotation address names with the addresses naming it too; elsewhere the trace service answers. */
export function datasetHighlights(model: LinesModel, place: DatasetPlace, offset: number): Highlight[] {
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
