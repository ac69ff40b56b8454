import * as vscode from 'vscode';
import { BrowserMessageReader, BrowserMessageWriter, LanguageClient, type MessageTransports } from 'vscode-languageclient/browser';
import { FileKindRequest, ListFilesRequest, onRequest, ReadFileRequest, WorkerBundleRequest } from '../../shared/requests';
import { activateOn, activationMarks, deactivate, type AgentTracesApi } from './activation';
import { answerFileKind, answerListFiles, answerReadFile } from './clientFiles';
import { editorFiles } from './workspaceFiles';

export type { AgentTracesApi } from './activation';
export { deactivate };

async function bundleText(context: vscode.ExtensionContext, name: string): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', name)));
}

/**
 * The extension in VS Code for the Web (vscode.dev, github.dev, code-server's browser host): the language server is a
 * web worker, made from a `blob:` URL of its bundle, which the extension reads from its own files (a worker from a
 * URL inside the extension is refused in some hosts). The server reads files by asking this client.
 */
export function activate(context: vscode.ExtensionContext): Promise<AgentTracesApi> {
  performance.mark(activationMarks.activate);
  let worker: Worker | undefined;
  // One `blob:` URL of the server's bundle for every start: a restart makes a new worker from the same URL, so the
  // 1.2 MB bundle is held once, and let go with the extension.
  let serverUrl: string | undefined;
  context.subscriptions.push({
    dispose: () => {
      worker?.terminate();
      if (serverUrl) URL.revokeObjectURL(serverUrl);
    },
  });
  // The server's bundle is read while the client registers its features, not after.
  const firstBundle = bundleText(context, 'server.js');
  // The transports, not the worker: the host's Worker may be its own class, which the library's `instanceof` misses.
  const startServer = async (): Promise<MessageTransports> => {
    worker?.terminate(); // a restart makes a new one
    serverUrl ??= URL.createObjectURL(new Blob([await firstBundle.catch(() => bundleText(context, 'server.js'))], { type: 'text/javascript' }));
    performance.mark(activationMarks.serverBundleRead);
    worker = new Worker(serverUrl, { name: 'Agent Traces language server' });
    performance.mark(activationMarks.serverStarted);
    return { reader: new BrowserMessageReader(worker), writer: new BrowserMessageWriter(worker) };
  };
  return activateOn({
    schemes: ['file', 'untitled', 'vscode-remote', 'vscode-vfs', 'vscode-test-web'],
    createClient: (clientOptions) => new LanguageClient('agentTraces', 'Agent Traces', startServer, clientOptions),
    beforeStart: (client) => [
      onRequest(client, ReadFileRequest, (params) => answerReadFile(editorFiles, params)),
      onRequest(client, ListFilesRequest, (params) => answerListFiles(editorFiles, params)),
      onRequest(client, FileKindRequest, (params) => answerFileKind(editorFiles, params.uri)),
      onRequest(client, WorkerBundleRequest, (params) => bundleText(context, `${params.name}.js`)),
    ],
  }, context);
}
