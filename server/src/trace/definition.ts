import type { Target } from '../common/types';
import { eventAt, field, valueSpan, type ToolCall, type TraceEvent, type TraceModel } from './model';
import { callsFor, referenceAt } from './locate';

/** Where an output's answer link starts: its tool_call_id value, or its role value when the link is implicit. */
export function outputLinkSpan(output: TraceEvent): { start: number; end: number } {
  const id = field(output.fields, 'tool_call_id')?.value;
  if (id) return valueSpan(id);
  const role = field(output.fields, 'role');
  return role?.value ? valueSpan(role.value) : { start: output.value.start, end: output.value.start + 1 };
}

export function callTarget(call: ToolCall): Target {
  const target: Target = { span: valueSpan(call.value) };
  const id = call.idField?.value;
  target.selection = id ? valueSpan(id) : call.nameField?.value ? valueSpan(call.nameField.value) : { start: call.value.start, end: call.value.start };
  return target;
}

export function outputTarget(output: TraceEvent): Target {
  return { span: valueSpan(output.value), selection: outputLinkSpan(output) };
}

/** tool_call_id → the call it names; a call's id → the outputs answering it; an implicit output's role → its call. */
export function definition(model: TraceModel, offset: number): Target[] {
  const ref = referenceAt(model, offset);
  if (ref?.kind === 'tool-call-id') return callsFor(model, ref.event).map(callTarget);
  if (ref?.kind === 'call-id' && ref.call) return ref.call.outputs.map(outputTarget);
  const event = eventAt(model, offset);
  if (event?.kind === 'output' && event.implicit && event.answers) {
    const role = field(event.fields, 'role')?.value;
    if (role && offset >= role.start && offset <= role.end) return [callTarget(event.answers)];
  }
  return [];
}
