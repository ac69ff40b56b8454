import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { ConvertToTraceRequest, sendRequest } from '../../shared/requests';
import { archiveOfView, archiveScheme } from './inspectArchive';

export const convertCommand = 'agentTraces.convertToTrace';
export const convertRedactedCommand = 'agentTraces.convertToTraceRedacted';

/**
 * "Convert to Invariant Trace": the active session's trace, written beside it as `<name>.trace.json` and opened, so
 * that a real run becomes a test fixture (the redacted form replaces secrets and home folders first).
 */
export function registerConvertCommands(context: vscode.ExtensionContext, client: LanguageClient): void {
  const convert = async (redact: boolean, target?: vscode.Uri): Promise<vscode.Uri | undefined> => {
    const document = target ? await vscode.workspace.openTextDocument(target) : vscode.window.activeTextEditor?.document;
    if (!document) {
      void vscode.window.showInformationMessage('Open a Claude Code session, a Codex rollout or an Anthropic or OpenAI Responses conversation to convert it to an Invariant trace.');
      return undefined;
    }
    const answer = await sendRequest(client, ConvertToTraceRequest, { uri: document.uri.toString(), redact });
    if (answer.text === undefined || !answer.fileName) {
      void vscode.window.showWarningMessage(`Agent Traces: ${vscode.workspace.asRelativePath(document.uri)} was not converted: ${answer.error ?? 'unknown reason'}.`);
      return undefined;
    }
    // An Inspect archive's view converts beside the archive.
    const source = document.uri.scheme === archiveScheme ? archiveOfView(document.uri) : document.uri;
    const output = vscode.Uri.joinPath(source, '..', answer.fileName);
    const exists = await vscode.workspace.fs.stat(output).then(() => true, () => false);
    if (exists && !target) {
      const replace = await vscode.window.showWarningMessage(`${answer.fileName} exists. Replace it with this conversion?`, { modal: true }, 'Replace');
      if (replace !== 'Replace') return undefined;
    }
    await vscode.workspace.fs.writeFile(output, new TextEncoder().encode(answer.text));
    await vscode.window.showTextDocument(output, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    const notes = [...answer.warnings, ...(redact ? [`${answer.replaced.length} replacement${answer.replaced.length === 1 ? '' : 's'}${answer.replaced.length > 0 ? `: ${answer.replaced.slice(0, 5).join('; ')}${answer.replaced.length > 5 ? '; …' : ''}` : ''}`] : [])];
    if (notes.length > 0) void vscode.window.showInformationMessage(`Agent Traces: ${answer.fileName}: ${notes.join('; ')}`);
    return output;
  };
  context.subscriptions.push(
    // The target argument (a session's URI) lets other extensions and tests convert a given file without a prompt.
    vscode.commands.registerCommand(convertCommand, (target?: vscode.Uri) => convert(false, target instanceof vscode.Uri ? target : undefined)),
    vscode.commands.registerCommand(convertRedactedCommand, (target?: vscode.Uri) => convert(true, target instanceof vscode.Uri ? target : undefined)),
  );
}
