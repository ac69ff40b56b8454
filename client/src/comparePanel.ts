/**
 * One compare view: a webview panel (the preview's page, in its compare view) showing the step-aligned diff the
 * server computes for two traces, computed again when either file changes, and a click on a step selecting its
 * source in that side's file.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import type { CompareData, HostToWebview, LineRange, WebviewToHost } from '../../shared/protocol';
import { CompareLocateRequest, CompareRequest, sendRequest, type CompareSideParams } from '../../shared/requests';
import { createNonce, previewHtml } from './previewHtml';
import { fileName, isRenderedMessage, toRange } from './previewPanel';

export interface CompareSideSource {
  /** The file the side is. */
  uri: vscode.Uri;
  /** Its text when it is not the file's (a committed version): never read again. */
  text?: string;
  /** Its name in the view (`HEAD`). */
  label?: string;
  /** What a click on this side opens (a committed version's `git:` URI); the file itself when absent. */
  revealUri?: vscode.Uri;
}

export interface CompareRenderedInfo {
  left: string;
  right: string;
  rowCount: number;
  domNodeCount: number;
  counts: CompareData['counts'];
  notices: string[];
}

export interface CompareRevealedInfo {
  side: 'left' | 'right';
  uri: string;
  selection: vscode.Range;
}

export interface ComparePanelHost {
  client: LanguageClient;
  mediaRoot: vscode.Uri;
  rendered(panel: ComparePanel, info: CompareRenderedInfo): void;
  revealed(panel: ComparePanel, info: CompareRevealedInfo): void;
  disposed(panel: ComparePanel): void;
}

/** One frame: edits arriving together cause one request. */
const CHANGE_DELAY_MS = 16;

export class ComparePanel {
  private ready = false;
  private compareIds = false;
  private traceIndexes: [number | undefined, number | undefined] = [undefined, undefined];
  private last: CompareData | undefined;
  private sequence = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposables: vscode.Disposable[] = [];
  private disposedPanel = false;

  constructor(readonly left: CompareSideSource, readonly right: CompareSideSource, readonly panel: vscode.WebviewPanel, private readonly host: ComparePanelHost) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [host.mediaRoot] };
    panel.title = `${left.label ?? fileName(left.uri)} ↔ ${right.label ?? fileName(right.uri)}`;
    const webview = panel.webview;
    webview.html = previewHtml({
      cspSource: webview.cspSource,
      nonce: createNonce((size) => crypto.getRandomValues(new Uint8Array(size))),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(host.mediaRoot, 'preview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(host.mediaRoot, 'preview.css')).toString(),
      view: 'compare',
    });
    this.disposables.push(
      webview.onDidReceiveMessage((message: WebviewToHost) => this.onMessage(message)),
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** Whether this view shows this file on a side whose text is the file's own (so an edit changes it). */
  follows(uri: string): boolean {
    return [this.left, this.right].some((side) => side.text === undefined && side.uri.toString() === uri);
  }

  refreshSoon(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.compare();
    }, CHANGE_DELAY_MS);
  }

  private sideParams(side: CompareSideSource, traceIndex: number | undefined): CompareSideParams {
    return {
      uri: side.uri.toString(),
      ...(side.text !== undefined ? { text: side.text } : {}),
      ...(side.label !== undefined ? { label: side.label } : {}),
      ...(traceIndex !== undefined ? { traceIndex } : {}),
    };
  }

  private async compare(): Promise<void> {
    if (!this.ready) return;
    const sequence = ++this.sequence;
    const current = () => sequence === this.sequence && !this.disposedPanel;
    this.post({ type: 'comparing', left: this.left.label ?? fileName(this.left.uri), right: this.right.label ?? fileName(this.right.uri) });
    try {
      const data = await sendRequest(this.host.client, CompareRequest, {
        left: this.sideParams(this.left, this.traceIndexes[0]),
        right: this.sideParams(this.right, this.traceIndexes[1]),
        compareIds: this.compareIds,
      });
      if (!current()) return;
      this.last = data;
      // As JSON text: a large view crosses into the webview far faster as one string than as an object tree.
      this.post({ type: 'compareJson', json: JSON.stringify(data) });
    } catch (error) {
      if (!current()) return;
      const reason = error instanceof Error ? error.message : String(error);
      this.post({ type: 'notice', text: `The comparison could not be computed: ${reason}` });
    }
  }

  private post(message: HostToWebview): void {
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  private onMessage(message: WebviewToHost): void {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        void this.compare();
        break;
      case 'revealStep':
        if ((message.side === 'left' || message.side === 'right') && Number.isInteger(message.step) && message.step >= 0) {
          void this.revealStep(message.side, message.step, typeof message.path === 'string' ? message.path.slice(0, 4096) : undefined);
        }
        break;
      case 'compareOptions':
        if (typeof message.compareIds === 'boolean') this.compareIds = message.compareIds;
        if (Number.isInteger(message.leftTrace) && message.leftTrace! >= 0) this.traceIndexes[0] = message.leftTrace;
        if (Number.isInteger(message.rightTrace) && message.rightTrace! >= 0) this.traceIndexes[1] = message.rightTrace;
        void this.compare();
        break;
      case 'rendered':
        if (isRenderedMessage(message) && this.last) {
          this.host.rendered(this, {
            left: this.left.uri.toString(), right: this.right.uri.toString(), rowCount: message.nodeCount, domNodeCount: message.domNodeCount,
            counts: this.last.counts, notices: this.last.notices,
          });
        }
        break;
    }
  }

  /** Asks the server where the step (or its field) is, then shows it; a comparison the server let go is made again. */
  private async revealStep(side: 'left' | 'right', step: number, path: string | undefined): Promise<void> {
    const locate = () => (this.last ? sendRequest(this.host.client, CompareLocateRequest, { id: this.last.id, side, step, ...(path !== undefined ? { path } : {}) }) : Promise.resolve(null));
    let found = await locate().catch(() => null);
    if (!found) {
      await this.compare();
      found = await locate().catch(() => null);
    }
    if (found) await this.reveal(side, found.range, found.selection);
  }

  /** Opens the side's file beside the view (or in the group it is shown in) with the step or field selected. */
  private async reveal(side: 'left' | 'right', range: LineRange, selection: LineRange): Promise<void> {
    const source = side === 'left' ? this.left : this.right;
    const target = source.revealUri ?? source.uri;
    const key = target.toString();
    const visible = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === key);
    const viewColumn = visible?.viewColumn ?? (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
    try {
      const document = await vscode.workspace.openTextDocument(target);
      const editor = await vscode.window.showTextDocument(document, { viewColumn, preserveFocus: false });
      editor.selection = new vscode.Selection(toRange(selection).start, toRange(selection).end);
      // The step first, then what is selected in it (a field far to the right of a long line comes into view too).
      editor.revealRange(toRange(range), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      this.host.revealed(this, { side, uri: key, selection: editor.selection });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`Could not open ${source.label ?? fileName(source.uri)}: ${reason}`);
    }
  }

  private dispose(): void {
    this.disposedPanel = true;
    clearTimeout(this.timer);
    this.sequence++;
    this.host.disposed(this);
    for (const disposable of this.disposables) disposable.dispose();
    this.disposables = [];
  }
}
