// Loaded by bench/web.bench.mjs through `extensionTestsPath`, in the Node extension host and in the web worker in
// turn, in a fresh window on a folder of generated traces that nothing has opened yet: the time from asking VS Code
// to open a trace to its diagnostics arriving, as vscode.languages.onDidChangeDiagnostics reports them in the
// extension host. The first open is cold (it activates the extension, which starts its language server); the next
// ones, on other files of the same size, are warm. Logs `WEB_BENCH {...}` for the runner.
import * as vscode from 'vscode';

const EXTENSION_ID = 'agent-traces.agent-traces';
/** The fault the runner seeds into every file: diagnostics that include it come from a finished check. */
const SEEDED_CODE = 'trace/unknown-call-id';
const LIMIT_MS = 120_000;

function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  return typeof code === 'object' ? String(code.value) : String(code ?? '');
}

/** Milliseconds from openTextDocument to the first diagnostics of `uri` that include the seeded fault. */
function openToDiagnostics(uri: vscode.Uri): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const checked = () => vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === SEEDED_CODE);
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`no ${SEEDED_CODE} diagnostic on ${uri.path} within ${LIMIT_MS} ms`));
    }, LIMIT_MS);
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((changed) => changed.toString() === uri.toString()) || !checked()) return;
      const elapsed = performance.now() - started;
      clearTimeout(timer);
      subscription.dispose();
      resolve(elapsed);
    });
    const started = performance.now();
    vscode.workspace.openTextDocument(uri).then(
      (document) => vscode.window.showTextDocument(document, { preview: false }),
      (error) => {
        clearTimeout(timer);
        subscription.dispose();
        reject(error);
      },
    );
  });
}

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) throw new Error('the benchmark needs its folder of traces open');
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  const activeBefore = extension.isActive;
  const names = (await vscode.workspace.fs.readDirectory(folder))
    .map(([name]) => name)
    .filter((name) => name.endsWith('.trace.json'))
    .sort();
  if (names.length < 2) throw new Error(`expected a cold and warm traces in ${folder.path}, found ${names.join(', ')}`);
  const timings: number[] = [];
  const coldOpenedAt = performance.now();
  for (const name of names) timings.push(await openToDiagnostics(vscode.Uri.joinPath(folder, name)));
  // The activation's steps (client/src/activation.ts's marks), in ms after the cold open was asked for.
  const steps: { [mark: string]: number } = {};
  for (const mark of ['activate', 'serverBundleRead', 'serverStarted', 'clientStarted']) {
    const entry = performance.getEntriesByName(`agentTraces/${mark}`).at(0);
    if (entry) steps[mark] = entry.startTime - coldOpenedAt;
  }
  const result = {
    host: typeof (globalThis as { process?: unknown }).process === 'undefined' ? 'web' : 'node',
    extensionKind: extension.extensionKind === vscode.ExtensionKind.UI ? 'ui' : 'workspace',
    activeBefore,
    documentsBefore: vscode.workspace.textDocuments.map((document) => `${document.languageId} ${document.uri.toString()}`),
    coldMs: timings[0],
    steps,
    warmMs: timings.slice(1),
  };
  console.log(`WEB_BENCH ${JSON.stringify(result)}`);
}
