// Shared by the *.e2e.ts files (bundled into each). Waiting is always on a condition, re-checked when VS Code
// reports a change, never a fixed sleep.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'agent-traces.agent-traces';

export interface RenderedInfo {
  nodeCount: number;
  domNodeCount: number;
  version: number;
}

/** URIs are passed as strings (`uri.toString()`), as the extension's PreviewApi declares. */
export interface RenderEvent extends RenderedInfo {
  uri: string;
}

/** The node a preview selected for the cursor or a code lens. */
export interface RevealEvent {
  uri: string;
  traceIndex: number;
  eventIndex: number;
  kind: string;
}

export interface AgentTracesApi {
  preview: {
    onDidRender: vscode.Event<RenderEvent>;
    lastRendered(uri: string): RenderedInfo | undefined;
    onDidReveal: vscode.Event<RevealEvent>;
  };
  compare: {
    onDidRender: vscode.Event<CompareRenderEvent>;
    onDidReveal: vscode.Event<{ side: 'left' | 'right'; uri: string; selection: vscode.Range }>;
  };
  ruleTests: {
    controller: vscode.TestController;
    discovered(): Promise<void>;
    onDidFinishRun: vscode.Event<RuleTestsRunReport>;
    runManifest(uri: vscode.Uri): Promise<RuleTestsRunReport>;
  };
  whyNotHere: {
    onDidExplain: vscode.Event<{ uri: string; range: vscode.Range; wouldFire: boolean; markdown: string }>;
  };
  serverInfo(): Promise<{ pid: number; version: string }>;
}

/** What a run of rule tests reported per case, as the Test Explorer shows it. */
export interface RuleTestsRunReport {
  manifests: string[];
  cases: {
    id: string;
    label: string;
    state: 'passed' | 'failed' | 'errored' | 'skipped';
    messages: { text: string; expected?: string; actual?: string; uri?: string; range?: vscode.Range }[];
  }[];
  coverage: { uri: string; covered: number; total: number }[];
}

/** A compare view drew its rows: the two files, the row count and the diff's counts. */
export interface CompareRenderEvent {
  left: string;
  right: string;
  rowCount: number;
  domNodeCount: number;
  counts: { same: number; added: number; removed: number; changed: number; reordered: number; nowFail: number; nowSucceed: number };
  notices: string[];
}

/** Events after which a waited-for condition may have become true. */
function changeEvents(): vscode.Event<unknown>[] {
  return [
    vscode.languages.onDidChangeDiagnostics,
    vscode.workspace.onDidChangeTextDocument,
    vscode.workspace.onDidOpenTextDocument,
    vscode.window.onDidChangeActiveTextEditor,
    vscode.window.onDidChangeVisibleTextEditors,
    vscode.window.tabGroups.onDidChangeTabs,
    vscode.extensions.onDidChange,
  ];
}

/**
 * Resolves with the condition's first truthy value. The condition is checked now, after every VS Code change
 * event above, and every `pollMs` for states no event announces (an extension's activation, a process id).
 * Rejects after timeoutMs with the description and the last value or error seen.
 */
export function waitFor<T>(
  condition: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs: number,
  description: string,
  { pollMs = 100, extraEvents = [] as vscode.Event<unknown>[] } = {},
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let checking = false;
    let again = false;
    let lastSeen: unknown;
    const disposables: vscode.Disposable[] = [];
    const finish = (error: Error | undefined, value?: T) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(poll);
      for (const disposable of disposables) disposable.dispose();
      if (error) reject(error);
      else resolve(value as T);
    };
    const check = async () => {
      if (done) return;
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      try {
        const value = await condition();
        if (value) finish(undefined, value as T);
        else lastSeen = value;
      } catch (error) {
        lastSeen = error;
      } finally {
        checking = false;
      }
      if (again && !done) {
        again = false;
        void check();
      }
    };
    const timer = setTimeout(() => {
      const last = lastSeen instanceof Error ? `last error: ${lastSeen.message}` : `last value: ${String(lastSeen)}`;
      finish(new Error(`timed out after ${timeoutMs} ms waiting for ${description} (${last})`));
    }, timeoutMs);
    const poll = setInterval(() => void check(), pollMs);
    for (const event of [...changeEvents(), ...extraEvents]) disposables.push(event(() => void check()));
    void check();
  });
}

/** Rejects when the promise takes longer than timeoutMs. */
export function withTimeout<T>(promise: Thenable<T>, timeoutMs: number, description: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms: ${description}`)), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Runs `act` and resolves with the first `event` about `uri` fired from the moment `act` starts, within 30 s: how the
 * preview's render and reveal events are awaited after a command or a click.
 */
export async function eventAfter<E extends { uri: string }>(
  event: vscode.Event<E>, uri: vscode.Uri, act: () => Thenable<unknown>, description: string,
): Promise<E> {
  let subscription: vscode.Disposable | undefined;
  const seen = new Promise<E>((resolve) => {
    subscription = event((fired) => {
      if (fired.uri === uri.toString()) resolve(fired);
    });
  });
  try {
    await act();
    return await withTimeout(seen, 30_000, description);
  } finally {
    subscription?.dispose();
  }
}

export function workspaceFile(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need the examples folder open as the workspace');
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

export async function openFile(...segments: string[]): Promise<{ document: vscode.TextDocument; editor: vscode.TextEditor }> {
  const document = await vscode.workspace.openTextDocument(workspaceFile(...segments));
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  return { document, editor };
}

export async function activeApi(): Promise<AgentTracesApi> {
  const extension = vscode.extensions.getExtension<AgentTracesApi>(EXTENSION_ID);
  assert.ok(extension, `extension ${EXTENSION_ID} is not installed in this VS Code`);
  await waitFor(() => extension.isActive, 30_000, `${EXTENSION_ID} to activate`);
  return extension.exports;
}

/** The range of the `occurrence`-th (0-based) match of `text` in the document. */
export function rangeOf(document: vscode.TextDocument, text: string, occurrence = 0): vscode.Range {
  const content = document.getText();
  let index = -1;
  for (let i = 0; i <= occurrence; i++) {
    index = content.indexOf(text, index + 1);
    assert.ok(index >= 0, `"${text}" occurs fewer than ${occurrence + 1} time(s) in ${document.uri.path}`);
  }
  return new vscode.Range(document.positionAt(index), document.positionAt(index + text.length));
}

/** The one character at `position`. */
export function charRange(document: vscode.TextDocument, position: vscode.Position): vscode.Range {
  return new vscode.Range(position, position.translate(0, 1));
}

/** A position `offset` characters into the `occurrence`-th match of `text`. */
export function positionIn(document: vscode.TextDocument, text: string, offset = 1, occurrence = 0): vscode.Position {
  return rangeOf(document, text, occurrence).start.translate(0, offset);
}

export function formatRange(range: vscode.Range): string {
  return `${range.start.line + 1}:${range.start.character + 1}-${range.end.line + 1}:${range.end.character + 1}`;
}

export const severityName: Record<vscode.DiagnosticSeverity, string> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

export function diagnosticCode(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  if (code === undefined) return '';
  return typeof code === 'object' ? String(code.value) : String(code);
}

/** One line per diagnostic, `code severity 1-based-range`, sorted by position: easy to compare and to read. */
export function describeDiagnostics(diagnostics: readonly vscode.Diagnostic[]): string[] {
  return [...diagnostics]
    .sort((a, b) => a.range.start.compareTo(b.range.start) || diagnosticCode(a).localeCompare(diagnosticCode(b)))
    .map((d) => `${diagnosticCode(d)} ${severityName[d.severity]} ${formatRange(d.range)}`);
}

export function expectedDiagnostic(code: string, severity: string, range: vscode.Range): string {
  return `${code} ${severity} ${formatRange(range)}`;
}

/**
 * Waits until the document's diagnostics, described as above, equal `expected` (in any order), re-checking on
 * every diagnostics change. `after` (optional) must have happened first, e.g. a fresh publication after a restart.
 */
export async function waitForDiagnostics(
  uri: vscode.Uri,
  expected: string[],
  description: string,
  timeoutMs = 20_000,
): Promise<vscode.Diagnostic[]> {
  const want = [...expected].sort();
  try {
    return await waitFor(
      () => {
        const diagnostics = vscode.languages.getDiagnostics(uri);
        const have = describeDiagnostics(diagnostics).sort();
        return JSON.stringify(have) === JSON.stringify(want) ? diagnostics : undefined;
      },
      timeoutMs,
      description,
    );
  } catch (error) {
    const have = describeDiagnostics(vscode.languages.getDiagnostics(uri));
    assert.deepEqual(have.sort(), want, `${(error as Error).message}\nactual diagnostics:\n  ${have.join('\n  ')}`);
    throw error;
  }
}

/** Fires when diagnostics of `uri` change after this call. */
export function nextDiagnosticsChange(uri: vscode.Uri, timeoutMs: number, description: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description}`));
    }, timeoutMs);
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((changed) => changed.toString() === uri.toString())) {
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      }
    });
  });
}

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((hover) => hover.contents)
    .map((content) => (typeof content === 'string' ? content : 'value' in content ? content.value : String(content)))
    .join('\n---\n');
}

export interface TargetLocation {
  uri: vscode.Uri;
  range: vscode.Range;
  /** For a LocationLink, the part selected on arrival. */
  selection?: vscode.Range;
}

export function toTargets(results: (vscode.Location | vscode.LocationLink)[] | undefined): TargetLocation[] {
  return (results ?? []).map((result) =>
    'targetUri' in result
      ? { uri: result.targetUri, range: result.targetRange, selection: result.targetSelectionRange }
      : { uri: result.uri, range: result.range },
  );
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** The problems seeded into examples/broken-fixture.trace.json (see examples/README.md), in describeDiagnostics form. */
export function brokenFixtureDiagnostics(document: vscode.TextDocument): string[] {
  return [
    expectedDiagnostic('trace/unknown-call-id', 'error', rangeOf(document, '"call_lookup_9"')),
    // occurrences of "call_policy_2": the first call's id, its answer, the duplicated id, its answer (each output
    // follows its own call, so the repeat is only a warning)
    expectedDiagnostic('trace/duplicate-call-id', 'warning', rangeOf(document, '"call_policy_2"', 2)),
    // where the JSON inside the string breaks: it ends (closing quote) before its missing "}"
    expectedDiagnostic('trace/arguments-json', 'error', charRange(document, rangeOf(document, '89.90"').end.translate(0, -1))),
    // on the event's opening brace
    expectedDiagnostic('trace/missing-role', 'error', charRange(document, rangeOf(document, '{\n    "content": "Thanks!').start)),
    expectedDiagnostic('trace/unanswered-call', 'information', rangeOf(document, '"call_notify_4"')),
  ];
}

/** The ids of the Test Explorer items, their children's included. */
export function testItemIds(items: vscode.TestItemCollection): string[] {
  const ids: string[] = [];
  items.forEach((item) => ids.push(item.id, ...testItemIds(item.children)));
  return ids;
}

/** Runs `act` and resolves with the next compare view drawn, within 30 s. */
export async function renderCompareAfter(act: () => Thenable<unknown>, description: string): Promise<CompareRenderEvent> {
  const api = await activeApi();
  let subscription: vscode.Disposable | undefined;
  const seen = new Promise<CompareRenderEvent>((resolve) => (subscription = api.compare.onDidRender(resolve)));
  try {
    await act();
    return await withTimeout(seen, 30_000, description);
  } finally {
    subscription?.dispose();
  }
}

export function compareTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('agentTraces.compare'));
}

/** The targets of go to definition at a place, once the server answers with some. */
export async function definitionAt(document: vscode.TextDocument, at: vscode.Position): Promise<TargetLocation[]> {
  return waitFor(async () => {
    const found = toTargets(await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', document.uri, at));
    return found.length > 0 ? found : undefined;
  }, 20_000, `a definition at ${at.line}:${at.character} of ${document.uri.path}`);
}

/** The document's outline, once the server answers with one. */
export async function outlineOf(document: vscode.TextDocument): Promise<vscode.DocumentSymbol[]> {
  return waitFor(async () => {
    const found = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', document.uri);
    return found && found.length > 0 ? found : undefined;
  }, 20_000, `the outline of ${document.uri.path}`);
}

/** Every entry's name in an outline, depth first. */
export function outlineNames(symbols: readonly vscode.DocumentSymbol[]): string[] {
  return symbols.flatMap((symbol) => [symbol.name, ...outlineNames(symbol.children)]);
}
