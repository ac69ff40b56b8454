/**
 * Rename of a tool call id, from the call's `id` or from a `tool_call_id` naming it: the call and the outputs that
 * answer it change together. A reused id links each output to the latest call with it (the analyzer's rule), so
 * only this call's outputs follow; the other call with the same id keeps its own. A rename never makes such a reuse:
 * an id another call already has is refused.
 */
import type { RenameResult, Span } from '../common/types';
import type { TextSource } from '../common/textSource';
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

/**
 * The id's characters: between its quotes, or after its opening quote to the line's end when the string is not closed
 * (its last quote is then missing, or escaped by an odd run of backslashes).
 */
function inside(text: TextSource, value: JsonValue): Span {
  const start = value.start + 1;
  let closed = value.end - 1 >= start && text.charCodeAt(value.end - 1) === 0x22;
  if (closed) for (let i = value.end - 2; i >= start && text.charCodeAt(i) === 0x5c; i--) closed = !closed;
  return { start, end: closed ? value.end - 1 : Math.max(start, value.end) };
}

export function prepareRename(model: TraceModel, offset: number): Span | null {
  const found = renamedAt(model, offset);
  return found && 'call' in found ? inside(model.text, found.at) : null;
}

/** Why nothing can be renamed at the offset (shown by the editor), when something there looks renamable. */
export function renameRefusal(model: TraceModel, offset: number): string | undefined {
  const found = renamedAt(model, offset);
  return found && 'refusal' in found ? found.refusal : undefined;
}

export function rename(model: TraceModel, offset: number, newName: string): RenameResult | null {
  const found = renamedAt(model, offset);
  if (!found) return null;
  if ('refusal' in found) return found;
  if (newName.length === 0) return { refusal: 'A tool call id cannot be empty' };
  const taken = model.callsById.get(newName)?.find((other) => other !== found.call);
  if (taken) {
    const name = taken.name !== undefined ? `${taken.name}, ` : '';
    return { refusal: `Another tool call of this trace already has the id ${JSON.stringify(newName)} (${name}in event ${taken.event.index}): two calls with one id would make their outputs ambiguous` };
  }
  const newText = JSON.stringify(newName).slice(1, -1);
  const edits = [{ span: inside(model.text, found.call.idField!.value!), newText }];
  for (const output of found.call.outputs) {
    const named = field(output.fields, 'tool_call_id')?.value;
    if (!output.implicit && named?.kind === 'string') edits.push({ span: inside(model.text, named), newText });
  }
  return { edits };
}
