/**
 * The model of linked calls that every trace format feeds: the steps of a conversation in file order (an event of
 * an Invariant trace, a record of a Claude Code session, …), the tool calls made in them, the outputs that answer
 * those calls, and the links between the two, all with source spans. Each format's reader builds its own objects
 * (they keep what is particular to the format) that satisfy these interfaces; the features that are about calls
 * and outputs (calls/*.ts: definition, references, highlights, rename, hover on ids, link problems, inlay hints,
 * code lenses) are written once over them.
 *
 * A document may hold several conversations (a dataset's lines, the samples of an evaluation log): each is a
 * LinkedCalls of its own, and the format's service hands the one under the cursor to these features.
 */
import type { TextSource } from '../common/textSource';
import type { Severity, Span } from '../common/types';
import type { TokenUsage } from '../../../shared/format';

export type { TokenUsage };

/** One unit of the conversation in file order: an event, a record. Steps do not overlap and are sorted by span. */
export interface CallStep {
  /** Position among the steps of the conversation (the trace's event number). */
  readonly index: number;
  readonly span: Span;
  /** The calls made in this step, in order. */
  readonly calls: readonly LinkedCall[];
  /** The outputs this step holds, in order. */
  readonly heldOutputs: readonly LinkedOutput[];
  /** Set on steps of an abandoned branch (a rewound or forked conversation): shown faded, never the live run. */
  readonly abandoned?: boolean;
  /** When the step was written, in milliseconds since the epoch, where the format records it. */
  readonly time?: number;
  /** When the step ended, where the format records it (a span's end): the conversation's duration runs to the latest. */
  readonly endTime?: number;
  /** The tokens of the model request this step reports, where the format records them (counted once per request). */
  readonly usage?: TokenUsage;
  /** What the step's model request cost in US dollars, where the format records it (any-agent's spans, agentguard's entries). */
  readonly cost?: number;
}

export interface LinkedCall {
  /** Position among all calls of the conversation, in file order. */
  index: number;
  readonly step: CallStep;
  /** The call as a whole (the call object, the tool_use block). */
  readonly span: Span;
  /** The id, when the call has a string one. */
  readonly id?: string;
  /** The id's literal, quotes included. */
  readonly idSpan?: Span;
  /** The tool's name, when it is a string. */
  readonly name?: string;
  readonly nameSpan?: Span;
  /** The outputs that answer this call, in file order. */
  outputs: LinkedOutput[];
  /** How long the call ran, where the format records it directly (the span of the tool's run); else see callDuration. */
  durationMs?: number;
}

export interface LinkedOutput {
  /** Grows in file order (the trace: the event number), so outputs sort by it. */
  readonly index: number;
  readonly step: CallStep;
  /** The output as a whole. */
  readonly span: Span;
  /** The id naming the call it answers, when it names one with a string. */
  readonly callId?: string;
  /** That id's literal, quotes included. */
  readonly idSpan?: Span;
  /** Where the output says what it answers: its id, or for an output that names none, a place the format chooses. */
  readonly linkSpan: Span;
  /** The call it answers: the latest call before it with its id, or (implicit) the latest call before it. */
  answers: LinkedCall | null;
  /** It names no call and answers the latest call before it (the Invariant analyzer's rule). */
  implicit: boolean;
  /**
   * The file does not say which call it answers, and the format inferred it (spans linked by nesting and order): how,
   * in a sentence hovers show.
   */
  inferred?: string;
  /**
   * For an output naming an id: the calls with that id still unanswered when it came, when there are two or more
   * (it is linked to the latest, but the file does not say which one it answers).
   */
  ambiguous?: LinkedCall[];
  /** The output reports a failure of its tool (`is_error`, an error status). */
  readonly isError?: boolean;
}

/** The calls and outputs of one conversation, linked, with what the shared features need to find and name them. */
export interface LinkedCalls {
  readonly text: TextSource;
  readonly steps: readonly CallStep[];
  readonly calls: readonly LinkedCall[];
  /** Every output, in file order. */
  readonly outputs: readonly LinkedOutput[];
  readonly callsById: ReadonlyMap<string, readonly LinkedCall[]>;
  /** Every output naming an id, by that id (linked or not), in file order. */
  readonly outputsByCallId: ReadonlyMap<string, readonly LinkedOutput[]>;
  readonly format: CallFormat;
}

/**
 * How a format names its parts in messages and hovers, and renders them. Functions take the model they belong to
 * (each format's functions read their own model's kind of objects).
 */
export interface CallFormat {
  /** Problem codes start with it: `trace` gives `trace/unknown-call-id`. */
  readonly codePrefix: string;
  /** The whole conversation: `trace`, `session`. */
  readonly whole: string;
  /** The key an output names its call by: `tool_call_id`, `tool_use_id`. */
  readonly outputIdKey: string;
  /** A call and an output, in messages: `tool call` / `tool output`, `tool_use` / `tool_result`. */
  readonly callWord: string;
  readonly outputWord: string;
  /** A step, in counts (`events with calls`): `event`, `record`. */
  readonly stepWord: string;
  /** A step in messages and hovers (`event #3`, `line 12`), several (`events #1, #3`), and in inlay hints (`#3`, `L12`). */
  stepName(step: CallStep): string;
  stepsName(steps: readonly CallStep[]): string;
  stepShort(step: CallStep): string;
  /** `name(args)` for a call, at most max characters. */
  callLabel(model: LinkedCalls, call: LinkedCall, max: number): string;
  /** The text of an output's content, decoded up to max characters, and its whole length. */
  outputText(model: LinkedCalls, output: LinkedOutput, max: number): { text: string; length: number };
  /** Why ids cannot be renamed in this format (they are not the user's), when they cannot. */
  readonly renameRefusal?: string;
  /**
   * How an unanswered call is reported when not as plain information: with a note on why (the run was interrupted),
   * or not at all (null: it lies on an abandoned branch). Undefined: the plain information.
   */
  unanswered?(model: LinkedCalls, call: LinkedCall): { severity: Severity; note: string } | null | undefined;
  /**
   * What to say of an output whose id names no call, beyond that it names none: the usual cause (an output naming
   * the call's item id instead of its call id, with the right id as `suggestion`) or what the writing tool does with
   * such an output. Undefined: nothing more.
   */
  unknownCallId?(model: LinkedCalls, output: LinkedOutput): UnknownCallNote | undefined;
  /**
   * The tokens of the whole conversation when the format records a running total (it then counts what the steps'
   * usage may miss, such as requests before a compaction); undefined: the steps' usage summed.
   */
  totalUsage?(model: LinkedCalls): TokenUsage | undefined;
}

export interface UnknownCallNote {
  /** Said after the message that the id names no call. */
  note: string;
  /** When the call may well be elsewhere (a stored conversation the file continues): less than the error it is otherwise. */
  severity?: Severity;
  /** The id the output most likely means (a quick fix offers it). */
  suggestion?: string;
  related?: { span: Span; message: string }[];
}
