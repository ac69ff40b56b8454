import type { Span, Target } from '../common/types';
import { entryFacts } from './agentguard';
import { annotationsOf } from './annotations';
import { contains } from './json';
import type { Line, LinesModel } from './model';
import { placeAt } from './locate';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

/**
 * agentguard: a call id's two mentions (call and result); a tool name's calls across the log.
 * Datasets: the trace service's references, plus the annotations whose address names the value at the cursor.
 */
export function references(model: LinesModel, offset: number, includeDeclaration: boolean): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  if (place.line.kind === 'agentguard') return agentguardReferences(model, place.line, offset, includeDeclaration);
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

function agentguardReferences(model: LinesModel, line: Line, offset: number, includeDeclaration: boolean): Target[] {
  const facts = entryFacts(line);
  const { callId, resultCallId } = facts;
  if (callId && resultCallId && (contains(callId, offset) || contains(resultCallId, offset))) {
    const targets: Target[] = [];
    if (includeDeclaration) targets.push({ span: { start: callId.start, end: callId.end } });
    targets.push({ span: { start: resultCallId.start, end: resultCallId.end } });
    return targets;
  }
  const toolName = facts.toolNameNode;
  if (toolName && contains(toolName, offset)) {
    const targets: Target[] = [];
    for (const other of model.contentLines) {
      if (other.kind !== 'agentguard') continue;
      const otherName = entryFacts(other).toolNameNode;
      if (otherName && otherName.value === toolName.value) targets.push({ span: { start: otherName.start, end: otherName.end } });
    }
    return targets;
  }
  return [];
}
