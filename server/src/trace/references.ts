import type { Target } from '../common/types';
import { valueSpan, type ToolCall, type TraceEvent, type TraceModel } from './model';
import { callsFor, referenceAt } from './locate';
import { outputLinkSpan } from './definition';

export interface LinkGroup {
  calls: ToolCall[];
  outputs: TraceEvent[];
}

/** The calls and outputs linked to the id under the offset, from either side. */
export function linkGroupAt(model: TraceModel, offset: number): LinkGroup | undefined {
  const ref = referenceAt(model, offset);
  if (!ref) return undefined;
  let calls: ToolCall[];
  let id: string | undefined;
  if (ref.kind === 'tool-call-id') {
    calls = callsFor(model, ref.event);
    id = ref.event.callId;
  } else {
    calls = ref.call ? [ref.call] : [];
    id = ref.call?.id;
  }
  const outputs = new Set<TraceEvent>();
  for (const call of calls) for (const output of call.outputs) outputs.add(output);
  // Outputs naming the id link to the latest call with it (the analyzer's rule), so a reused id groups only the
  // outputs each call answers; outputs that answer none (named before any call) join the first call's group.
  const first = id !== undefined ? model.callsById.get(id)?.[0] : undefined;
  if (id !== undefined && (!first || calls.includes(first))) {
    for (const output of model.outputsByCallId.get(id) ?? []) if (!output.answers) outputs.add(output);
  }
  if (ref.kind === 'tool-call-id') outputs.add(ref.event);
  const sorted = [...outputs].sort((a, b) => a.index - b.index);
  return { calls, outputs: sorted };
}

export function references(model: TraceModel, offset: number, includeDeclaration: boolean): Target[] {
  const group = linkGroupAt(model, offset);
  if (!group) return [];
  const targets: Target[] = [];
  if (includeDeclaration) {
    for (const call of group.calls) targets.push({ span: call.idField?.value ? valueSpan(call.idField.value) : valueSpan(call.value) });
  }
  for (const output of group.outputs) targets.push({ span: outputLinkSpan(output) });
  return targets;
}
