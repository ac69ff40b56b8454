import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Attempt, WorkerMessage } from './workerProtocol';

/**
 * How a worker that evaluates rules is started: the only place that knows it is a Node worker thread. A browser
 * build supplies its own launcher (a nested web worker from a `blob:` URL holding the worker bundle) and keeps the
 * rest: the host (evaluationWorkers.ts) and the job (evaluationJob.ts) use only this interface.
 */

/** How a worker ended that the host did not end. */
export interface WorkerExit {
  /** It reached its heap limit and was ended for it. */
  outOfMemory: boolean;
  message: string;
}

export interface EvaluationWorkerPort {
  post(attempt: Attempt): void;
  onMessage(listener: (message: WorkerMessage) => void): void;
  /** The worker ended on its own (out of memory, a crash); not called after terminate(). */
  onExit(listener: (exit: WorkerExit) => void): void;
  /** Ends the worker at once, even inside one long regular expression. */
  terminate(): void;
  /** Whether the worker keeps its process alive: while it has work, so that a CLI run does not end before it. */
  keepAlive(active: boolean): void;
}

export type WorkerLauncher = () => EvaluationWorkerPort;

/**
 * The worker's heap limit. Rules are held far below it by the heap gauge (evaluationWorker.ts) and the value limits
 * (guardrail/evaluate/limits.ts); reaching it ends the worker, not the process, for most allocations (not all: a
 * single huge allocation at the limit can still abort the process, which is why the gauge stops rules first).
 */
export const workerHeapLimitMB = 2048;

/** The worker bundle beside this bundle (dist/), or the package's dist/ for the tests bundled into out/. */
export function evaluationWorkerScript(): string {
  return bundleBeside('evaluationWorker.js', 'the rule evaluation worker');
}

/** A bundle of esbuild.mjs beside this one (dist/), or in the package's dist/ for the tests bundled into out/. */
export function bundleBeside(fileName: string, what: string): string {
  const beside = join(__dirname, fileName);
  if (existsSync(beside)) return beside;
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const built = join(dir, 'dist', fileName);
    if (existsSync(join(dir, 'package.json')) && existsSync(built)) return built;
  }
  throw new Error(`${what} (${fileName}) is missing beside ${__dirname}: build with node esbuild.mjs`);
}

/** The platform's launcher: Node worker threads here, nested web workers in the browser build (workerLauncher.browser.ts). */
export const platformWorkerLauncher = (options: { yieldToServer?: boolean } = {}): WorkerLauncher => nodeWorkerLauncher(options);

/**
 * `yieldToServer`: the worker runs at a lower priority than the thread that started it (the server's).
 * `youngGenerationMb`: the size of the worker's young generation, where V8's default is tens of MB: a command that
 * streams a dataset through its workers makes mostly short-lived garbage, and each worker's young generation is a
 * part of its peak memory.
 */
export function nodeWorkerLauncher(options: { yieldToServer?: boolean; script?: string; youngGenerationMb?: number } = {}): WorkerLauncher {
  const script = options.script ?? evaluationWorkerScript();
  return () => {
    // Its output is kept from the process's own: the server's stdout is the editor's protocol channel.
    const worker = new Worker(script, {
      stdout: true, stderr: true, resourceLimits: { maxOldGenerationSizeMb: workerHeapLimitMB, ...(options.youngGenerationMb ? { maxYoungGenerationSizeMb: options.youngGenerationMb } : {}) }, workerData: { yieldToServer: options.yieldToServer === true },
    });
    let ended = false;
    let stderr = '';
    worker.stdout.resume();
    worker.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    let exitListener: ((exit: WorkerExit) => void) | undefined;
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', () => {
      if (ended) return;
      ended = true;
      const outOfMemory = (failure as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
      exitListener?.({ outOfMemory, message: failure?.message ?? (stderr.trim() || 'the worker exited') });
    });
    return {
      post: (attempt) => worker.postMessage(attempt),
      onMessage: (listener) => worker.on('message', listener),
      onExit: (listener) => (exitListener = listener),
      terminate: () => {
        ended = true;
        void worker.terminate();
      },
      keepAlive: (active) => (active ? worker.ref() : worker.unref()),
    };
  };
}
