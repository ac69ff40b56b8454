/** The model of a Codex rollout (built by rollout.ts): its records as steps, its calls and outputs, its UI events. */
import type { Span } from '../../common/types';
import type { CallStep, LinkedCall, LinkedCalls, LinkedOutput, TokenUsage } from '../../calls/model';
import type { CallFacts, ItemFacts, OutputFacts } from '../../responses/itemFacts';
import type { Line, LinesModel } from '../lines';
import type { RolloutFacts } from './records';

/**
 * What a record is in the conversation. `prompt`: a message the user typed; `context`: a user-role message Codex
 * writes itself (environment, instructions); `echo`: a UI event repeating another record; `call-echo`: a UI event
 * reporting a call; `usage`: a token count; `marker`: any other event (a turn started, aborted, …).
 */
export type RecordRole =
  | 'meta' | 'turn' | 'prompt' | 'context' | 'message' | 'reasoning' | 'call' | 'output' | 'compaction' | 'item'
  | 'echo' | 'call-echo' | 'usage' | 'marker' | 'other';

export interface RolloutStep extends CallStep {
  /** The line number (steps are named by their line). */
  readonly index: number;
  readonly span: Span;
  readonly line: Line;
  readonly facts: RolloutFacts;
  role: RecordRole;
  calls: RolloutCall[];
  heldOutputs: RolloutOutput[];
  time?: number;
  usage?: TokenUsage;
  /** An echo: the record it repeats (null when no record of the file holds what it repeats). */
  repeats?: RolloutStep | null;
  /** A token count: the record its tokens are counted on (the model's last record before it), if any. */
  countedOn?: RolloutStep;
  /** A record the tokens of a token count are counted on: that count. */
  countedFrom?: RolloutStep;
}

export interface RolloutCall extends LinkedCall {
  readonly step: RolloutStep;
  readonly item: ItemFacts;
  readonly facts: CallFacts;
  /** The `arguments`, `input` or `action` value. */
  readonly argsSpan?: Span;
  outputs: RolloutOutput[];
  /** The UI events that report this call (`exec_command_end`, …), which are not outputs. */
  reports: RolloutStep[];
}

export interface RolloutOutput extends LinkedOutput {
  readonly step: RolloutStep;
  readonly facts: OutputFacts;
  /** The `output` value. */
  readonly outputSpan?: Span;
  answers: RolloutCall | null;
}

export interface RolloutModel extends LinkedCalls {
  readonly lines: LinesModel;
  readonly steps: RolloutStep[];
  readonly calls: RolloutCall[];
  readonly outputs: RolloutOutput[];
  readonly callsById: Map<string, RolloutCall[]>;
  readonly outputsByCallId: Map<string, RolloutOutput[]>;
  /** The session_meta record. */
  readonly meta?: RolloutStep;
  /** The last running total of tokens a token count recorded. */
  totalUsage?: TokenUsage;
  /** UI events that repeat or report other records (never counted as the conversation's own). */
  echoes: number;
}

/** A span relative to a line made absolute. */
export function absolute(line: Line, span: Span | undefined): Span | undefined {
  return span && { start: line.start + span.start, end: line.start + span.end };
}
