import type { Span, Target } from '../../common/types';
import { annotationsOf } from './annotations';
import { contains } from '../../json/queries';
import type { Line, LinesModel } from '../lines';
import type { DatasetPlace } from './annotations';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

/** The trace service's references, plus the annotations whose address names the value at the cursor. */
export function datasetReferences(model: LinesModel, place: DatasetPlace, offset: number, includeDeclaration: boolean): Target[] {
  const found: Target[] = [];
  if (place.onAddress && place.annotation?.resolution?.ok) {
    const target = place.annotation.resolution.target;
    if (includeDeclaration) found.push({ span: target });
    for (const span of annotationsNaming(model, place.line, target)) found.push({ span });
    return found;
  }
  if (isTraceLine(place.line)) found.push(...lineTraceService.references(traceModelOf(model, place.line), offset, includeDeclaration));
  if (place.line.kind === 'annotated') {
    for (const annotation of annotationsOf(model, place.line).items) {
      const resolution = annotation.resolution;
      if (resolution?.ok && annotation.address && contains(resolution.target, offset) && place.path[0] === 'messages') {
        found.push({ span: { start: annotation.address.start, end: annotation.address.end } });
      }
    }
  }
  return found;
}

/** Address strings of the line's annotations whose target overlaps span. */
export function annotationsNaming(model: LinesModel, line: Line, span: Span): Span[] {
  const spans: Span[] = [];
  for (const annotation of annotationsOf(model, line).items) {
    const resolution = annotation.resolution;
    if (!resolution?.ok || !annotation.address) continue;
    if (resolution.target.start < span.end && span.start < resolution.target.end || (resolution.target.start === span.start && resolution.target.end === span.end)) {
      spans.push({ start: annotation.address.start, end: annotation.address.end });
    }
  }
  return spans;
}
