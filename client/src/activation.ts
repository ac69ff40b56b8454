import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
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
import { archiveScheme, registerInspectArchives } from './inspectArchive';

/** What the extension hands to other extensions and to its own extension-host tests. */
export interface AgentTracesApi {
  preview: PreviewApi;
  compare: CompareApi;
  ruleTests: RuleTestsApi;
  whyNotHere: WhyNotHereApi;
  serverInfo(): Promise<ServerInfo>;
}

const languages = ['agent-trace', 'agent-trace-jsonl', 'agent-trace-anthropic', 'agent-trace-inspect', 'guardrail'];

/** How the extension runs on its platform: its language server's client, and what the platform cannot do. */
export interface Platform {
  /** The language client, not started, of a server that reads the editor's documents as `clientOptions` says. */
  createClient(clientOptions: LanguageClientOptions): BaseLanguageClient;
  /** URI schemes of the documents the server reads. */
  schemes: string[];
  /** Registered once the client exists, before it starts (the browser's answers to the server's file requests). */
  beforeStart?(client: BaseLanguageClient): vscode.Disposable[];
}

let client: BaseLanguageClient | undefined;

/**
 * Performance marks of the activation's steps (`performance.getEntriesByName`), which the cold-start benchmark reads
 * in the extension host (bench/web.bench.mjs): where a first open's time goes before its diagnostics.
 */
export const activationMarks = {
  activate: 'agentTraces/activate',
  /** The browser: its server's bundle read through workspace.fs. */
  serverBundleRead: 'agentTraces/serverBundleRead',
  /** The browser: its server's worker made (its script still to load). */
  serverStarted: 'agentTraces/serverStarted',
  /** The language server answered `initialize`: the client runs. */
  clientStarted: 'agentTraces/clientStarted',
} as const;

/** The extension's activation on either platform (extension.ts: Node; browserExtension.ts: VS Code for the Web). */
export async function activateOn(platform: Platform, context: vscode.ExtensionContext): Promise<AgentTracesApi> {
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      ...languages.flatMap((language) => platform.schemes.map((scheme) => ({ language, scheme }))),
      // An Inspect .eval archive's view: the JSON log it holds (inspectArchive.ts).
      { language: 'agent-trace-inspect', scheme: archiveScheme },
      // The tests of rule files: JSON to VS Code (its schema is contributed), checked by the server by their name.
      ...platform.schemes.filter((scheme) => scheme !== 'untitled').map((scheme) => ({ scheme, pattern: '**/*.tests.json' })),
    ],
    synchronize: {
      configurationSection: 'agentTraces',
      // Trace files on disk feed the tool names that rule files complete and hover after `tool:`; Python files
      // are the modules rule files import (agentTraces.guardrails.pythonPaths); rule files, agentTraces.guardrails.policies.
      // Any `.json` may be an Inspect log, a span file or a saved conversation: the server looks at its head.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{json,jsonl,py,gr}'),
    },
    outputChannelName: 'Agent Traces',
    // Read at every start (a restart too): the server evaluates rules only when asked while the workspace is untrusted.
    initializationOptions: (): InitializationOptions => ({ workspaceTrusted: vscode.workspace.isTrusted }),
  };
  client = platform.createClient(clientOptions);
  const languageClient = client;

  context.subscriptions.push(
    vscode.commands.registerCommand('agentTraces.restartServer', () => restart(languageClient)),
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
  context.subscriptions.push(...(platform.beforeStart?.(languageClient) ?? []));
  await languageClient.start();
  performance.mark(activationMarks.clientStarted);
  adoptConversations(context, languageClient);
  registerInspectArchives(context, languageClient);
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

/** The Node client's own restart; the browser's client stops and starts again (its next start makes a new worker). */
async function restart(languageClient: BaseLanguageClient & { restart?(): Promise<void> }): Promise<void> {
  if (languageClient.restart) return languageClient.restart();
  await languageClient.stop();
  await languageClient.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
