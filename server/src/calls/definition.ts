/** Go to definition between calls and outputs: an output's id → the call it answers; a call's id → its outputs. */
import type { Span, Target } from '../common/types';
import type { LinkedCall, LinkedCalls, LinkedOutput } from './model';
import { callsFor, implicitOutputAt, linkAt } from './locate';
import { spanOf } from '../common/spans';

/** Where a call is: the whole call, its id selected (else its name, else its start). */
export function callTarget(call: LinkedCall): Target {
  return target(call.span, call.idSpan ?? call.nameSpan ?? { start: call.span.start, end: call.span.start });
}

/** Where an output is: the whole output, what names its call selected. */
export function outputTarget(output: LinkedOutput): Target {
  return target(output.span, output.linkSpan);
}

function target(span: Span, selection: Span): Target {
  return selection.start === span.start && selection.end === span.end ? { span: spanOf(span) } : { span: spanOf(span), selection: spanOf(selection) };
}

/** An output's id → the call it names; a call's id → the outputs answering it; an implicit output's link → its call. */
export function definition(model: LinkedCalls, offset: number): Target[] {
  const end = linkAt(model, offset);
  if (end?.kind === 'output') return callsFor(model, end.output).map(callTarget);
  if (end?.kind === 'call') return end.call.outputs.map(outputTarget);
  const implicit = implicitOutputAt(model, offset);
  return implicit?.answers ? [callTarget(implicit.answers)] : [];
}
