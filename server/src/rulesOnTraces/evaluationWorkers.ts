import { duration } from '../common/text';
import { fileNameOfUri } from '../common/uri';
import type { StoppedRule } from './evaluateOnTrace';
import {
  WatchBoard, type Attempt, type CaseEvaluation, type CaseOptions, type EvaluationJob, type PartOf, type RuleSource, type WorkerMessage,
} from './workerProtocol';
import type { ResumePoint } from './tracesInText';
import type { EvaluationWorkerPort, WorkerExit, WorkerLauncher } from './workerLauncher';

/**
 * Rules evaluated off the caller's thread, bounded in time: jobs run one at a time on a worker. A rule checks its
 * own time limit as it goes, but a single regular expression or builtin cannot be interrupted from inside; so the
 * host watches the shared board, and a rule still running `graceMs` past its limit has its worker ended and
 * replaced. The next attempt goes on from the last part received, with that rule reported as stopped. A worker that
 * runs out of memory is replaced the same way, its rule reported as a MemoryError.
 */

/** How often the host looks at the board (a stuck rule is ended at most this late after its grace). */
const watchEveryMs = 100;

/** How long past its limit a rule may go on before its worker is ended: its own check usually stops it first. */
export const graceMs = 500;

export type JobOutcome = 'done' | 'cancelled';

interface Task {
  job: EvaluationJob;
  onPart(part: unknown): void;
  isCancelled(): boolean;
  resolve(outcome: JobOutcome): void;
  reject(error: Error): void;
  from?: ResumePoint;
  stopped: StoppedRule[];
  attempt: number;
  epoch: number;
  /** The attempt's own board: a worker being ended may still write to the board of its attempt, never to the next one's. */
  board: WatchBoard;
  cancelSentAt?: number;
}

export class EvaluationWorkers {
  private port: EvaluationWorkerPort | undefined;
  private readonly queue: Task[] = [];
  private running: Task | undefined;
  private watchTimer: ReturnType<typeof setInterval> | undefined;
  private attempts = 0;

  constructor(
    private readonly launch: WorkerLauncher,
    /** Told when a worker was ended or ended on its own, and why. */
    private readonly log: (message: string) => void = () => undefined,
  ) {}

  /**
   * Runs the job, handing over its parts as they come (the last one before the promise resolves). Resolves
   * 'cancelled' when `isCancelled` turned true before it was done; rejects when the worker failed for another reason.
   */
  run<J extends EvaluationJob>(job: J, onPart: (part: PartOf<J>) => void, isCancelled: () => boolean = () => false): Promise<JobOutcome> {
    return new Promise<JobOutcome>((resolve, reject) => {
      this.queue.push({ job, onPart: onPart as (part: unknown) => void, isCancelled, resolve, reject, stopped: [], attempt: 0, epoch: 0, board: new WatchBoard() });
      this.watch();
      this.next();
    });
  }

  /** A rule test's case: the rule file on one trace. Undefined when `isCancelled` stopped it first. */
  async evaluateCase(rules: RuleSource, trace: unknown, options: CaseOptions, isCancelled?: () => boolean): Promise<CaseEvaluation | undefined> {
    let evaluation: CaseEvaluation | undefined;
    const outcome = await this.run({ kind: 'case', rules: [rules], trace, options }, (part) => (evaluation = part), isCancelled);
    return outcome === 'done' ? evaluation : undefined;
  }

  /** Ends the worker; jobs still waiting are cancelled. */
  close(): void {
    this.port?.terminate();
    this.port = undefined;
    for (const task of this.queue.splice(0)) task.resolve('cancelled');
    if (this.running) this.finish(this.running, 'cancelled');
  }

  private next(): void {
    while (!this.running && this.queue.length > 0) {
      const task = this.queue.shift()!;
      if (task.isCancelled()) task.resolve('cancelled');
      else this.start(task);
    }
  }

  private start(task: Task): void {
    this.running = task;
    task.attempt = ++this.attempts;
    task.epoch = Date.now();
    task.board = new WatchBoard();
    task.cancelSentAt = undefined;
    const port = this.worker();
    const attempt: Attempt = { id: task.attempt, job: task.job, from: task.from, stopped: task.stopped, board: task.board.buffer, epoch: task.epoch };
    port.keepAlive(true);
    port.post(attempt);
    this.watch();
  }

  private worker(): EvaluationWorkerPort {
    if (this.port) return this.port;
    this.log('[guardrails] starting a rule evaluation worker');
    const port = this.launch();
    port.onMessage((message) => this.received(message));
    port.onExit((exit) => this.exited(port, exit));
    return (this.port = port);
  }

  private received(message: WorkerMessage): void {
    const task = this.running;
    if (!task || message.id !== task.attempt) return; // from an attempt already ended
    if (message.type === 'part') {
      task.onPart(message.part);
      task.from = message.next;
    } else if (message.type === 'done') {
      task.onPart(message.part);
      this.finish(task, 'done');
    } else if (message.type === 'cancelled') {
      this.finish(task, 'cancelled');
    } else {
      this.finish(task, new Error(`the rule evaluation worker failed: ${message.message}`));
    }
  }

  private finish(task: Task, outcome: JobOutcome | Error): void {
    if (this.running === task) this.running = undefined;
    this.port?.keepAlive(false);
    if (outcome instanceof Error) task.reject(outcome);
    else task.resolve(outcome);
    this.next();
    if (!this.running) this.unwatch();
  }

  /** The worker ended on its own: out of memory (its rule is stopped and the job goes on), or a crash. */
  private exited(port: EvaluationWorkerPort, exit: WorkerExit): void {
    if (this.port !== port) return;
    this.port = undefined;
    const task = this.running;
    if (!task) return;
    const { unit, running } = task.board.read();
    if (!exit.outOfMemory || !unit) {
      this.finish(task, new Error(`the rule evaluation worker ended: ${exit.message}`));
      return;
    }
    const stopped: StoppedRule = { ...unit, rule: running ? unit.rule : -1, reason: 'memory' };
    this.log(`[guardrails] ${describe(task.job, stopped)} took more memory than rules may use: the evaluation worker was replaced`);
    task.stopped.push(stopped);
    this.start(task);
  }

  private watch(): void {
    this.watchTimer ??= setInterval(() => this.look(), watchEveryMs);
    (this.watchTimer as { unref?: () => void }).unref?.();
  }

  private unwatch(): void {
    clearInterval(this.watchTimer);
    this.watchTimer = undefined;
  }

  /** The watch: cancels what is no longer wanted, and ends a worker stuck in a rule past its time limit. */
  private look(): void {
    for (const task of this.queue.filter((waiting) => waiting.isCancelled())) {
      this.queue.splice(this.queue.indexOf(task), 1);
      task.resolve('cancelled');
    }
    const task = this.running;
    if (!task) return;
    const now = Date.now();
    if (task.isCancelled()) {
      if (task.cancelSentAt === undefined) {
        task.cancelSentAt = now;
        task.board.cancel(task.attempt);
      } else if (now - task.cancelSentAt > graceMs) {
        // A worker that has not begun the attempt is still starting (loading the evaluator): it is kept, and sees the
        // cancel when it begins. Ending it would only make the next job wait for another to start.
        if (task.board.read().unit !== null) this.endWorker();
        this.finish(task, 'cancelled');
      }
      return;
    }
    const limit = task.job.options.timeLimitMs ?? Infinity;
    const { unit, running, startedMs } = task.board.read();
    if (!running || !unit || now - (task.epoch + startedMs) <= limit + graceMs) return;
    const stopped: StoppedRule = { ...unit, reason: 'timeout' };
    this.log(`[guardrails] ${describe(task.job, stopped)} ran past its time limit (${duration(limit)}): the evaluation worker was ended and replaced`);
    this.endWorker();
    task.stopped.push(stopped);
    this.start(task);
  }

  private endWorker(): void {
    this.port?.terminate();
    this.port = undefined;
  }
}

function describe(job: EvaluationJob, unit: StoppedRule): string {
  const file = fileNameOfUri(job.rules[unit.ruleFile]?.uri ?? '');
  return unit.rule < 0 ? `reading the trace at offset ${unit.trace} for ${file}` : `rule ${unit.rule + 1} of ${file} on the trace at offset ${unit.trace}`;
}
