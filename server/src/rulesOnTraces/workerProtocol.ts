import type { RuleOnTrace, RulesOnTraceOptions, RulesOnTraceResult, StoppedRule } from './evaluateOnTrace';
import type { ReportOptions, TraceReport } from './traceReports';
import type { Comparison } from './compare';
import type { ResumePoint } from './tracesInText';

/**
 * What the evaluation worker is asked to do and what it answers: the messages between evaluationWorkers.ts (the
 * host, in the server or the CLI) and the worker (evaluationJob.ts runs the job there), and the board they share.
 * Types and the board only, so that the host does not load the evaluator. Free of Node and LSP types: a browser
 * build uses the same messages with a web worker.
 */

/** A rule file as the worker gets it: its text, parsed there (a parsed model does not cross threads). */
export interface RuleSource {
  uri: string;
  text: string;
}

export type EvaluationJob =
  | {
    kind: 'document';
    rules: RuleSource[];
    text: string;
    /** How the text holds traces (traceFormats.ts layoutName), and the document's path, which may decide how it is read. */
    layout: string;
    path: string;
    options: Pick<RulesOnTraceOptions, 'workBudget' | 'timeLimitMs' | 'maxViolations' | 'limitNames' | 'parameters'>;
  }
  | {
    kind: 'reports';
    rules: [RuleSource];
    /** The text, or its UTF-8 bytes (a streamed chunk as read: decoded in the worker, so that the host does not). */
    text: string | Uint8Array;
    layout: string;
    path: string;
    options: Omit<ReportOptions, 'from' | 'stopped' | 'watch' | 'flush'>;
  }
  | { kind: 'case'; rules: [RuleSource]; trace: unknown; options: CaseOptions }
  /** The old version of a rule file (first) and the new one on a document: the traces whose verdict flips. */
  | { kind: 'compare'; rules: [RuleSource, RuleSource]; text: string; layout: string; path: string; options: CaseOptions }
  /** "Why not here?": rule `ruleIndex` explained on the trace element at `offset` of the document `traceUri`. */
  | { kind: 'explain'; rules: [RuleSource]; text: string; layout: string; path: string; traceUri: string; offset: number; ruleIndex: number; options: CaseOptions };

/** An explanation as the editor shows it (Markdown whose links open `uri#Lline,column`), or why there is none. */
export type ExplainAnswer = { problem: string } | { span: { start: number; end: number }; wouldFire: boolean; markdown: string };

export interface CaseOptions {
  parameters: Record<string, unknown>;
  budget?: number;
  timeLimitMs?: number;
}

/**
 * One rule file evaluated on one trace (a rule test's case), as plain data: what the test runner matches against the
 * case's expectations, and places in the trace's text itself.
 */
export interface CaseEvaluation {
  /** The rule file does not load, whatever the trace (the analyzer's loader rejects it): nothing was evaluated. */
  notLoaded?: RuleFileFailure;
  failure?: RuleFileFailure;
  notices: { kind: 'not-evaluated' | 'budget' | 'error-limit' | 'timeout'; message: string; start: number }[];
  errors: CaseViolation[];
}

/** A failure, and where in the rule file it is (offsets; 0 and 0 when nowhere in particular). */
export interface RuleFileFailure {
  message: string;
  start: number;
  end: number;
}

export interface CaseViolation {
  ruleIndex: number;
  message: string | null;
  args: unknown[];
  key: string;
  raiseStart: number;
  /** The official addresses the violation is placed by (see GuardrailError.placeRanges). */
  placeRanges: string[];
  bindings: { variable: string; address: string }[];
}

/** What a job's parts are: a document's result, its traces' reports, a case's evaluation, or a comparison. */
export type PartOf<J extends EvaluationJob> = J extends { kind: 'document' } ? RulesOnTraceResult
  : J extends { kind: 'case' } ? CaseEvaluation : J extends { kind: 'compare' } ? Comparison : J extends { kind: 'explain' } ? ExplainAnswer
  : TraceReport[];

/** One attempt at a job: the first, or one after an attempt the host had to end (it goes on where that one was). */
export interface Attempt {
  id: number;
  job: EvaluationJob;
  from?: ResumePoint;
  stopped: StoppedRule[];
  /** The shared board the worker writes where it is to (see WatchBoard). */
  board: BoardMemory;
  /** `Date.now()` when the attempt was sent: the board's times count from it. */
  epoch: number;
}

export type WorkerMessage =
  | { id: number; type: 'part'; part: unknown; next: ResumePoint }
  | { id: number; type: 'done'; part: unknown }
  | { id: number; type: 'cancelled' }
  | { id: number; type: 'failed'; message: string };

/** Milliseconds of work between two parts sent to the host: what an ended attempt loses at most. */
export const partEveryMs = 100;

const RUNNING = 0;
const TRACE = 1;
const RULE_FILE = 2;
const RULE = 3;
const STARTED = 4;
const CANCEL = 5;
const SLOTS = 6;

/**
 * The board's memory: shared between the threads where the platform allows it (Node; a cross-origin isolated page),
 * else a copy each side holds, which the worker keeps current on the host's side by messages (boardCopies below).
 */
export type BoardMemory = SharedArrayBuffer | ArrayBuffer;

let copyListener: ((slots: Int32Array) => void) | undefined;

/**
 * Where memory cannot be shared (a web worker in a page that is not cross-origin isolated), the worker sends the host
 * each write of its board: `listener` gets the board after each. The host copies it into its own (BoardCopy); a
 * cancellation the host writes is then seen by the worker only when the job ends, and a rule that runs on is ended.
 */
export function boardCopies(listener: ((slots: Int32Array) => void) | undefined): void {
  copyListener = listener;
}

/** The host's side of a board the worker reports by messages: the worker's copy of the slots, written into the host's. */
export function copyBoard(into: BoardMemory, slots: Int32Array): void {
  new Int32Array(into).set(slots.subarray(0, CANCEL));
}

/**
 * Where the worker is, written by the worker as it goes and read by the host, which cannot ask (the worker may be
 * inside one long regular expression): the rule running and since when, or where it reads. The host writes one
 * thing: which attempt to cancel. Shared memory, so that neither waits for the other.
 */
export class WatchBoard {
  private readonly slots: Int32Array;

  readonly buffer: BoardMemory;

  /** A new board (nothing running), or the worker's view of the host's. */
  constructor(buffer?: BoardMemory) {
    this.buffer = buffer ?? (typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(SLOTS * 4) : new ArrayBuffer(SLOTS * 4));
    this.slots = new Int32Array(this.buffer);
    if (!buffer) this.reset();
  }

  /** After a write by the worker, where the board is a copy: the host is sent it. */
  private written(): void {
    if (copyListener && !(typeof SharedArrayBuffer === 'function' && this.buffer instanceof SharedArrayBuffer)) copyListener(this.slots);
  }

  /** Worker: the evaluation is at `unit` (a rule starting, or rule -1: no rule running). */
  enter(unit: RuleOnTrace, epoch: number): void {
    Atomics.store(this.slots, RUNNING, 0);
    Atomics.store(this.slots, TRACE, unit.trace);
    Atomics.store(this.slots, RULE_FILE, unit.ruleFile);
    Atomics.store(this.slots, RULE, unit.rule);
    if (unit.rule >= 0) {
      Atomics.store(this.slots, STARTED, Date.now() - epoch);
      Atomics.store(this.slots, RUNNING, 1);
    }
    this.written();
  }

  /** Before an attempt: nothing runs yet. */
  reset(): void {
    Atomics.store(this.slots, RUNNING, 0);
    Atomics.store(this.slots, TRACE, -1);
    this.written();
  }

  /** Host: where the worker is, whether a rule runs, and since when (ms after the attempt's epoch). */
  read(): { unit: RuleOnTrace | null; running: boolean; startedMs: number } {
    const trace = Atomics.load(this.slots, TRACE);
    const unit = trace < 0 ? null : { trace, ruleFile: Atomics.load(this.slots, RULE_FILE), rule: Atomics.load(this.slots, RULE) };
    return { unit, running: Atomics.load(this.slots, RUNNING) === 1, startedMs: Atomics.load(this.slots, STARTED) };
  }

  cancel(attempt: number): void {
    Atomics.store(this.slots, CANCEL, attempt);
  }

  isCancelled(attempt: number): boolean {
    return Atomics.load(this.slots, CANCEL) === attempt;
  }
}
