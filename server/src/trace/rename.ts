/**
 * Rename of a tool call id, from the call's `id` or from a `tool_call_id` naming it: the call and the outputs that
 * answer it change together. A reused id links each output to the latest call with it (the analyzer's rule), so
 * only this call's outputs follow; the other call with the same id keeps its own.
 */
import type { Span, TextEditSpan } from '../common/types';
import { eventAt, field, type JsonValue, type ToolCall, type TraceModel } from './model';
import { referenceAt } from './locate';

type Renamed = { call: ToolCall; at: JsonValue } | { refusal: string };

function renamedAt(model: TraceModel, offset: number): Renamed | undefined {
  const ref = referenceAt(model, offset);
  if (!ref) {
    return eventAt(model, offset)
      ? { refusal: 'Only a tool call id can be renamed in a trace: place the cursor on a call\'s "id" or on a "tool_call_id"' }
      : undefined;
  }
  if (ref.kind === 'call-id') return { call: ref.call!, at: ref.call!.idField!.value! };
  const call = ref.event.answers;
  if (!call || ref.event.implicit) {
    return { refusal: `This tool_call_id names no earlier tool call, so there is nothing to rename with it: change the id itself (a quick fix offers the calls it may answer)` };
  }
  if (!call.idField?.value || call.idField.value.kind !== 'string') return { refusal: 'The call this output answers has no string id to rename' };
  return { call, at: field(ref.event.fields, 'tool_call_id')!.value! };
}

/** The id's text between its quotes. */
function inside(value: JsonValue): Span {
  return { start: value.start + 1, end: Math.max(value.start + 1, value.end - 1) };
}

export function prepareRename(model: TraceModel, offset: number): Span | null {
  const found = renamedAt(model, offset);
  return found && 'call' in found ? inside(found.at) : null;
}

/** Why nothing can be renamed at the offset (shown by the editor), when something there looks renamable. */
export function renameRefusal(model: TraceModel, offset: number): string | undefined {
  const found = renamedAt(model, offset);
  return found && 'refusal' in found ? found.refusal : undefined;
}

export function rename(model: TraceModel, offset: number, newName: string): TextEditSpan[] | null {
  const found = renamedAt(model, offset);
  if (!found || !('call' in found) || newName.length === 0) return null;
  const newText = JSON.stringify(newName).slice(1, -1);
  const edits: TextEditSpan[] = [{ span: inside(found.call.idField!.value!), newText }];
  for (const output of found.call.outputs) {
    const named = field(output.fields, 'tool_call_id')?.value;
    if (!output.implicit && named?.kind === 'string') edits.push({ span: inside(named), newText });
  }
  return edits;
}
