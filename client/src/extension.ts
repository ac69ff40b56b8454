import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  ModelChangedNotification, onNotification, sendRequest, ServerInfoRequest, type InitializationOptions, type ModelChangedParams, type ServerInfo,
} from '../../shared/requests';
import { registerCompare, type CompareApi } from './compare';
import { registerExamples } from './examples';
import { registerGuardrailCommands, reportVisibleRules, reportWorkspaceTrust } from './guardrailCommands';
import { adoptConversations } from './conversationDetection';
import { registerConvertCommands } from './convertCommand';
import { adoptTraceLogs } from './jsonLinesDetection';
import { registerPreview, type PreviewApi } from './preview';
import { registerRuleTests, type RuleTestsApi } from './ruleTests';
import { registerWhyNotHere, type WhyNotHereApi } from './whyNotHere';
import { registerRuleCompare } from './ruleCompare';

/** What the extension hands to other extensions and to its own extension-host tests. */
export interface AgentTracesApi {
  preview: PreviewApi;
  compare: CompareApi;
  ruleTests: RuleTestsApi;
  whyNotHere: WhyNotHereApi;
  serverInfo(): Promise<ServerInfo>;
}

const languages = ['agent-trace', 'agent-trace-jsonl', 'agent-trace-anthropic', 'agent-trace-inspect', 'guardrail'];

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<AgentTracesApi> {
  const serverModule = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.js').fsPath;
  // A larger young generation: parsing a large trace or rule file allocates many short-lived objects, and the
  // default semi-space makes the collector run several times per parse.
  const execArgv = ['--max-semi-space-size=32'];
  // Over stdio the server decodes each message itself, and reads a big document's text straight from the message's
  // bytes; over IPC, Node would first make the whole message a string, which doubles the memory an open takes.
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.stdio, options: { execArgv } },
    debug: { module: serverModule, transport: TransportKind.stdio, options: { execArgv: [...execArgv, '--nolazy', '--inspect=6011'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      ...languages.flatMap((language) => [
        { language, scheme: 'file' },
        { language, scheme: 'untitled' },
        { language, scheme: 'vscode-remote' },
      ]),
      // The tests of rule files: JSON to VS Code (its schema is contributed), checked by the server by their name.
      { scheme: 'file', pattern: '**/*.tests.json' },
      { scheme: 'vscode-remote', pattern: '**/*.tests.json' },
    ],
    synchronize: {
      configurationSection: 'agentTraces',
      // Trace files on disk feed the tool names that rule files complete and hover after `tool:`; Python files
      // are the modules rule files import (agentTraces.guardrails.pythonPaths); rule files, agentTraces.guardrails.policies.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{trace.json,trace.jsonl,jsonl,py,gr}'),
    },
    outputChannelName: 'Agent Traces',
    // Read at every start (a restart too): the server evaluates rules only when asked while the workspace is untrusted.
    initializationOptions: (): InitializationOptions => ({ workspaceTrusted: vscode.workspace.isTrusted }),
  };
  client = new LanguageClient('agentTraces', 'Agent Traces', serverOptions, clientOptions);
  const languageClient = client;

  context.subscriptions.push(
    vscode.commands.registerCommand('agentTraces.restartServer', () => languageClient.restart()),
  );
  // One handler per notification method is what the client allows: the previews and the compare views share it.
  const modelChanged = new vscode.EventEmitter<ModelChangedParams>();
  context.subscriptions.push(modelChanged, onNotification(languageClient, ModelChangedNotification, (params) => modelChanged.fire(params)));
  const preview = registerPreview(context, languageClient, modelChanged.event);
  const compare = registerCompare(context, languageClient, modelChanged.event);
  registerGuardrailCommands(context, languageClient);
  let ruleTests: RuleTestsApi | undefined;
  registerExamples(context, () => ruleTests);
  registerConvertCommands(context, languageClient);
  const whyNotHere = registerWhyNotHere(context, languageClient);
  registerRuleCompare(context, languageClient);
  adoptTraceLogs(context);
  await languageClient.start();
  adoptConversations(context, languageClient);
  reportVisibleRules(context, languageClient);
  reportWorkspaceTrust(context, languageClient);
  ruleTests = registerRuleTests(context, languageClient);

  return {
    preview,
    compare,
    ruleTests,
    whyNotHere,
    serverInfo: () => sendRequest(languageClient, ServerInfoRequest, undefined),
  };
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
