/**
 * The trace preview panels: one webview per trace document (./previewPanel), fed with the graph (data and layout)
 * the language server computes, kept in step with edits and with the editor's cursor.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient as LanguageClient } from 'vscode-languageclient';
import { RevealInPreviewCommand } from '../../shared/requests';
import { fileName, PreviewPanel, type PanelHost, type RenderedInfo, type RevealedInfo } from './previewPanel';

export type { RenderedInfo, RevealedInfo } from './previewPanel';

export interface PreviewApi {
  onDidRender: vscode.Event<RenderedInfo & { uri: string }>;
  lastRendered(uri: string): RenderedInfo | undefined;
  /** Fires when a preview selects the node for the editor's cursor or a code lens. */
  onDidReveal: vscode.Event<RevealedInfo & { uri: string }>;
}

const TRACE_LANGUAGES = new Set(['agent-trace', 'agent-trace-jsonl', 'agent-trace-anthropic', 'agent-trace-inspect']);
const VIEW_TYPE = 'agentTraces.preview';

export function registerPreview(context: vscode.ExtensionContext, client: LanguageClient, modelChanged: vscode.Event<{ uri: string }>): PreviewApi {
  const previews = new Previews(client, vscode.Uri.joinPath(context.extensionUri, 'dist', 'media'));
  context.subscriptions.push(...previews.register(), modelChanged((change) => previews.modelChanged(change.uri)));
  return { onDidRender: previews.onDidRender, lastRendered: (uri) => previews.lastRendered(uri), onDidReveal: previews.onDidReveal };
}

/** The open previews, one per document, and the commands and events that open and update them. */
class Previews implements PanelHost {
  private readonly panels = new Map<string, PreviewPanel>();
  private readonly renders = new Map<string, RenderedInfo>();
  private readonly renderEmitter = new vscode.EventEmitter<RenderedInfo & { uri: string }>();
  readonly onDidRender = this.renderEmitter.event;
  private readonly revealEmitter = new vscode.EventEmitter<RevealedInfo & { uri: string }>();
  readonly onDidReveal = this.revealEmitter.event;

  constructor(readonly client: LanguageClient, readonly mediaRoot: vscode.Uri) {}

  lastRendered(uri: string): RenderedInfo | undefined {
    return this.renders.get(uri);
  }

  isOpen(panel: PreviewPanel): boolean {
    return this.panels.get(panel.uri.toString()) === panel;
  }

  rendered(panel: PreviewPanel, info: RenderedInfo): void {
    this.renders.set(panel.uri.toString(), info);
    this.renderEmitter.fire({ uri: panel.uri.toString(), ...info });
  }

  revealed(panel: PreviewPanel, info: RevealedInfo): void {
    this.revealEmitter.fire({ uri: panel.uri.toString(), ...info });
  }

  disposed(panel: PreviewPanel): void {
    if (!this.isOpen(panel)) return;
    this.panels.delete(panel.uri.toString());
    this.renders.delete(panel.uri.toString());
  }

  modelChanged(uri: string): void {
    this.panels.get(uri)?.refreshSoon();
  }

  register(): vscode.Disposable[] {
    return [
      this.renderEmitter,
      this.revealEmitter,
      // Previews open when the window reloads come back; the webview saved its document's uri in its state.
      vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
        deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => this.restore(panel, state),
      }),
      vscode.commands.registerCommand('agentTraces.showPreview', (argument?: unknown) => this.show(argument, false)),
      vscode.commands.registerCommand('agentTraces.showPreviewToSide', (argument?: unknown) => this.show(argument, true)),
      vscode.commands.registerCommand(RevealInPreviewCommand, (uri?: unknown, offset?: unknown) => this.revealInPreview(uri, offset)),
      vscode.window.onDidChangeTextEditorSelection((event) => {
        const active = event.selections[0]?.active;
        if (active) this.panels.get(event.textEditor.document.uri.toString())?.cursorMoved(active.line, active.character);
      }),
      {
        dispose: () => {
          for (const panel of [...this.panels.values()]) panel.panel.dispose();
          this.panels.clear();
        },
      },
    ];
  }

  /** A code lens's link: the cursor goes to the event, and the preview beside it shows that event's node. */
  private revealInPreview(uri: unknown, offset: unknown): void {
    const editor = vscode.window.activeTextEditor;
    if (typeof uri !== 'string' || typeof offset !== 'number' || editor?.document.uri.toString() !== uri) return;
    const position = editor.document.positionAt(offset);
    editor.selection = new vscode.Selection(position, position);
    this.show(editor.document.uri, true)?.reveal(position.line, position.character);
  }

  private show(argument: unknown, toSide: boolean): PreviewPanel | undefined {
    const uri = targetUri(argument);
    if (!uri) {
      void vscode.window.showInformationMessage('Open an agent trace file (.trace.json or .trace.jsonl) to preview it.');
      return undefined;
    }
    const viewColumn = toSide ? vscode.ViewColumn.Beside : (vscode.window.activeTextEditor?.viewColumn ?? vscode.ViewColumn.Active);
    const existing = this.panels.get(uri.toString());
    if (existing) {
      existing.panel.reveal(viewColumn, toSide);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      `Preview ${fileName(uri)}`,
      { viewColumn, preserveFocus: toSide },
      { enableScripts: true, localResourceRoots: [this.mediaRoot], retainContextWhenHidden: false },
    );
    return this.attach(panel, uri);
  }

  private restore(panel: vscode.WebviewPanel, state: unknown): void {
    // The state comes from the webview, which shows untrusted content: its uri is only a hint, taken when it
    // names a trace file inside the workspace (the server checks again before it reads anything from disk).
    const uri = restorableUri((state as { uri?: unknown } | undefined)?.uri);
    if (!uri || this.panels.has(uri.toString())) {
      panel.dispose();
      return;
    }
    this.attach(panel, uri);
  }

  private attach(panel: vscode.WebviewPanel, uri: vscode.Uri): PreviewPanel {
    const preview = new PreviewPanel(uri, panel, this);
    this.panels.set(uri.toString(), preview);
    return preview;
  }
}

function targetUri(argument: unknown): vscode.Uri | undefined {
  if (argument instanceof vscode.Uri) return argument;
  const document = vscode.window.activeTextEditor?.document;
  if (document && TRACE_LANGUAGES.has(document.languageId)) return document.uri;
  return undefined;
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
