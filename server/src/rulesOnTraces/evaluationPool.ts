import { EvaluationWorkers, type JobOutcome } from './evaluationWorkers';
import type { EvaluationJob, PartOf } from './workerProtocol';
import type { WorkerLauncher } from './workerLauncher';

/**
 * Jobs spread over several evaluation workers (each with its own time watch and replacement, as EvaluationWorkers
 * runs them), and their results handed back in the order the jobs were given, whatever order they finish in: what
 * makes `--jobs N` print exactly what `--jobs 1` prints. At most `ahead` jobs are in flight, so that a caller
 * feeding it from a stream holds a bounded amount of input and results.
 */
export class OrderedEvaluationPool {
  private readonly workers: EvaluationWorkers[];
  private readonly load: number[];
  /** Jobs in the order given: each delivers once it is done and every job before it has delivered. */
  private readonly pending: { deliver?: () => void }[] = [];
  private readonly ahead: number;
  private delivered: (() => void) | undefined;

  constructor(launch: WorkerLauncher, size: number, log?: (message: string) => void) {
    this.workers = Array.from({ length: Math.max(1, size) }, () => new EvaluationWorkers(launch, log));
    this.load = this.workers.map(() => 0);
    this.ahead = this.workers.length * 2;
  }

  /**
   * Runs the job on the least busy worker. Its parts are collected; `deliver` gets them (or the error) as soon as it
   * is done and every job given before it was delivered. Waits while too many jobs are in flight.
   */
  async submit<J extends EvaluationJob>(job: J, deliver: (parts: PartOf<J>[], failure?: Error) => void): Promise<void> {
    const which = this.load.indexOf(Math.min(...this.load));
    this.load[which]++;
    const parts: PartOf<J>[] = [];
    const entry: { deliver?: () => void } = {};
    this.pending.push(entry);
    void this.workers[which].run(job, (part) => parts.push(part)).then(
      (outcome: JobOutcome) => this.done(which, entry, () => deliver(parts, outcome === 'cancelled' ? new Error('the evaluation was cancelled') : undefined)),
      (error: Error) => this.done(which, entry, () => deliver(parts, error)),
    );
    while (this.pending.length >= this.ahead) await new Promise<void>((resolve) => (this.delivered = resolve));
  }

  /** `deliver` is called in turn after the jobs given before it, with no job of its own (a file that could not be read). */
  post(deliver: () => void): void {
    this.pending.push({ deliver });
    this.flush();
  }

  /** Waits until every job given was delivered. */
  async drain(): Promise<void> {
    while (this.pending.length > 0) await new Promise<void>((resolve) => (this.delivered = resolve));
  }

  close(): void {
    for (const workers of this.workers) workers.close();
  }

  private done(which: number, entry: { deliver?: () => void }, deliver: () => void): void {
    this.load[which]--;
    entry.deliver = deliver;
    this.flush();
  }

  private flush(): void {
    let any = false;
    while (this.pending[0]?.deliver) {
      this.pending.shift()!.deliver!();
      any = true;
    }
    if (any) {
      const waiting = this.delivered;
      this.delivered = undefined;
      waiting?.();
    }
  }
}
