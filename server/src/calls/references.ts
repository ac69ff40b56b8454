/** References and highlights of a call id: the call and the outputs answering it, from either side. */
import type { Highlight, Target } from '../common/types';
import type { LinkedCall, LinkedCalls, LinkedOutput } from './model';
import { callsFor, linkAt } from './locate';
import { spanOf } from '../common/spans';

export interface LinkGroup {
  calls: readonly LinkedCall[];
  outputs: LinkedOutput[];
}

/** The calls and outputs linked to the id under the offset, from either side. */
export function linkGroupAt(model: LinkedCalls, offset: number): LinkGroup | undefined {
  const end = linkAt(model, offset);
  if (!end) return undefined;
  const calls = end.kind === 'output' ? callsFor(model, end.output) : [end.call];
  const id = end.kind === 'output' ? end.output.callId : end.call.id;
  const outputs = new Set<LinkedOutput>();
  for (const call of calls) for (const output of call.outputs) outputs.add(output);
  // Outputs naming the id link to the latest call with it (the analyzer's rule), so a reused id groups only the
  // outputs each call answers; outputs that answer none (named before any call) join the first call's group.
  const first = id !== undefined ? model.callsById.get(id)?.[0] : undefined;
  if (id !== undefined && (!first || calls.includes(first))) {
    for (const output of model.outputsByCallId.get(id) ?? []) if (!output.answers) outputs.add(output);
  }
  if (end.kind === 'output') outputs.add(end.output);
  return { calls, outputs: [...outputs].sort((a, b) => a.index - b.index) };
}

export function references(model: LinkedCalls, offset: number, includeDeclaration: boolean): Target[] {
  const group = linkGroupAt(model, offset);
  if (!group) return [];
  const targets: Target[] = [];
  if (includeDeclaration) for (const call of group.calls) targets.push({ span: spanOf(call.idSpan ?? call.span) });
  for (const output of group.outputs) targets.push({ span: spanOf(output.linkSpan) });
  return targets;
}

/** A call's id (write) and the outputs answering it (read), from either side. */
export function highlights(model: LinkedCalls, offset: number): Highlight[] {
  const group = linkGroupAt(model, offset);
  if (!group) return [];
  const found: Highlight[] = [];
  for (const call of group.calls) if (call.idSpan) found.push({ span: spanOf(call.idSpan), kind: 'write' });
  for (const output of group.outputs) found.push({ span: spanOf(output.linkSpan), kind: 'read' });
  return found;
}
