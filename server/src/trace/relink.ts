/**
 * The links of an incrementally read trace whose edited event changed what it links by (its kind, its tool_call_id,
 * its calls or their ids): the edited event takes its place in the model's lists and indexes, the outputs naming no
 * call from it up to the next call answer the latest call before them again, and CallLinker links again the ids
 * whose links can change (the rules of linking are CallLinker's alone).
 * Those are the ids the edited event named before or names now, and the ids of the calls that outputs naming no
 * call answered before and answer now (whether a call is answered decides whether a later output naming its id is
 * ambiguous). Linking all 47,000 events of a 50 MB trace again took 60-400 ms.
 *
 * It sees the model through the few fields it reads and sets (model.ts imports it).
 */
import { CallLinker } from '../calls/links';
import type { LinkedCall, LinkedOutput } from '../calls/model';
import { firstAfter } from '../common/sorted';

/** What relinking reads and sets of a trace's calls (model.ts's ToolCall). */
interface RelinkedCall extends LinkedCall {
  event: RelinkedEvent;
  outputs: RelinkedEvent[];
}

/** What relinking reads and sets of a trace's events (model.ts's TraceEvent). */
interface RelinkedEvent extends LinkedOutput {
  kind: string;
  calls: RelinkedCall[];
  answers: RelinkedCall | null;
}

/** A trace model's lists and indexes of links (model.ts's TraceModel). */
interface RelinkedModel {
  events: RelinkedEvent[];
  calls: RelinkedCall[];
  outputs: RelinkedEvent[];
  callsById: Map<string, RelinkedCall[]>;
  outputsByCallId: Map<string, RelinkedEvent[]>;
}

/**
 * Puts `read` (the edited event's new reading, not linked) in the place of `old` (linked) in the model's events,
 * calls, outputs and indexes, and links what can link differently. The model's lists and indexes are those of the
 * version before, changed in place. `readIsImplicit`: `read` is an output naming no call, which answers the latest
 * call before it.
 */
export function relinkEdited(model: RelinkedModel, old: RelinkedEvent, read: RelinkedEvent, readIsImplicit: boolean): void {
  const edited = old.index;
  replaceCalls(model, old, read);
  replaceOutput(model, old, read, edited);
  const linked = new Set<string>();
  for (const event of [old, read]) {
    if (event.kind === 'output' && event.callId !== undefined) linked.add(event.callId);
    for (const call of event.calls) if (call.id !== undefined) linked.add(call.id);
  }
  reindex(model, old, read, linked);

  // The edited event's old reading answers nothing any more (the call it answered may be unanswered now).
  if (old.implicit && old.answers) detach(old.answers, old, linked);
  // Outputs naming no call answer the latest call before them: the edited event's own, and when its calls changed,
  // those after it up to the next event with calls (an event's output comes before its own calls).
  const implicit = readIsImplicit ? [read] : [];
  if (old.calls.length > 0 || read.calls.length > 0) {
    const events = model.events;
    for (let j = edited + 1; j < events.length; j++) {
      if (events[j].implicit) implicit.push(events[j]);
      if (events[j].calls.length > 0) break;
    }
  }
  model.events[edited] = read;
  CallLinker.relink(model, linked, implicit);
}

/** The edited event's calls in the place of its old ones among all calls, the calls after them numbered again. */
function replaceCalls(model: RelinkedModel, old: RelinkedEvent, read: RelinkedEvent): void {
  const calls = model.calls;
  const first = old.calls.length > 0 ? old.calls[0].index : firstAfter(calls, (call) => call.event.index, old.index);
  model.calls = replaced(calls, first, old.calls.length, read.calls);
  if (read.calls.length !== old.calls.length) {
    for (let i = first + read.calls.length; i < model.calls.length; i++) model.calls[i].index = i;
  }
  for (let i = 0; i < read.calls.length; i++) read.calls[i].index = first + i;
}

function replaceOutput(model: RelinkedModel, old: RelinkedEvent, read: RelinkedEvent, edited: number): void {
  if (old.kind !== 'output' && read.kind !== 'output') return;
  const at = firstAfter(model.outputs, (output) => output.index, edited - 1);
  model.outputs = replaced(model.outputs, at, old.kind === 'output' ? 1 : 0, read.kind === 'output' ? [read] : []);
}

/** The calls and outputs of the ids the edited event names, before and after, indexed again. */
function reindex(model: RelinkedModel, old: RelinkedEvent, read: RelinkedEvent, ids: Set<string>): void {
  for (const id of ids) {
    const calls = (model.callsById.get(id) ?? []).filter((call) => call.event !== old);
    for (const call of read.calls) if (call.id === id) calls.push(call);
    calls.sort((a, b) => a.index - b.index);
    if (calls.length > 0) model.callsById.set(id, calls);
    else model.callsById.delete(id);
    const outputs = (model.outputsByCallId.get(id) ?? []).filter((output) => output !== old);
    if (read.kind === 'output' && read.callId === id) outputs.splice(firstAfter(outputs, (output) => output.index, read.index - 1), 0, read);
    if (outputs.length > 0) model.outputsByCallId.set(id, outputs);
    else model.outputsByCallId.delete(id);
  }
}

/** An output naming no call no longer answers `call`. */
function detach(call: RelinkedCall, output: RelinkedEvent, linked: Set<string>): void {
  const at = call.outputs.indexOf(output);
  if (at >= 0) call.outputs = replaced(call.outputs, at, 1, []);
  if (call.id !== undefined) linked.add(call.id);
}

/** `list` with `count` items from `start` replaced by `items`: in place unless `items` is too long to spread. */
function replaced<T>(list: T[], start: number, count: number, items: readonly T[]): T[] {
  if (items.length < 10_000) {
    list.splice(start, count, ...items);
    return list;
  }
  return list.slice(0, start).concat(items, list.slice(start + count));
}
