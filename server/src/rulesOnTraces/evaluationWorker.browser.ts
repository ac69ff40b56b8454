/**
 * The rule evaluation worker of the browser build (dist/web/evaluationWorker.js), a web worker nested in the
 * language server's (workerLauncher.browser.ts): the same attempts as the Node worker (evaluationWorker.ts), the same
 * job (evaluationJob.ts); its board is sent to the host after each write where memory cannot be shared.
 */
import { runAttempt } from './evaluationJob';
import { boardCopies, type Attempt } from './workerProtocol';
import type { BoardCopyMessage } from './workerLauncher.browser';

const scope = self as unknown as Worker;

boardCopies((slots) => scope.postMessage({ type: 'board', slots: slots.slice() } satisfies BoardCopyMessage));

scope.onmessage = (event: MessageEvent<Attempt>) => {
  runAttempt(event.data, (message) => scope.postMessage(message));
};
