import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { installHeapGauge } from '../guardrail/evaluate/limits';
import { runAttempt } from './evaluationJob';
import { settleDatasetLines } from './datasetBytes';
import type { Attempt } from './workerProtocol';

/**
 * The rule evaluation worker (bundled as dist/evaluationWorker.js): runs one attempt at a time, as the host
 * (evaluationWorkers.ts) sends them, and answers with its parts. The host ends it when a rule runs past its time
 * limit; the heap gauge below ends a rule that takes too much memory before the engine would end the process.
 */

/** Bytes a rule may add to the heap it found when it started (the trace and what earlier rules left). */
const ruleAllowanceBytes = 512 * 2 ** 20;
let baseline = 0;

installHeapGauge({
  limitBytes: ruleAllowanceBytes,
  exceeds: (bytes) => getHeapStatistics().used_heap_size + bytes > baseline + ruleAllowanceBytes,
});

/**
 * Under the editor, the worker gives way to the server's own thread when the two want the same core: on Linux a
 * thread has a nice value of its own (/proc/thread-self names the thread). Elsewhere it runs at the usual priority.
 */
if ((workerData as { yieldToServer?: boolean } | undefined)?.yieldToServer) {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10);
  } catch {
    // Not Linux, or not allowed: the usual priority.
  }
}

const port = parentPort!;
port.on('message', (attempt: Attempt) => {
  runAttempt(attempt, (message) => port.postMessage(message), () => {
    baseline = getHeapStatistics().used_heap_size;
  }, settleDatasetLines);
});
