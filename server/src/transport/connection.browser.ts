/**
 * transport/connection.ts for the browser build: the language server runs in a web worker and speaks LSP with the
 * client through the worker's messages. Files come through the client too (disk/files.browser.ts), and the client
 * hands over the rule evaluator's bundle for the nested workers rules run on (rulesOnTraces/workerLauncher.browser.ts).
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/browser';
import type * as NodeConnection from './connection';
import { FileKindRequest, ListFilesRequest, ReadFileRequest, sendRequest, WorkerBundleRequest } from '../../../shared/requests';
import { useClientFiles } from '../disk/files.browser';
import { useEvaluatorBundle } from '../rulesOnTraces/workerLauncher.browser';

/** The worker's own scope: its messages are the client's. */
const scope = self as unknown as Worker;

export const createServerConnection: typeof NodeConnection.createServerConnection = (): Connection => {
  const connection = createConnection(ProposedFeatures.all, new BrowserMessageReader(scope), new BrowserMessageWriter(scope));
  useClientFiles({
    readFile: (uri, maxBytes) => sendRequest(connection, ReadFileRequest, { uri, maxBytes }),
    listFiles: (folder, skippedFolders, maxFiles) => sendRequest(connection, ListFilesRequest, { folder, skippedFolders, maxFiles }),
    fileKind: (uri) => sendRequest(connection, FileKindRequest, { uri }),
  });
  useEvaluatorBundle(() => sendRequest(connection, WorkerBundleRequest, { name: 'evaluationWorker' }));
  return connection;
};

/** Messages reach a web worker already decoded: there is no decoder to warm up. */
export const warmUpDecoder: typeof NodeConnection.warmUpDecoder = () => undefined;

/** A web worker is handed whole messages: none is ever part way in. */
export const messageArriving: typeof NodeConnection.messageArriving = () => false;
