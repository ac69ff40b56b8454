/**
 * The links of an incrementally read trace whose edited event changed what it links by (its kind, its tool_call_id,
 * its calls or their ids): only what can link differently is linked again, as CallLinker links a full read. That is
 * the calls and outputs naming an id the edited event named before or names now, the outputs naming no id that
 * follow it up to the next call (they answer the latest call before them), and the calls and outputs naming the
 * ids of the calls those answered before and answer now (whether a call is answered decides whether a later output
 * naming its id is ambiguous). Linking all 47,000 events of a 50 MB trace again took 60-400 ms.
 *
 * It sees the model through the few fields it reads and sets (model.ts imports it).
 */

/** What relinking reads and sets of a trace's calls (model.ts's ToolCall). */
interface RelinkedCall {
  index: number;
  id: string | undefined;
  event: RelinkedEvent;
  outputs: RelinkedEvent[];
}

/** What relinking reads and sets of a trace's events (model.ts's TraceEvent). */
interface RelinkedEvent {
  index: number;
  kind: string;
  callId: string | undefined;
  calls: RelinkedCall[];
  answers: RelinkedCall | null;
  implicit: boolean;
  ambiguous?: RelinkedCall[];
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

  // Outputs naming no call answer the latest call before them: the edited event's own, and when its calls changed,
  // those after it up to the next event with calls (an event's output comes before its own calls).
  if (old.implicit && old.answers) detach(old.answers, old, linked);
  if (readIsImplicit) {
    read.implicit = true;
    read.answers = latestCallBefore(model.calls, edited);
    if (read.answers) attach(read.answers, read, linked);
  }
  if (old.calls.length > 0 || read.calls.length > 0) {
    const events = model.events;
    const latest = read.calls.length > 0 ? read.calls[read.calls.length - 1] : latestCallBefore(model.calls, edited);
    for (let j = edited + 1; j < events.length; j++) {
      const event = events[j];
      if (event.implicit && event.answers !== latest) {
        if (event.answers) detach(event.answers, event, linked);
        event.answers = latest;
        if (latest) attach(latest, event, linked);
      }
      if (event.calls.length > 0) break;
    }
  }
  model.events[edited] = read;
  for (const id of linked) linkId(model, id);
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

/**
 * Links the calls with this id and the outputs naming it again, in trace order, as CallLinker does: an output answers
 * the latest call before it with its id, and is ambiguous when two or more of those are still unanswered then (by
 * any output, those naming no call included, whose links are already set).
 */
function linkId(model: RelinkedModel, id: string): void {
  const calls = model.callsById.get(id) ?? [];
  const outputs = model.outputsByCallId.get(id) ?? [];
  const steps: { at: number; call?: RelinkedCall; output?: RelinkedEvent }[] = [];
  for (const call of calls) {
    for (const output of call.outputs) if (output.implicit) steps.push({ at: 2 * output.index, output });
    call.outputs = [];
    steps.push({ at: 2 * call.event.index + 1, call });
  }
  for (const output of outputs) {
    output.answers = null;
    if (output.ambiguous) output.ambiguous = undefined;
    steps.push({ at: 2 * output.index, output });
  }
  // An event's output comes before its calls; calls of one event keep their order (the sort is stable).
  steps.sort((a, b) => a.at - b.at);
  const seen: RelinkedCall[] = [];
  for (const step of steps) {
    if (step.call) {
      seen.push(step.call);
      continue;
    }
    const output = step.output!;
    if (output.implicit) {
      output.answers!.outputs.push(output);
      continue;
    }
    const latest = seen[seen.length - 1];
    if (!latest) continue;
    const unanswered = seen.filter((call) => call.outputs.length === 0);
    if (unanswered.length > 1) output.ambiguous = unanswered;
    output.answers = latest;
    latest.outputs.push(output);
  }
}

/** An output naming no call no longer answers `call`. */
function detach(call: RelinkedCall, output: RelinkedEvent, linked: Set<string>): void {
  const at = call.outputs.indexOf(output);
  if (at >= 0) call.outputs = replaced(call.outputs, at, 1, []);
  if (call.id !== undefined) linked.add(call.id);
}

/** An output naming no call now answers `call`, among its outputs in trace order. */
function attach(call: RelinkedCall, output: RelinkedEvent, linked: Set<string>): void {
  call.outputs = replaced(call.outputs, firstAfter(call.outputs, (each) => each.index, output.index - 1), 0, [output]);
  if (call.id !== undefined) linked.add(call.id);
}

/** The last call of the events before `index`. */
function latestCallBefore(calls: RelinkedCall[], index: number): RelinkedCall | null {
  const at = firstAfter(calls, (call) => call.event.index, index - 1);
  return at > 0 ? calls[at - 1] : null;
}

/** The position of the first item whose key is above `key`, in a list in order of its keys. */
function firstAfter<T>(list: readonly T[], keyOf: (item: T) => number, key: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keyOf(list[mid]) > key) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** `list` with `count` items from `start` replaced by `items`: in place unless `items` is too long to spread. */
function replaced<T>(list: T[], start: number, count: number, items: readonly T[]): T[] {
  if (items.length < 10_000) {
    list.splice(start, count, ...items);
    return list;
  }
  return list.slice(0, start).concat(items, list.slice(start + count));
}
