/**
 * "Compare Traces…" (two files from the Explorer, or the active trace against another) and "Compare with Committed
 * Version" (a trace's working copy against HEAD, as VS Code's own "Open Changes"): each opens a compare view.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { committedVersion } from './committedVersion';
import { ComparePanel, type CompareRenderedInfo, type CompareRevealedInfo, type CompareSideSource } from './comparePanel';
import { fileName } from './previewPanel';
import { findWorkspaceFiles } from './workspaceFiles';

export type { CompareRenderedInfo, CompareRevealedInfo } from './comparePanel';

export interface CompareApi {
  onDidRender: vscode.Event<CompareRenderedInfo>;
  /** Fires when a click in a compare view selected a step or a field in one of its files. */
  onDidReveal: vscode.Event<CompareRevealedInfo>;
}

const VIEW_TYPE = 'agentTraces.compare';
/** Files offered as the other side: trace files, datasets and logs of the workspace. */
const TRACE_GLOB = '**/*.{trace.json,trace.jsonl,jsonl,json}';
const MAX_OFFERED = 2000;

export function registerCompare(context: vscode.ExtensionContext, client: LanguageClient, modelChanged: vscode.Event<{ uri: string }>): CompareApi {
  const views = new CompareViews(client, vscode.Uri.joinPath(context.extensionUri, 'dist', 'media'));
  context.subscriptions.push(
    views,
    vscode.commands.registerCommand('agentTraces.compareTraces', (first?: unknown, selected?: unknown) => views.compareTraces(first, selected)),
    vscode.commands.registerCommand('agentTraces.compareWithCommitted', (argument?: unknown) => views.compareWithCommitted(argument)),
    modelChanged((change) => views.modelChanged(change.uri)),
  );
  return { onDidRender: views.onDidRender, onDidReveal: views.onDidReveal };
}

class CompareViews implements vscode.Disposable {
  private readonly panels = new Set<ComparePanel>();
  private readonly renderEmitter = new vscode.EventEmitter<CompareRenderedInfo>();
  readonly onDidRender = this.renderEmitter.event;
  private readonly revealEmitter = new vscode.EventEmitter<CompareRevealedInfo>();
  readonly onDidReveal = this.revealEmitter.event;

  constructor(readonly client: LanguageClient, readonly mediaRoot: vscode.Uri) {}

  rendered(_panel: ComparePanel, info: CompareRenderedInfo): void {
    this.renderEmitter.fire(info);
  }

  revealed(_panel: ComparePanel, info: CompareRevealedInfo): void {
    this.revealEmitter.fire(info);
  }

  disposed(panel: ComparePanel): void {
    this.panels.delete(panel);
  }

  modelChanged(uri: string): void {
    for (const panel of this.panels) if (panel.follows(uri)) panel.refreshSoon();
  }

  /** From the Explorer: the clicked file and the selection (two files compare in the order selected). */
  async compareTraces(first: unknown, selected: unknown): Promise<void> {
    const chosen = Array.isArray(selected) ? selected.filter((item): item is vscode.Uri => item instanceof vscode.Uri) : [];
    if (chosen.length === 2) return this.open({ uri: chosen[0] }, { uri: chosen[1] });
    const left = first instanceof vscode.Uri ? first : vscode.window.activeTextEditor?.document.uri;
    if (!left) {
      void vscode.window.showInformationMessage('Open a trace file, or select two in the Explorer, to compare traces.');
      return;
    }
    const right = await pickOtherTrace(left);
    if (right) this.open({ uri: left }, { uri: right });
  }

  /** The file's committed version on the left, its working copy (or the open document) on the right. */
  async compareWithCommitted(argument: unknown): Promise<void> {
    const uri = argument instanceof vscode.Uri
      ? argument
      : (argument as { resourceUri?: unknown } | undefined)?.resourceUri instanceof vscode.Uri
        ? (argument as { resourceUri: vscode.Uri }).resourceUri
        : vscode.window.activeTextEditor?.document.uri;
    if (!uri) {
      void vscode.window.showInformationMessage('Open a trace file under git to compare it with its committed version.');
      return;
    }
    const maxMB = vscode.workspace.getConfiguration('agentTraces').get<number>('files.maxSizeMB', 100);
    const committed = await committedVersion(uri, Math.max(1, maxMB) * 1024 * 1024);
    if (!committed.ok) {
      void vscode.window.showWarningMessage(`${fileName(uri)} cannot be compared with its committed version: ${committed.reason}.`);
      return;
    }
    this.open({ uri, text: committed.text, label: `${fileName(uri)} (HEAD)`, revealUri: committed.uri }, { uri, label: `${fileName(uri)} (working copy)` });
  }

  private open(left: CompareSideSource, right: CompareSideSource): void {
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      'Compare Traces',
      { viewColumn: vscode.ViewColumn.Active },
      { enableScripts: true, localResourceRoots: [this.mediaRoot], retainContextWhenHidden: false },
    );
    this.panels.add(new ComparePanel(left, right, panel, this));
  }

  dispose(): void {
    for (const panel of [...this.panels]) panel.panel.dispose();
    this.panels.clear();
    this.renderEmitter.dispose();
    this.revealEmitter.dispose();
  }
}

/** The other trace: one of the workspace's trace files (the active one left out), or any file chosen in a dialog. */
async function pickOtherTrace(left: vscode.Uri): Promise<vscode.Uri | undefined> {
  const browse = 'Browse…';
  const found = await findWorkspaceFiles({ glob: TRACE_GLOB, nameMatches: (name) => /\.jsonl?$/i.test(name), skippedFolders: ['node_modules'], maxFiles: MAX_OFFERED });
  const files = found.uris
    .filter((uri) => uri.toString() !== left.toString())
    .sort((a, b) => a.path.localeCompare(b.path));
  const items: (vscode.QuickPickItem & { uri?: vscode.Uri })[] = [
    ...files.map((uri) => ({ label: fileName(uri), description: vscode.workspace.asRelativePath(uri, true), uri })),
    { label: browse, description: 'a trace file anywhere' },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: `Compare ${fileName(left)} with…`, placeHolder: found.truncated ? `A trace file, dataset, agentguard log or agent conversation (the workspace's first ${found.uris.length} JSON files)` : 'A trace file, dataset, agentguard log or agent conversation', matchOnDescription: true });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const chosen = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Compare', filters: { 'Agent traces': ['json', 'jsonl'] } });
  return chosen?.[0];
}
