import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import {
  EvaluateRulesCommand, EvaluateRulesRequest, RevealLocationsCommand, RulesForTraceRequest, sendNotification, sendRequest, VisibleRulesNotification,
  WorkspaceTrustNotification,
} from '../../shared/requests';
import { findWorkspaceFiles } from './workspaceFiles';

/** Rule files "Check with Rules…" offers at most. */
const maxRuleFilesOffered = 500;

interface LspLocation {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}

/** Tells the server which rule files are shown: those apply to the open traces (the rule beside the trace). */
export function reportVisibleRules(context: vscode.ExtensionContext, client: LanguageClient): void {
  let last = '';
  const report = () => {
    const uris = [...new Set(vscode.window.visibleTextEditors
      .filter((editor) => editor.document.languageId === 'guardrail')
      .map((editor) => editor.document.uri.toString()))].sort();
    const key = uris.join('\n');
    if (key === last || !client.isRunning()) return;
    last = key;
    void sendNotification(client, VisibleRulesNotification, { uris });
  };
  context.subscriptions.push(vscode.window.onDidChangeVisibleTextEditors(report), client.onDidChangeState(() => ((last = '\u0000'), report())));
  report();
}

/** Tells the server when the user trusts the workspace: from then on rules are evaluated without being asked for. */
export function reportWorkspaceTrust(context: vscode.ExtensionContext, client: LanguageClient): void {
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => {
    if (client.isRunning()) void sendNotification(client, WorkspaceTrustNotification, { trusted: true });
  }));
}

/**
 * "Check with Rules…" (pick rule files for the active trace), "Evaluate Rules on Open Traces" (an untrusted
 * workspace's way to ask, also behind its rule files' lenses) and the rule files' code lenses' reveal.
 */
export function registerGuardrailCommands(context: vscode.ExtensionContext, client: LanguageClient): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(RevealLocationsCommand, async (uri: string, position: LspLocation['range']['start'], locations: LspLocation[]) => {
      const converter = client.protocol2CodeConverter;
      const targets = locations.map((location) => converter.asLocation(location));
      if (targets.length === 1) {
        await vscode.window.showTextDocument(targets[0].uri, { selection: targets[0].range, viewColumn: vscode.ViewColumn.Beside });
        return;
      }
      await vscode.commands.executeCommand('editor.action.showReferences', vscode.Uri.parse(uri), converter.asPosition(position), targets);
    }),
    vscode.commands.registerCommand(EvaluateRulesCommand, async (ruleUri?: unknown) => {
      const rules = typeof ruleUri === 'string' ? [ruleUri] : undefined;
      const answer = await sendRequest(client, EvaluateRulesRequest, { rules });
      const files = `${answer.rules} rule file${answer.rules === 1 ? '' : 's'}`;
      const message = answer.traces === 0
        ? `Agent Traces: ${files} will be evaluated on the traces they apply to once those are open.`
        : `Agent Traces: evaluating ${files} on ${answer.traces} open trace${answer.traces === 1 ? '' : 's'}.`;
      void vscode.window.showInformationMessage(answer.rules === 0 ? 'Agent Traces: no rule file applies to an open trace.' : message);
    }),
    vscode.commands.registerCommand('agentTraces.checkWithRules', async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || !/^agent-trace/.test(editor.document.languageId)) {
        void vscode.window.showInformationMessage('Open a trace (.trace.json or a dataset .jsonl) to check it with rules.');
        return;
      }
      const found = await findWorkspaceFiles({ glob: '**/*.gr', nameMatches: (name) => name.endsWith('.gr'), skippedFolders: ['node_modules'], maxFiles: maxRuleFilesOffered });
      const files = found.uris;
      if (files.length === 0) {
        void vscode.window.showInformationMessage('The workspace has no rule files (.gr).');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        files.map((file) => ({ label: vscode.workspace.asRelativePath(file), uri: file })).sort((a, b) => a.label.localeCompare(b.label)),
        {
          canPickMany: true, title: 'Check this trace with rules',
          placeHolder: `Rule files to evaluate on the active trace (none: unbind)${found.truncated ? `; the workspace's first ${files.length}` : ''}`,
        },
      );
      if (!picked) return;
      const answer = await sendRequest(client, RulesForTraceRequest, { uri: editor.document.uri.toString(), rules: picked.map((item) => item.uri.toString()) });
      for (const problem of answer.problems) void vscode.window.showWarningMessage(`Agent Traces: ${problem}`);
    }),
  );
}
