import * as vscode from 'vscode';
import type { RuleTestsApi, RuleTestsRunReport } from './ruleTests';

/** The example files the walkthrough and "Open Examples" show, inside the examples folder. */
export const exampleTrace = 'inbox-assistant.trace.json';
export const exampleRule = 'rules/private-mail.gr';
/** The example rule file that has tests: its manifest, beside it. */
export const exampleTests = 'rules/refunds.tests.json';

/**
 * "Agent Traces: Open Examples" and the walkthrough's steps. The examples shipped inside the extension are copied
 * once per extension version into its global storage, so that the user can edit and fix them without touching the
 * installed extension, and an edit survives the next time the command runs.
 */
export function registerExamples(context: vscode.ExtensionContext, ruleTests: () => RuleTestsApi | undefined): void {
  const examples = new ExampleFolder(context);
  context.subscriptions.push(
    vscode.commands.registerCommand('agentTraces.openExamples', async () => {
      const folder = await examples.ready();
      await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, exampleTrace), { preview: false });
      void vscode.window.showInformationMessage(
        `Agent Traces: the examples (traces, datasets, rule files) are in ${folder.fsPath}.`, 'Open Folder',
      ).then((choice) => {
        if (choice) void vscode.commands.executeCommand('vscode.openFolder', folder, { forceNewWindow: true });
      });
    }),
    vscode.commands.registerCommand('agentTraces.previewExample', async () => {
      const trace = vscode.Uri.joinPath(await examples.ready(), exampleTrace);
      await vscode.window.showTextDocument(trace, { preview: false });
      await vscode.commands.executeCommand('agentTraces.showPreviewToSide', trace);
    }),
    vscode.commands.registerCommand('agentTraces.openExampleRule', async () => {
      const folder = await examples.ready();
      await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, exampleTrace), { preview: false, viewColumn: vscode.ViewColumn.One });
      // A rule file shown beside a trace applies to it: the violation is underlined in the trace.
      await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, exampleRule), { preview: false, viewColumn: vscode.ViewColumn.Beside });
    }),
    // The walkthrough's test step: the example rule file's tests opened and run in the Test Explorer. The copy is
    // outside the workspace: the server reads a manifest the user opened, and the files in its folder and below.
    vscode.commands.registerCommand('agentTraces.runExampleTests', async (): Promise<RuleTestsRunReport | undefined> => {
      const tests = ruleTests();
      if (!tests) {
        void vscode.window.showWarningMessage('Agent Traces: the rule tests are not ready: the language server has not started.');
        return undefined;
      }
      const manifest = vscode.Uri.joinPath(await examples.ready(), exampleTests);
      await vscode.window.showTextDocument(manifest, { preview: false });
      void vscode.commands.executeCommand('workbench.view.testing.focus');
      return tests.runManifest(manifest);
    }),
  );
}

class ExampleFolder {
  private copying: Promise<vscode.Uri> | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {}

  /** The user's copy of the examples, made on first use (a failed copy is tried again on the next use). */
  ready(): Promise<vscode.Uri> {
    this.copying ??= this.copy().catch((error: unknown) => {
      this.copying = undefined;
      throw error;
    });
    return this.copying;
  }

  private async copy(): Promise<vscode.Uri> {
    const version = String(this.context.extension.packageJSON.version ?? 'dev');
    const folder = vscode.Uri.joinPath(this.context.globalStorageUri, `examples-${version}`);
    if (await exists(folder)) return folder;
    // Copied beside the final name and then renamed, so that an interrupted copy is never taken for a finished one.
    const partial = vscode.Uri.joinPath(this.context.globalStorageUri, `examples-${version}.partial`);
    await vscode.workspace.fs.createDirectory(this.context.globalStorageUri);
    await vscode.workspace.fs.copy(vscode.Uri.joinPath(this.context.extensionUri, 'examples'), partial, { overwrite: true });
    await vscode.workspace.fs.rename(partial, folder, { overwrite: false });
    return folder;
  }
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}
