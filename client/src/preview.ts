/**
 * The trace preview panels: one webview per trace document, fed with the graph (data and layout) the language
 * server computes, kept in step with edits and with the editor's cursor.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { GraphData, HostToWebview, LineRange, WebviewToHost } from '../../shared/protocol';
import { GraphRequest, ModelChangedNotification, onNotification, sendRequest, type GraphParams } from '../../shared/requests';
import { createNonce, previewHtml } from './previewHtml';

export interface RenderedInfo {
  nodeCount: number;
  domNodeCount: number;
  version: number;
}

export interface PreviewApi {
  onDidRender: vscode.Event<RenderedInfo & { uri: string }>;
  lastRendered(uri: string): RenderedInfo | undefined;
}

const TRACE_LANGUAGES = new Set(['agent-trace', 'agent-trace-jsonl']);
const VIEW_TYPE = 'agentTraces.preview';
/** One frame: edits arriving together cause one request. */
const MODEL_CHANGE_DELAY_MS = 16;

interface PreviewPanel {
  uri: vscode.Uri;
  panel: vscode.WebviewPanel;
  ready: boolean;
  /** Dataset files: the trace shown; undefined lets the server pick the one under the cursor. */
  traceIndex: number | undefined;
  /** Lines covered by the graph last sent (to notice when the cursor moves to another trace of a dataset). */
  lines: { first: number; last: number } | undefined;
  format: GraphData['format'] | undefined;
  requestSequence: number;
  refreshTimer: ReturnType<typeof setTimeout> | undefined;
  disposables: vscode.Disposable[];
}

function toRange(range: LineRange): vscode.Range {
  return new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character);
}

function restorableUri(value: unknown): vscode.Uri | undefined {
  if (typeof value !== 'string' || value.length > 4096) return undefined;
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(value, true);
  } catch {
    return undefined;
  }
  if (!/\.(json|jsonl)$/i.test(uri.path) || !vscode.workspace.getWorkspaceFolder(uri)) return undefined;
  return uri;
}

function fileName(uri: vscode.Uri): string {
  return uri.path.split('/').pop() || uri.toString();
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

function isRenderedMessage(message: unknown): message is Extract<WebviewToHost, { type: 'rendered' }> {
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

export function registerPreview(context: vscode.ExtensionContext, client: LanguageClient): PreviewApi {
  const panels = new Map<string, PreviewPanel>();
  const rendered = new Map<string, RenderedInfo>();
  const renderEmitter = new vscode.EventEmitter<RenderedInfo & { uri: string }>();
  const mediaRoot = vscode.Uri.joinPath(context.extensionUri, 'dist', 'media');

  const post = (entry: PreviewPanel, message: HostToWebview) => {
    if (entry.ready) void entry.panel.webview.postMessage(message);
  };

  const cursorLineOf = (uri: vscode.Uri): number | undefined => {
    const key = uri.toString();
    const editor =
      vscode.window.activeTextEditor?.document.uri.toString() === key
        ? vscode.window.activeTextEditor
        : vscode.window.visibleTextEditors.find((candidate) => candidate.document.uri.toString() === key);
    return editor?.selection.active.line;
  };

  const requestGraph = async (entry: PreviewPanel, traceIndex = entry.traceIndex) => {
    if (!entry.ready) return;
    const sequence = ++entry.requestSequence;
    const params: GraphParams = { uri: entry.uri.toString(), traceIndex, cursorLine: cursorLineOf(entry.uri) };
    try {
      const data = await sendRequest(client, GraphRequest, params);
      if (sequence !== entry.requestSequence || !panels.has(entry.uri.toString())) return;
      entry.traceIndex = data.traceIndex;
      entry.format = data.format;
      entry.lines = graphLines(data);
      // As JSON text: VS Code clones a posted object twice on its way into the webview, and for a large graph that
      // costs several times what one JSON.parse in the webview does (see bench/preview.bench.ts).
      post(entry, { type: 'graphJson', json: JSON.stringify(data) });
    } catch (error) {
      if (sequence !== entry.requestSequence || !panels.has(entry.uri.toString())) return;
      const reason = error instanceof Error ? error.message : String(error);
      post(entry, { type: 'notice', text: `The preview could not be updated: ${reason}` });
    }
  };

  const refreshSoon = (entry: PreviewPanel) => {
    clearTimeout(entry.refreshTimer);
    entry.refreshTimer = setTimeout(() => {
      entry.refreshTimer = undefined;
      void requestGraph(entry);
    }, MODEL_CHANGE_DELAY_MS);
  };

  const revealInEditor = async (entry: PreviewPanel, range: LineRange, selection: LineRange) => {
    const key = entry.uri.toString();
    const visible = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === key);
    const viewColumn =
      visible?.viewColumn ??
      (entry.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
    try {
      const document = await vscode.workspace.openTextDocument(entry.uri);
      const editor = await vscode.window.showTextDocument(document, { viewColumn, preserveFocus: false });
      editor.selection = new vscode.Selection(toRange(selection).start, toRange(selection).end);
      editor.revealRange(toRange(range), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`Could not open ${fileName(entry.uri)}: ${reason}`);
    }
  };

  const onMessage = (entry: PreviewPanel, message: WebviewToHost) => {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'ready':
        entry.ready = true;
        void requestGraph(entry);
        break;
      case 'reveal':
        if (isLineRange(message.range) && isLineRange(message.selection)) {
          void revealInEditor(entry, message.range, message.selection);
        }
        break;
      case 'selectTrace':
        if (Number.isInteger(message.traceIndex) && message.traceIndex >= 0) {
          entry.traceIndex = message.traceIndex;
          void requestGraph(entry, message.traceIndex);
        }
        break;
      case 'rendered':
        if (isRenderedMessage(message)) {
          const info = { nodeCount: message.nodeCount, domNodeCount: message.domNodeCount, version: message.version };
          rendered.set(entry.uri.toString(), info);
          renderEmitter.fire({ uri: entry.uri.toString(), ...info });
        }
        break;
    }
  };

  const createPanel = (uri: vscode.Uri, viewColumn: vscode.ViewColumn, preserveFocus: boolean): PreviewPanel => {
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      `Preview ${fileName(uri)}`,
      { viewColumn, preserveFocus },
      { enableScripts: true, localResourceRoots: [mediaRoot], retainContextWhenHidden: false },
    );
    return attachPanel(panel, uri);
  };

  /** Wires a panel, new or restored by VS Code after a reload, to the preview of one document. */
  const attachPanel = (panel: vscode.WebviewPanel, uri: vscode.Uri): PreviewPanel => {
    panel.webview.options = { enableScripts: true, localResourceRoots: [mediaRoot] };
    panel.title = `Preview ${fileName(uri)}`;
    const webview = panel.webview;
    webview.html = previewHtml({
      cspSource: webview.cspSource,
      nonce: createNonce((size) => randomBytes(size)),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'preview.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(mediaRoot, 'preview.css')).toString(),
    });
    const entry: PreviewPanel = {
      uri,
      panel,
      ready: false,
      traceIndex: undefined,
      lines: undefined,
      format: undefined,
      requestSequence: 0,
      refreshTimer: undefined,
      disposables: [],
    };
    entry.disposables.push(
      webview.onDidReceiveMessage((message: WebviewToHost) => onMessage(entry, message)),
      // The webview's document is discarded when hidden (retainContextWhenHidden is off); it says `ready` again.
      panel.onDidChangeViewState(() => {
        if (!panel.visible) entry.ready = false;
      }),
      panel.onDidDispose(() => {
        clearTimeout(entry.refreshTimer);
        entry.requestSequence++;
        panels.delete(uri.toString());
        rendered.delete(uri.toString());
        for (const disposable of entry.disposables) disposable.dispose();
        entry.disposables = [];
      }),
    );
    panels.set(uri.toString(), entry);
    return entry;
  };

  const targetUri = (argument: unknown): vscode.Uri | undefined => {
    if (argument instanceof vscode.Uri) return argument;
    const document = vscode.window.activeTextEditor?.document;
    if (document && TRACE_LANGUAGES.has(document.languageId)) return document.uri;
    return undefined;
  };

  const showPreview = (argument: unknown, toSide: boolean) => {
    const uri = targetUri(argument);
    if (!uri) {
      void vscode.window.showInformationMessage('Open an agent trace file (.trace.json or .trace.jsonl) to preview it.');
      return;
    }
    const viewColumn = toSide ? vscode.ViewColumn.Beside : (vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.Active);
    const existing = panels.get(uri.toString());
    if (existing) {
      existing.panel.reveal(viewColumn, toSide);
      return;
    }
    createPanel(uri, viewColumn, toSide);
  };

  context.subscriptions.push(
    renderEmitter,
    // Previews open when the window reloads come back; the webview saved its document's uri in its state.
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown) {
        // The state comes from the webview, which shows untrusted content: its uri is only a hint, taken when it
        // names a trace file inside the workspace (the server checks again before it reads anything from disk).
        const uri = restorableUri((state as { uri?: unknown } | undefined)?.uri);
        if (!uri || panels.has(uri.toString())) {
          panel.dispose();
          return;
        }
        attachPanel(panel, uri);
      },
    }),
    vscode.commands.registerCommand('agentTraces.showPreview', (argument?: unknown) => showPreview(argument, false)),
    vscode.commands.registerCommand('agentTraces.showPreviewToSide', (argument?: unknown) => showPreview(argument, true)),
    onNotification(client, ModelChangedNotification, (params) => {
      const entry = panels.get(params.uri);
      if (entry) refreshSoon(entry);
    }),
    vscode.window.onDidChangeTextEditorSelection((event) => {
      const entry = panels.get(event.textEditor.document.uri.toString());
      if (!entry?.ready) return;
      const line = event.selections[0]?.active.line;
      if (line === undefined) return;
      // In a dataset, moving to a line of another trace shows that trace.
      if (entry.format === 'dataset' && entry.lines && (line < entry.lines.first || line > entry.lines.last)) {
        entry.traceIndex = undefined;
        void requestGraph(entry, undefined);
        return;
      }
      post(entry, { type: 'cursor', line });
    }),
    {
      dispose: () => {
        for (const entry of [...panels.values()]) entry.panel.dispose();
        panels.clear();
      },
    },
  );

  return {
    onDidRender: renderEmitter.event,
    lastRendered: (uri) => rendered.get(uri),
  };
}
