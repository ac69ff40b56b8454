/**
 * Navigation in a file of spans: the trace holding an offset, then the shared navigation between calls and outputs
 * on it, plus what only spans have: an id a model's history repeats (a mention) leads to its call, a call without
 * an id is found from its name, and a `parentSpanId` leads to its parent span.
 */
import { contains, itemAt, spanOf } from '../common/spans';
import type { Highlight, Target } from '../common/types';
import { callTarget, definition as linkDefinition, outputTarget } from '../calls/definition';
import { highlights as linkHighlights, references as linkReferences } from '../calls/references';
import { stepAt, type LinkEnd } from '../calls/locate';
import type { Mention, SpanStep, SpansModel, SpanTrace } from './types';

/** The span holding an offset, by binary search over the spans in file order. */
export function spanStepAt(model: SpansModel, offset: number): SpanStep | undefined {
  return itemAt(model.steps, offset, (step) => step.span);
}

export function traceAt(model: SpansModel, offset: number): SpanTrace | undefined {
  return spanStepAt(model, offset)?.trace;
}

export function mentionAt(step: SpanStep | undefined, offset: number): Mention | undefined {
  return step?.mentions.find((mention) => contains(mention.span, offset));
}

/** A call without an id at its name, or an output linked by inference at its link: the ends the shared locate skips. */
export function unnamedLinkAt(trace: SpanTrace, offset: number): LinkEnd | undefined {
  const step = stepAt(trace, offset) as SpanStep | undefined;
  if (!step) return undefined;
  for (const output of step.heldOutputs) {
    if (output.inferred !== undefined && contains(output.linkSpan, offset) && !(output.idSpan && contains(output.idSpan, offset))) return { kind: 'output', output, span: output.linkSpan };
  }
  for (const call of step.calls) {
    if (call.id === undefined && call.nameSpan && contains(call.nameSpan, offset)) return { kind: 'call', call, span: call.nameSpan };
  }
  return undefined;
}

export function definition(model: SpansModel, offset: number): Target[] {
  const step = spanStepAt(model, offset);
  if (!step) return [];
  const linked = linkDefinition(step.trace, offset);
  if (linked.length > 0) return linked;
  const mention = mentionAt(step, offset);
  if (mention?.call) return [callTarget(mention.call)];
  const unnamed = unnamedLinkAt(step.trace, offset);
  if (unnamed?.kind === 'call') return unnamed.call.outputs.map(outputTarget);
  const parentId = step.parentId;
  if (parentId && step.parent && contains(parentId, offset)) {
    const parent = step.parent;
    return [{ span: { start: parent.span.start, end: parent.span.end }, selection: parent.spanId ? spanOf(parent.spanId) : spanOf(parent.nameNode ?? parent.node) }];
  }
  return [];
}

export function references(model: SpansModel, offset: number, includeDeclaration: boolean): Target[] {
  const step = spanStepAt(model, offset);
  if (!step) return [];
  const found = linkReferences(step.trace, offset, includeDeclaration);
  const callId = found.length > 0 ? idAt(step, offset) : mentionAt(step, offset)?.callId;
  if (callId === undefined) return found;
  if (found.length === 0) {
    const call = step.trace.callsById.get(callId)?.[0];
    if (call && includeDeclaration) found.push({ span: spanOf(call.idSpan ?? call.span) });
    for (const output of call?.outputs ?? []) found.push({ span: spanOf(output.linkSpan) });
  }
  for (const mentioned of step.trace.steps) for (const mention of mentioned.mentions) if (mention.callId === callId) found.push({ span: spanOf(mention.span) });
  return found;
}

export function highlights(model: SpansModel, offset: number): Highlight[] {
  const step = spanStepAt(model, offset);
  return step ? linkHighlights(step.trace, offset) : [];
}

function idAt(step: SpanStep, offset: number): string | undefined {
  for (const output of step.heldOutputs) if (output.idSpan && contains(output.idSpan, offset)) return output.callId;
  for (const call of step.calls) if (call.idSpan && contains(call.idSpan, offset)) return call.id;
  return undefined;
}
