import type { Target } from '../../common/types';
import type { LinesModel } from '../lines';
import type { DatasetPlace } from './annotations';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

/** An annotation address jumps to exactly what it names (a value, a character range, a line of a string); elsewhere the trace service answers. */
export function datasetDefinition(model: LinesModel, place: DatasetPlace, offset: number): Target[] {
  if (place.onAddress && place.annotation?.resolution?.ok) return [{ span: place.annotation.resolution.target }];
  if (isTraceLine(place.line)) return lineTraceService.definition(traceModelOf(model, place.line), offset);
  return [];
}
