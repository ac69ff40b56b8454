/**
 * Links outputs to calls as the Invariant analyzer does, for every format: an output naming an id answers the
 * latest call before it with that id (and is ambiguous when two or more of those are still unanswered then); one
 * naming none (where the format allows it) answers the latest call before it. A full read adds calls and outputs in
 * file order; after an edit, `relink` links again only the calls and outputs of the ids it is given, by the same
 * rules, so that relinking every id gives the links of a full read.
 */
import type { LinkedCall, LinkedOutput } from './model';
import { firstAfter } from '../common/sorted';

/** Where the linker records what it found (a format's model). */
export interface LinkIndexes<C extends LinkedCall, O extends LinkedOutput> {
  calls: C[];
  outputs: O[];
  callsById: Map<string, C[]>;
  outputsByCallId: Map<string, O[]>;
}

export class CallLinker<C extends LinkedCall, O extends LinkedOutput> {
  private latestCall: C | null = null;

  /**
   * A linker for a full read: calls and outputs are added in file order, indexed and linked as they come.
   * `earlierById`: the calls linked so far, by id, in file order: in a full read the index's own lists (a call is
   * indexed as it comes), in a relink lists of its own.
   */
  constructor(private readonly into: LinkIndexes<C, O>, private readonly earlierById: Map<string, C[]> = into.callsById) {}

  /**
   * Links again, after an edit brought the indexes up to date (the calls numbered in file order and indexed by id,
   * the outputs indexed), the calls with these ids and the outputs naming them, and first the outputs naming no
   * call given in `implicitOutputs`, to the latest call before each (the ids of the calls they answered and answer
   * now are linked again too: whether a call is answered decides whether a later output naming its id is
   * ambiguous). Calls and outputs are taken in file order, a step's outputs before its calls, as a full read adds
   * them; links of other ids are left as they are, so relinking every id gives the links of a full read.
   */
  static relink<C extends LinkedCall, O extends LinkedOutput>(into: LinkIndexes<C, O>, ids: Iterable<string>, implicitOutputs: readonly O[] = []): void {
    const relinked = new Set(ids);
    for (const output of implicitOutputs) {
      output.implicit = true;
      const latest = latestCallBefore(into.calls, output.step.index);
      if (output.answers === latest) continue;
      if (output.answers) {
        const listed = output.answers.outputs;
        const at = listed.indexOf(output);
        if (at >= 0) listed.splice(at, 1);
        if (output.answers.id !== undefined) relinked.add(output.answers.id);
      }
      output.answers = latest;
      if (!latest) continue;
      latest.outputs.splice(firstAfter(latest.outputs, (each) => each.step.index, output.step.index), 0, output);
      if (latest.id !== undefined) relinked.add(latest.id);
    }
    const linker = new CallLinker(into, new Map<string, C[]>());
    for (const id of relinked) linker.relinkId(id);
  }

  /** An output, in file order. `implicit`: it names no call, so it answers the latest call before it. */
  output(output: O, implicit: boolean): void {
    this.into.outputs.push(output);
    const callId = output.callId;
    if (callId !== undefined) {
      const listed = this.into.outputsByCallId.get(callId);
      if (listed) listed.push(output);
      else this.into.outputsByCallId.set(callId, [output]);
      this.answerById(output, callId);
    } else if (implicit) {
      output.implicit = true;
      output.answers = this.latestCall;
      if (this.latestCall) answered(this.latestCall, output);
    }
  }

  /** A call, in file order: numbered, indexed by its id. */
  call(call: C): void {
    call.index = this.into.calls.length;
    this.into.calls.push(call);
    if (call.id !== undefined) this.earlier(call.id, call);
    this.latestCall = call;
  }

  /** An output naming `callId` answers the latest call before it with that id, if any. */
  private answerById(output: O, callId: string): void {
    const earlier = this.earlierById.get(callId);
    if (!earlier) return;
    const call = earlier[earlier.length - 1];
    // Counted first: the list is made only for the rare output that is ambiguous.
    let unanswered = 0;
    for (let i = 0; i < earlier.length; i++) if (earlier[i].outputs.length === 0) unanswered++;
    if (unanswered > 1) output.ambiguous = earlier.filter((c) => c.outputs.length === 0);
    output.answers = call;
    answered(call, output);
  }

  private earlier(id: string, call: C): void {
    const listed = this.earlierById.get(id);
    if (listed) listed.push(call);
    else this.earlierById.set(id, [call]);
  }

  /** The calls with this id and the outputs naming it, their links cleared and made again in file order. */
  private relinkId(id: string): void {
    const steps: { at: number; call?: C; output?: LinkedOutput }[] = [];
    for (const call of this.into.callsById.get(id) ?? []) {
      // The outputs naming no call that answer it keep their link, and answer it again at their place.
      for (const output of call.outputs) if (output.implicit) steps.push({ at: 2 * output.step.index, output });
      call.outputs = [];
      steps.push({ at: 2 * call.step.index + 1, call });
    }
    for (const output of this.into.outputsByCallId.get(id) ?? []) {
      output.answers = null;
      if (output.ambiguous) output.ambiguous = undefined;
      steps.push({ at: 2 * output.step.index, output });
    }
    // The sort is stable: a step's calls keep their order.
    steps.sort((a, b) => a.at - b.at);
    for (const step of steps) {
      if (step.call) this.earlier(id, step.call);
      else if (step.output!.implicit) answered(step.output!.answers!, step.output!);
      else this.answerById(step.output as O, id);
    }
  }
}

/**
 * `output` answers `call`, after its earlier outputs. A call's first output gets a list of one rather than a push
 * into its empty list, which would make room for 17 (most calls have one output).
 */
function answered<C extends LinkedCall>(call: C, output: LinkedOutput): void {
  if (call.outputs.length === 0) call.outputs = [output];
  else call.outputs.push(output);
}

/** The last call of the steps before step `stepIndex` (calls are numbered in file order). */
function latestCallBefore<C extends LinkedCall>(calls: readonly C[], stepIndex: number): C | null {
  const at = firstAfter(calls, (call) => call.step.index, stepIndex - 1);
  return at > 0 ? calls[at - 1] : null;
}
