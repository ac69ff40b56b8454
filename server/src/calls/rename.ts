/**
 * Rename of a call id, from the call's id or from an output naming it: the call and the outputs that answer it
 * change together. A reused id links each output to the latest call with it (the analyzer's rule), so only this
 * call's outputs follow; the other call with the same id keeps its own. A rename never makes such a reuse: an id
 * another call already has is refused. Formats whose ids are not the user's to choose (written by a tool or an
 * API) refuse, saying why.
 */
import type { RenameResult, Span } from '../common/types';
import type { TextSource } from '../common/textSource';
import type { LinkedCall, LinkedCalls } from './model';
import { linkAt, stepAt } from './locate';

type Renamed = { call: LinkedCall; at: Span } | { refusal: string };

function renamedAt(model: LinkedCalls, offset: number): Renamed | undefined {
  const end = linkAt(model, offset);
  const format = model.format;
  if (!end) {
    return stepAt(model, offset) && !format.renameRefusal
      ? { refusal: `Only a ${format.callWord} id can be renamed in a ${format.whole}: place the cursor on a call's "id" or on a "${format.outputIdKey}"` }
      : undefined;
  }
  if (format.renameRefusal) return { refusal: format.renameRefusal };
  if (end.kind === 'call') return { call: end.call, at: end.span };
  const call = end.output.answers;
  if (!call || end.output.implicit) {
    return { refusal: `This ${format.outputIdKey} names no earlier ${format.callWord}, so there is nothing to rename with it: change the id itself (a quick fix offers the calls it may answer)` };
  }
  if (call.id === undefined || !call.idSpan) return { refusal: 'The call this output answers has no string id to rename' };
  return { call, at: end.span };
}

/**
 * The id's characters: between its quotes, or after its opening quote to the line's end when the string is not closed
 * (its last quote is then missing, or escaped by an odd run of backslashes).
 */
function inside(text: TextSource, literal: Span): Span {
  const start = literal.start + 1;
  let closed = literal.end - 1 >= start && text.charCodeAt(literal.end - 1) === 0x22;
  if (closed) for (let i = literal.end - 2; i >= start && text.charCodeAt(i) === 0x5c; i--) closed = !closed;
  return { start, end: closed ? literal.end - 1 : Math.max(start, literal.end) };
}

export function prepareRename(model: LinkedCalls, offset: number): Span | null {
  const found = renamedAt(model, offset);
  return found && 'call' in found ? inside(model.text, found.at) : null;
}

/** Why nothing can be renamed at the offset (shown by the editor), when something there looks renamable. */
export function renameRefusal(model: LinkedCalls, offset: number): string | undefined {
  const found = renamedAt(model, offset);
  return found && 'refusal' in found ? found.refusal : undefined;
}

export function rename(model: LinkedCalls, offset: number, newName: string): RenameResult | null {
  const found = renamedAt(model, offset);
  if (!found) return null;
  if ('refusal' in found) return found;
  const format = model.format;
  if (newName.length === 0) return { refusal: `A ${format.callWord} id cannot be empty` };
  const taken = model.callsById.get(newName)?.find((other) => other !== found.call);
  if (taken) {
    const name = taken.name !== undefined ? `${taken.name}, ` : '';
    return {
      refusal: `Another ${format.callWord} of this ${format.whole} already has the id ${JSON.stringify(newName)} (${name}in ${format.stepName(taken.step)}): two calls with one id would make their outputs ambiguous`,
    };
  }
  const newText = JSON.stringify(newName).slice(1, -1);
  const edits = [{ span: inside(model.text, found.call.idSpan!), newText }];
  for (const output of found.call.outputs) {
    if (!output.implicit && output.callId !== undefined && output.idSpan) edits.push({ span: inside(model.text, output.idSpan), newText });
  }
  return { edits };
}

/**
 * Rename for a format whose document holds several conversations (the samples of a log, the conversations of a
 * JSON Lines file): each feature works in the conversation holding the offset, and finds nothing outside one.
 */
export function renameInConversations<M>(conversationAt: (model: M, offset: number) => LinkedCalls | undefined): {
  prepareRename(model: M, offset: number): Span | null;
  renameRefusal(model: M, offset: number): string | undefined;
  rename(model: M, offset: number, newName: string): RenameResult | null;
} {
  return {
    prepareRename: (model, offset) => {
      const conversation = conversationAt(model, offset);
      return conversation ? prepareRename(conversation, offset) : null;
    },
    renameRefusal: (model, offset) => {
      const conversation = conversationAt(model, offset);
      return conversation ? renameRefusal(conversation, offset) : undefined;
    },
    rename: (model, offset, newName) => {
      const conversation = conversationAt(model, offset);
      return conversation ? rename(conversation, offset, newName) : null;
    },
  };
}

/** How often each tool is called in these conversations, for the workspace's tool index. */
export function countCalledTools(conversations: Iterable<LinkedCalls>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const conversation of conversations) for (const call of conversation.calls) if (call.name) counts.set(call.name, (counts.get(call.name) ?? 0) + 1);
  return counts;
}
