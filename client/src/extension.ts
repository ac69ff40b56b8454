import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { activateOn, activationMarks, deactivate, type AgentTracesApi } from './activation';
import { serverEnvironment, serverExecArgv } from './serverProcess';

export type { AgentTracesApi } from './activation';
export { deactivate };

/** The extension in VS Code's Node extension host: the language server is a Node process beside it. */
export function activate(context: vscode.ExtensionContext): Promise<AgentTracesApi> {
  performance.mark(activationMarks.activate);
  const serverModule = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.js').fsPath;
  const execArgv = [...serverExecArgv];
  const env = serverEnvironment(process.env, process.platform);
  // Over stdio the server decodes each message itself, and reads a big document's text straight from the message's
  // bytes; over IPC, Node would first make the whole message a string, which doubles the memory an open takes.
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.stdio, options: { execArgv, env } },
    debug: { module: serverModule, transport: TransportKind.stdio, options: { execArgv: [...execArgv, '--nolazy', '--inspect=6011'], env } },
  };
  return activateOn({
    // vscode-vfs: a virtual workspace's open documents (GitHub Repositories); the server reads only file: URIs itself.
    schemes: ['file', 'untitled', 'vscode-remote', 'vscode-vfs'],
    createClient: (clientOptions) => new LanguageClient('agentTraces', 'Agent Traces', serverOptions, clientOptions),
  }, context);
}
