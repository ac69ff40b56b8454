import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { RevealLocationsCommand, RulesForTraceRequest, sendNotification, sendRequest, VisibleRulesNotification } from '../../shared/requests';

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

/** "Check with Rules…" (pick rule files for the active trace) and the rule files' code lenses' reveal. */
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
    vscode.commands.registerCommand('agentTraces.checkWithRules', async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || !/^agent-trace/.test(editor.document.languageId)) {
        void vscode.window.showInformationMessage('Open a trace (.trace.json or a dataset .jsonl) to check it with rules.');
        return;
      }
      const files = await vscode.workspace.findFiles('**/*.gr', '**/node_modules/**', 500);
      if (files.length === 0) {
        void vscode.window.showInformationMessage('The workspace has no rule files (.gr).');
        return;
      }
      const picked = await vscode.window.showQuickPick(
        files.map((file) => ({ label: vscode.workspace.asRelativePath(file), uri: file })).sort((a, b) => a.label.localeCompare(b.label)),
        { canPickMany: true, title: 'Check this trace with rules', placeHolder: 'Rule files to evaluate on the active trace (none: unbind)' },
      );
      if (!picked) return;
      const answer = await sendRequest(client, RulesForTraceRequest, { uri: editor.document.uri.toString(), rules: picked.map((item) => item.uri.toString()) });
      for (const problem of answer.problems) void vscode.window.showWarningMessage(`Agent Traces: ${problem}`);
    }),
  );
}
