/** The model of a Claude Code session (built by session.ts): its records as steps, its calls, outputs and subagent runs. */
import type { Span } from '../../common/types';
import type { CallStep, LinkedCall, LinkedCalls, LinkedOutput, TokenUsage } from '../../calls/model';
import type { Line, LinesModel } from '../lines';
import type { BlockFacts, RecordFacts, ToolResultFacts, ToolUseFacts } from './records';

export interface RecordStep extends CallStep {
  /** The line number (steps are named by their line). */
  readonly index: number;
  readonly span: Span;
  readonly line: Line;
  readonly facts: RecordFacts;
  calls: SessionCall[];
  heldOutputs: SessionOutput[];
  abandoned?: boolean;
  time?: number;
  usage?: TokenUsage;
  /** For an assistant line: the first line of the message it belongs to (several lines share one message.id). */
  messageHead?: RecordStep;
}

export interface SessionCall extends LinkedCall {
  readonly step: RecordStep;
  readonly block: BlockFacts;
  readonly tool: ToolUseFacts;
  /** The `input` value. */
  readonly inputSpan?: Span;
  outputs: SessionOutput[];
}

export interface SessionOutput extends LinkedOutput {
  readonly step: RecordStep;
  readonly block: BlockFacts;
  readonly result: ToolResultFacts;
  /** The `content` value. */
  readonly contentSpan?: Span;
  answers: SessionCall | null;
}

/**
 * A subagent run started by a `Task` call: its id, the progress records that echo its messages, and the calls and
 * results those echo, linked among themselves (they are the subagent's, not the conversation's).
 */
export interface SubagentRun {
  call: SessionCall;
  agentId?: string;
  echoes: RecordStep[];
  calls: SessionCall[];
  outputs: SessionOutput[];
}

export interface SessionModel extends LinkedCalls {
  readonly lines: LinesModel;
  readonly steps: RecordStep[];
  readonly calls: SessionCall[];
  readonly outputs: SessionOutput[];
  readonly callsById: Map<string, SessionCall[]>;
  readonly outputsByCallId: Map<string, SessionOutput[]>;
  readonly byUuid: Map<string, RecordStep>;
  /** Per Task call id. */
  readonly subagents: Map<string, SubagentRun>;
  /** Records that name a uuid as their parent, per that uuid. */
  readonly children: Map<string, RecordStep[]>;
  /** The records say who their parent is (newer versions): branches can be told apart. */
  readonly chained: boolean;
  /** The file is a subagent's (its records are on a side chain of another session). */
  readonly sidechain: boolean;
}

/** The head of the message a step belongs to: itself, or the first line of its split message. */
export function messageHeadOf(step: RecordStep): RecordStep {
  return step.messageHead ?? step;
}
