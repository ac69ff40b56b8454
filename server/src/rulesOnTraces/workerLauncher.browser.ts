/**
 * workerLauncher.ts for the browser build: rules are evaluated in a web worker nested in the language server's, made
 * from a `blob:` URL of the worker bundle (dist/web/evaluationWorker.js), whose text the client hands over: a worker
 * cannot be made from a URL inside the extension in every host (code-server refuses "workers from remote extensions").
 * Ended with terminate(), even inside one long regular expression, as a Node worker thread is.
 */
import type * as NodeLauncher from './workerLauncher';
import type { Attempt, BoardMemory, WorkerMessage } from './workerProtocol';
import { copyBoard } from './workerProtocol';

export type { EvaluationWorkerPort, WorkerExit, WorkerLauncher } from './workerLauncher';

export const workerHeapLimitMB: typeof NodeLauncher.workerHeapLimitMB = 2048;

/** The worker's message beside the protocol's: its board, where memory is not shared (workerProtocol.ts, boardCopies). */
export interface BoardCopyMessage {
  type: 'board';
  slots: Int32Array;
}

let bundleSource: (() => Promise<string>) | undefined;
let bundleUrl: Promise<string> | undefined;

/** Where the worker bundle's text comes from (the client, transport/connection.browser.ts). */
export function useEvaluatorBundle(source: () => Promise<string>): void {
  bundleSource = source;
  bundleUrl = undefined;
}

function workerUrl(): Promise<string> {
  if (!bundleSource) return Promise.reject(new Error('the rule evaluation worker is not available: the editor did not hand it over'));
  return (bundleUrl ??= bundleSource().then((text) => URL.createObjectURL(new Blob([text], { type: 'text/javascript' }))).catch((error) => {
    bundleUrl = undefined; // asked again by the next worker
    throw error;
  }));
}

export const platformWorkerLauncher: typeof NodeLauncher.platformWorkerLauncher = () => () => {
  let worker: Worker | undefined;
  let ended = false;
  let board: BoardMemory | undefined;
  const waiting: Attempt[] = [];
  let messageListener: ((message: WorkerMessage) => void) | undefined;
  let exitListener: ((exit: NodeLauncher.WorkerExit) => void) | undefined;
  const exit = (message: string, outOfMemory = false) => {
    if (ended) return;
    ended = true;
    worker?.terminate();
    exitListener?.({ outOfMemory, message });
  };
  workerUrl().then((url) => {
    if (ended) return;
    worker = new Worker(url, { name: 'Agent Traces rule evaluation' });
    worker.onmessage = (event: MessageEvent<WorkerMessage | BoardCopyMessage>) => {
      const message = event.data;
      if ('slots' in message) {
        if (board) copyBoard(board, message.slots);
      } else messageListener?.(message);
    };
    // A worker that runs out of memory ends with an error event too; the browser does not say which it was.
    worker.onerror = (event) => {
      event.preventDefault();
      exit(event.message || 'the rule evaluation worker failed', /memory/i.test(event.message ?? ''));
    };
    for (const attempt of waiting.splice(0)) worker.postMessage(attempt);
  }, (error: unknown) => exit(error instanceof Error ? error.message : String(error)));
  return {
    post: (attempt) => {
      board = attempt.board;
      if (worker) worker.postMessage(attempt);
      else waiting.push(attempt);
    },
    onMessage: (listener) => (messageListener = listener),
    onExit: (listener) => (exitListener = listener),
    terminate: () => {
      ended = true;
      worker?.terminate();
    },
    // A web worker does not keep anything alive: there is no process to end.
    keepAlive: () => undefined,
  };
};
