/** One trace preview: a webview panel showing one document's graph, asking the server again when it changes. */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import type { GraphData, HostToWebview, LineRange, WebviewToHost } from '../../shared/protocol';
import { GraphRequest, sendRequest } from '../../shared/requests';
import { createNonce, previewHtml } from './previewHtml';

export interface RenderedInfo {
  nodeCount: number;
  domNodeCount: number;
  version: number;
}

/** The node the preview selected for the editor's cursor or a code lens: which event of which trace. */
export interface RevealedInfo {
  traceIndex: number;
  eventIndex: number;
  kind: string;
}

/** What a panel needs from the previews around it. */
export interface PanelHost {
  client: LanguageClient;
  mediaRoot: vscode.Uri;
  /** The panel still belongs to the previews (not disposed). */
  isOpen(panel: PreviewPanel): boolean;
  rendered(panel: PreviewPanel, info: RenderedInfo): void;
  revealed(panel: PreviewPanel, info: RevealedInfo): void;
  disposed(panel: PreviewPanel): void;
}

/** One frame: edits arriving together cause one request. */
const MODEL_CHANGE_DELAY_MS = 16;

export function fileName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() || uri.toString();
}

export class PreviewPanel {
  private ready = false;
  /** Dataset files: the trace shown; undefined lets the server pick the one under the cursor. */
  private traceIndex: number | undefined;
  /** Lines covered by the graph last sent (to notice when the cursor moves to another trace of a dataset). */
  private lines: { first: number; last: number } | undefined;
  private format: GraphData['format'] | undefined;
  /** The editor's last cursor position, and whether the next graph should select its node (a lens, another trace). */
  private cursor: { line: number; character: number } | undefined;
  private revealAfterGraph = false;
  private requestSequence = 0;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private disposables: vscode.Disposable[] = [];

  /** Wires a panel, new or restored by VS Code after a reload, to the preview of one document. */
  constructor(readonly uri: vscode.Uri, readonly panel: vscode.WebviewPanel, private readonly host: PanelHost) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [host.mediaRoot] };
    panel.title = `Preview ${fileName(uri)}`;
    const webview = panel.webview;
    webview.html = previewHtml({
      cspSource: webview.cspSource,
      nonce: createNonce((size) => crypto.getRandomValues(new Uint8Array(size))),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(host.mediaRoot, 'preview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(host.mediaRoot, 'preview.css')).toString(),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((message: WebviewToHost) => this.onMessage(message)),
      // The webview's document is discarded when hidden (retainContextWhenHidden is off); it says `ready` again.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) this.ready = false;
      }),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /** The document's model changed on the server. */
  refreshSoon(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      void this.requestGraph();
    }, MODEL_CHANGE_DELAY_MS);
  }

  /**
   * The editor's cursor moved; in a dataset (or an Inspect log), a line of another trace (sample) shows that trace,
   * with the cursor's node selected.
   */
  cursorMoved(line: number, character: number): void {
    this.cursor = { line, character };
    if (!this.ready) return;
    if ((this.format === 'dataset' || this.format === 'inspect') && this.lines && (line < this.lines.first || line > this.lines.last)) {
      this.traceIndex = undefined;
      this.revealAfterGraph = true;
      void this.requestGraph(undefined);
      return;
    }
    this.post({ type: 'cursor', line, character });
  }

  /** Selects the node at a position (a code lens's event), now or once the preview has drawn its graph. */
  reveal(line: number, character: number): void {
    this.revealAfterGraph = !this.ready;
    this.cursorMoved(line, character);
  }

  private dispose(): void {
    clearTimeout(this.refreshTimer);
    this.requestSequence++;
    this.host.disposed(this);
    for (const disposable of this.disposables) disposable.dispose();
    this.disposables = [];
  }

  private post(message: HostToWebview): void {
    if (this.ready) void this.panel.webview.postMessage(message);
  }

  private async requestGraph(traceIndex = this.traceIndex): Promise<void> {
    if (!this.ready) return;
    const sequence = ++this.requestSequence;
    const current = () => sequence === this.requestSequence && this.host.isOpen(this);
    try {
      const data = await sendRequest(this.host.client, GraphRequest, { uri: this.uri.toString(), traceIndex, cursorLine: cursorLineOf(this.uri) });
      if (!current()) return;
      this.traceIndex = data.traceIndex;
      this.format = data.format;
      this.lines = graphLines(data);
      // As JSON text: VS Code clones a posted object twice on its way into the webview, and for a large graph that
      // costs several times what one JSON.parse in the webview does (see bench/preview.bench.ts).
      this.post({ type: 'graphJson', json: JSON.stringify(data) });
      if (this.revealAfterGraph && this.cursor) {
        this.revealAfterGraph = false;
        this.post({ type: 'cursor', ...this.cursor });
      }
    } catch (error) {
      if (!current()) return;
      const reason = error instanceof Error ? error.message : String(error);
      this.post({ type: 'notice', text: `The preview could not be updated: ${reason}` });
    }
  }

  private onMessage(message: WebviewToHost): void {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        void this.requestGraph();
        break;
      case 'reveal':
        if (isLineRange(message.range) && isLineRange(message.selection)) void this.revealInEditor(message.range, message.selection);
        break;
      case 'selectTrace':
        if (Number.isInteger(message.traceIndex) && message.traceIndex >= 0) {
          this.traceIndex = message.traceIndex;
          void this.requestGraph(message.traceIndex);
        }
        break;
      case 'revealed':
        if (Number.isInteger(message.traceIndex) && Number.isInteger(message.eventIndex) && typeof message.kind === 'string') {
          this.host.revealed(this, { traceIndex: message.traceIndex, eventIndex: message.eventIndex, kind: message.kind });
        }
        break;
      case 'rendered':
        if (isRenderedMessage(message)) {
          this.host.rendered(this, { nodeCount: message.nodeCount, domNodeCount: message.domNodeCount, version: message.version });
        }
        break;
    }
  }

  private async revealInEditor(range: LineRange, selection: LineRange): Promise<void> {
    const key = this.uri.toString();
    const visible = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === key);
    const viewColumn =
      visible?.viewColumn ??
      (this.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
    try {
      const document = await vscode.workspace.openTextDocument(this.uri);
      const editor = await vscode.window.showTextDocument(document, { viewColumn, preserveFocus: false });
      editor.selection = new vscode.Selection(toRange(selection).start, toRange(selection).end);
      editor.revealRange(toRange(range), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`Could not open ${fileName(this.uri)}: ${reason}`);
    }
  }
}

function cursorLineOf(uri: vscode.Uri): number | undefined {
  const key = uri.toString();
  const editor =
    vscode.window.activeTextEditor?.document.uri.toString() === key
      ? vscode.window.activeTextEditor
      : vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.toString() === key);
  return editor?.selection.active.line;
}

export function toRange(range: LineRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

function graphLines(data: GraphData): { first: number; last: number } | undefined {
  let first = Infinity;
  let last = -Infinity;
  for (const node of data.nodes) {
    if (node.range.start.line < first) first = node.range.start.line;
    if (node.range.end.line > last) last = node.range.end.line;
  }
  return first <= last ? { first, last } : undefined;
}

export function isRenderedMessage(message: unknown): message is Extract<WebviewToHost, { type: 'rendered' }> {
  const value = message as Record<string, unknown>;
  return typeof value.nodeCount === 'number' && typeof value.domNodeCount === 'number' && typeof value.version === 'number';
}

function isLineRange(value: unknown): value is LineRange {
  const range = value as LineRange | undefined;
  return (
    typeof range?.start?.line === 'number' &&
    typeof range.start.character === 'number' &&
    typeof range.end?.line === 'number' &&
    typeof range.end.character === 'number'
  );
}
