/**
 * Links outputs to calls as the Invariant analyzer does, for every format: an output naming an id answers the
 * latest call before it with that id; one naming none (where the format allows it) answers the latest call before
 * it. Calls and outputs are added in file order.
 */
import type { LinkedCall, LinkedOutput } from './model';

/** Where the linker records what it found (a format's model). */
export interface LinkIndexes<C extends LinkedCall, O extends LinkedOutput> {
  calls: C[];
  outputs: O[];
  callsById: Map<string, C[]>;
  outputsByCallId: Map<string, O[]>;
}

export class CallLinker<C extends LinkedCall, O extends LinkedOutput> {
  private latestCall: C | null = null;
  private readonly earlierById = new Map<string, C>();

  constructor(private readonly into: LinkIndexes<C, O>) {}

  /** An output, in file order. `implicit`: it names no call, so it answers the latest call before it. */
  output(output: O, implicit: boolean): void {
    this.into.outputs.push(output);
    const callId = output.callId;
    if (callId !== undefined) {
      const listed = this.into.outputsByCallId.get(callId);
      if (listed) listed.push(output);
      else this.into.outputsByCallId.set(callId, [output]);
      const call = this.earlierById.get(callId);
      if (!call) return;
      const unanswered = this.into.callsById.get(callId)!.filter((c) => c.outputs.length === 0);
      if (unanswered.length > 1) output.ambiguous = unanswered;
      output.answers = call;
      call.outputs.push(output);
    } else if (implicit) {
      output.implicit = true;
      output.answers = this.latestCall;
      this.latestCall?.outputs.push(output);
    }
  }

  /** A call, in file order: numbered, indexed by its id. */
  call(call: C): void {
    call.index = this.into.calls.length;
    this.into.calls.push(call);
    if (call.id !== undefined) {
      const listed = this.into.callsById.get(call.id);
      if (listed) listed.push(call);
      else this.into.callsById.set(call.id, [call]);
      this.earlierById.set(call.id, call);
    }
    this.latestCall = call;
  }
}
