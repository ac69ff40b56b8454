/** What of the calls and outputs sits at an offset: the step, a call's id, an output's link. */
import { contains, itemAt } from '../common/spans';
import type { Span } from '../common/types';
import type { CallStep, LinkedCall, LinkedCalls, LinkedOutput } from './model';

/** The step holding an offset (ends included), by binary search over the steps in order. */
export function stepAt(model: LinkedCalls, offset: number): CallStep | undefined {
  return itemAt(model.steps, offset, (step) => step.span);
}

/** The call whose id holds the offset, or the output whose id holds it. */
export type LinkEnd =
  | { kind: 'call'; call: LinkedCall; span: Span }
  | { kind: 'output'; output: LinkedOutput; span: Span };

export function linkAt(model: LinkedCalls, offset: number): LinkEnd | undefined {
  const step = stepAt(model, offset);
  if (!step) return undefined;
  for (const output of step.heldOutputs) {
    const id = output.idSpan;
    if (output.callId !== undefined && id && contains(id, offset)) return { kind: 'output', output, span: id };
  }
  for (const call of step.calls) {
    const id = call.idSpan;
    if (call.id !== undefined && id && contains(id, offset)) return { kind: 'call', call, span: id };
  }
  return undefined;
}

/**
 * The output of the step at the offset that answers implicitly (it names no call) or by an inferred link, and whose
 * link span holds it.
 */
export function implicitOutputAt(model: LinkedCalls, offset: number): LinkedOutput | undefined {
  const step = stepAt(model, offset);
  return step?.heldOutputs.find((output) => (output.implicit || output.inferred !== undefined) && contains(output.linkSpan, offset));
}

/** The calls an output's id refers to: the one it answers, else every call with that id (e.g. made later). */
export function callsFor(model: LinkedCalls, output: LinkedOutput): readonly LinkedCall[] {
  if (output.answers) return [output.answers];
  if (output.callId === undefined) return [];
  return model.callsById.get(output.callId) ?? [];
}
