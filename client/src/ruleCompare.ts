/**
 * "Compare with the committed version over the workspace's traces" on a rule file: the server evaluates the
 * committed version (read here from git) and the working copy on the workspace's traces (RuleCompareRequest), and
 * the traces whose verdict the change flips are listed, each entry opening the trace at the changed violation.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { RuleCompareRequest, type RuleCompareFlip, type RuleCompareParams, type RuleCompareResult, type RuleCompareViolation } from '../../shared/requests';
import { committedVersion } from './committedVersion';

export const CompareRulesWithCommittedCommand = 'agentTraces.compareRulesWithCommitted';

interface FlipItem extends vscode.QuickPickItem {
  location?: RuleCompareViolation['location'];
  uri?: string;
}

function fileName(uri: string): string {
  return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
}

/** The list's entries: per flipped trace a separator, then its added and removed violations (or why it was not evaluated). */
export function flipItems(result: RuleCompareResult, relative: (uri: string) => string): FlipItem[] {
  const items: FlipItem[] = [];
  const at = (location: RuleCompareViolation['location']) => `${relative(location.uri)}:${location.range.start.line + 1}:${location.range.start.character + 1}`;
  for (const flip of result.flips) {
    items.push({ label: `${relative(flip.uri)}${flip.line !== undefined ? ` line ${flip.line}` : ''}`, kind: vscode.QuickPickItemKind.Separator });
    for (const v of flip.added) items.push({ label: `$(add) ${v.message}`, description: `now raised (rule line ${v.rule})`, detail: at(v.location), location: v.location });
    for (const v of flip.removed) items.push({ label: `$(remove) ${v.message}`, description: `no longer raised (was rule line ${v.rule})`, detail: at(v.location), location: v.location });
    for (const [version, error] of failures(flip)) items.push({ label: `$(warning) ${version} could not be evaluated here`, detail: error, uri: flip.uri });
  }
  return items;
}

function failures(flip: RuleCompareFlip): [string, string][] {
  return [['the committed version', flip.oldError], ['the working copy', flip.newError]].filter((entry): entry is [string, string] => entry[1] !== undefined);
}

export function summary(name: string, result: RuleCompareResult): string {
  const over = `${result.traces} trace${result.traces === 1 ? '' : 's'} in ${result.files} file${result.files === 1 ? '' : 's'}`;
  const flipped = new Set(result.flips.map((flip) => `${flip.uri}:${flip.line ?? ''}`)).size;
  const head = flipped === 0
    ? `The working copy of ${name} flips no verdict against HEAD over ${over}.`
    : `The working copy of ${name} flips the verdict of ${flipped} trace${flipped === 1 ? '' : 's'} against HEAD, over ${over}.`;
  const skipped = result.notEvaluated
    ? ` Neither version could be evaluated on ${result.notEvaluated.traces} trace${result.notEvaluated.traces === 1 ? '' : 's'} (${result.notEvaluated.reason}).`
    : '';
  return `${head}${skipped}${result.limitNotice ? ` Not every trace file was compared: ${result.limitNotice}.` : ''}`;
}

export function registerRuleCompare(context: vscode.ExtensionContext, client: LanguageClient): void {
  context.subscriptions.push(vscode.commands.registerCommand(CompareRulesWithCommittedCommand, async (argument?: unknown) => {
    const uri = argument instanceof vscode.Uri ? argument : vscode.window.activeTextEditor?.document.uri;
    if (!uri || !uri.path.toLowerCase().endsWith('.gr')) {
      void vscode.window.showInformationMessage('Open a rule file (.gr) under git to see what its changes flip.');
      return undefined;
    }
    const maxMB = vscode.workspace.getConfiguration('agentTraces').get<number>('files.maxSizeMB', 100);
    const committed = await committedVersion(uri, Math.max(1, maxMB) * 1024 * 1024);
    if (!committed.ok) {
      void vscode.window.showWarningMessage(`${fileName(uri.toString())} cannot be compared with its committed version: ${committed.reason}.`);
      return undefined;
    }
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Evaluating both versions of ${fileName(uri.toString())} on the workspace's traces`, cancellable: true },
      // Cancelling the notification cancels the request: the server stops between trace files.
      (_progress, token) => client.sendRequest<RuleCompareResult>(RuleCompareRequest.method, { uri: uri.toString(), oldText: committed.text } satisfies RuleCompareParams, token)
        .then((answer) => (token.isCancellationRequested ? undefined : answer), (error) => (token.isCancellationRequested ? undefined : Promise.reject(error))),
    );
    if (!result) return undefined;
    if (result.problem) {
      void vscode.window.showWarningMessage(`${fileName(uri.toString())} was not compared: ${result.problem}.`);
      return result;
    }
    const message = summary(fileName(uri.toString()), result);
    if (result.flips.length === 0) {
      void vscode.window.showInformationMessage(message);
      return result;
    }
    showFlips(message, result);
    return result;
  }));
}

/** The list stays open while its entries open the traces beside it (Escape closes it). */
function showFlips(title: string, result: RuleCompareResult): void {
  const pick = vscode.window.createQuickPick<FlipItem>();
  pick.title = title;
  pick.placeholder = 'Open a trace at the violation the change adds or removes';
  pick.matchOnDetail = true;
  pick.ignoreFocusOut = true;
  pick.items = flipItems(result, (uri) => vscode.workspace.asRelativePath(vscode.Uri.parse(uri)));
  pick.onDidAccept(async () => {
    const item = pick.selectedItems[0];
    const target = item?.location ?? (item?.uri ? { uri: item.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } } : undefined);
    if (!target) return;
    const { start, end } = target.range;
    await vscode.window.showTextDocument(vscode.Uri.parse(target.uri), {
      selection: new vscode.Range(start.line, start.character, end.line, end.character), preserveFocus: true, preview: true,
    });
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
