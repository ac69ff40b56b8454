import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { InspectArchiveTextRequest, sendRequest } from '../../shared/requests';

/**
 * Inspect `.eval` logs (zip archives) in the editor: opening one shows, read-only, the JSON log it holds, as an
 * Inspect AI Log document (outline of samples and scores, navigation, hovers, diagnostics, the preview, rules). The
 * archive is read here through `workspace.fs` (any file system the workspace has, the browser's too) and handed to
 * the server, which inflates it within its limits. The view is a document of our scheme whose query is the archive's
 * URI; opening a `.eval` file opens that view in place of VS Code's "binary file" notice.
 */
export const archiveScheme = 'agent-traces-eval';
export const openArchiveCommand = 'agentTraces.openInspectArchive';
const editorViewType = 'agentTraces.inspectArchive';

/** The view of an archive: its path (so the tab says `run.eval`), the archive's URI in the query. */
export function archiveViewUri(archive: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: archiveScheme, path: archive.path, query: archive.toString() });
}

/** The archive a view shows. */
export function archiveOfView(view: vscode.Uri): vscode.Uri {
  return vscode.Uri.parse(view.query, true);
}

export function registerInspectArchives(context: vscode.ExtensionContext, client: BaseLanguageClient): void {
  const provider: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent: async (view) => {
      const answer = await readArchive(client, archiveOfView(view));
      if ('reason' in answer) {
        void vscode.window.showErrorMessage(`Agent Traces: ${vscode.workspace.asRelativePath(archiveOfView(view))}: ${answer.reason}`);
        throw new Error(answer.reason);
      }
      return answer.text;
    },
  };
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(archiveScheme, provider),
    vscode.commands.registerCommand(openArchiveCommand, async (target?: vscode.Uri) => {
      const archive = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
      if (!archive) {
        void vscode.window.showInformationMessage('Agent Traces: choose an Inspect .eval log in the Explorer to open it.');
        return undefined;
      }
      return openArchive(archive.scheme === archiveScheme ? archiveOfView(archive) : archive);
    }),
    vscode.window.registerCustomEditorProvider(editorViewType, new ArchiveEditor(), { supportsMultipleEditorsPerDocument: true }),
  );
}

/** Opens the view of an archive as an Inspect AI Log, read-only. */
export async function openArchive(archive: vscode.Uri, viewColumn?: vscode.ViewColumn): Promise<vscode.TextEditor> {
  let document = await vscode.workspace.openTextDocument(archiveViewUri(archive));
  if (document.languageId !== 'agent-trace-inspect') document = await vscode.languages.setTextDocumentLanguage(document, 'agent-trace-inspect');
  return vscode.window.showTextDocument(document, { viewColumn, preview: false });
}

/** The archive's bytes, within the file size limit the server applies to the log once inflated. */
async function readArchive(client: BaseLanguageClient, archive: vscode.Uri): Promise<{ text: string } | { reason: string }> {
  const maxMB = vscode.workspace.getConfiguration('agentTraces').get<number>('files.maxSizeMB', 100);
  try {
    const { size } = await vscode.workspace.fs.stat(archive);
    if (size > maxMB * 1024 * 1024) return { reason: `refused: the archive is ${(size / 1024 / 1024).toFixed(1)} MB, over the ${maxMB} MB limit (setting agentTraces.files.maxSizeMB)` };
    const bytes = await vscode.workspace.fs.readFile(archive);
    return await sendRequest(client, InspectArchiveTextRequest, { uri: archive.toString(), bytes: toBase64(bytes) });
  } catch (error) {
    return { reason: `cannot read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function toBase64(bytes: Uint8Array): string {
  if (typeof Buffer !== 'undefined') return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/**
 * What opening a `.eval` file shows: the archive's view as text, which replaces this editor in its column (a webview
 * is only what shows for the moment it takes, or what stays, with the reason, when the archive cannot be read).
 */
class ArchiveEditor implements vscode.CustomReadonlyEditorProvider {
  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const name = escapeHtml(vscode.workspace.asRelativePath(document.uri));
    panel.webview.options = { enableScripts: false, enableCommandUris: [openArchiveCommand] };
    const again = `command:${openArchiveCommand}?${encodeURIComponent(JSON.stringify([document.uri.toJSON()]))}`;
    panel.webview.html = page(`<p>Opening ${name} as the Inspect log it holds…</p>`);
    try {
      await openArchive(document.uri, panel.viewColumn);
      const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs)
        .find((each) => each.input instanceof vscode.TabInputCustom && each.input.viewType === editorViewType && each.input.uri.toString() === document.uri.toString());
      if (tab) await vscode.window.tabGroups.close(tab);
      else panel.dispose();
    } catch (error) {
      const reason = escapeHtml(error instanceof Error ? error.message : String(error));
      panel.webview.html = page(`<p>${name} was not opened as an Inspect log: ${reason}</p><p><a href="${escapeHtml(again)}">Try again</a></p>`);
    }
  }
}

function page(body: string): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"></head><body style="font-family: var(--vscode-font-family); padding: 1em">${body}</body></html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
