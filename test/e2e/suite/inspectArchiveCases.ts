import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, eventAfter, formatRange, rangeOf, toTargets, waitFor } from './helpers';

/**
 * The .eval archive's editor: shared by the Node host's suite, which writes the archive itself, and the web tier's,
 * whose runner writes it into the workspace before the start (a test in the browser has no zlib to write one).
 */
export function describeInspectArchive(fixture: { write(): Promise<vscode.Uri>; remove(archive: vscode.Uri): Promise<void> }): void {
  describe('Inspect AI logs (.eval archives)', () => {
    let archive: vscode.Uri;
    let document: vscode.TextDocument;

    before(async () => {
      await activeApi();
      archive = await fixture.write();
      // Opened as a user opens it (the Explorer, Quick Open): the archive's own editor, not a text document of its bytes.
      await vscode.commands.executeCommand('vscode.open', archive);
      const view = () => vscode.window.activeTextEditor?.document;
      document = await waitFor(
        () => (view()?.uri.scheme === 'agent-traces-eval' && view()?.languageId === 'agent-trace-inspect' ? view() : undefined),
        30_000, `the archive shown as an Inspect AI Log (the active editor shows ${view()?.uri.toString()} as ${view()?.languageId})`,
      );
    });
    after(async () => {
      await closeAllEditors();
      await fixture.remove(archive);
    });

    it('shows the JSON log the archive holds, in place of the archive\'s editor', async () => {
      assert.equal(document.uri.path, archive.path);
      assert.match(document.getText(), /^\{\n {2}"version": 2,\n/);
      await waitFor(() => !vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tab.input instanceof vscode.TabInputCustom)), 10_000, 'the archive\'s editor to give way to its view');
    });

    it('outlines the samples with their scores, and leads from a tool_call_id to its call', async () => {
      const symbols = await waitFor(async () => {
        const found = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', document.uri);
        return found && found.length > 0 ? found : undefined;
      }, 30_000, 'the outline of the archive');
      assert.deepEqual(symbols.map((symbol) => symbol.name), [
        'Eval: refund_agent · openai/gpt-4o',
        'Sample 1 (epoch 1): Order 1042 arrived damaged. Please refund me 45 euros.',
        'Sample 2 (epoch 1): Where is my order 2077? It should have arrived last week.',
      ]);
      assert.match(symbols[1].detail, /^model_graded_qa: I · 2 calls/);
      const output = rangeOf(document, '"call_refund_1042"', 1);
      const targets = toTargets(await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider', document.uri, output.start.translate(0, 3),
      ));
      assert.equal(targets.length, 1);
      assert.equal(targets[0].uri.toString(), document.uri.toString());
      assert.equal(formatRange(targets[0].selection ?? targets[0].range), formatRange(rangeOf(document, '"call_refund_1042"', 0)));
    });

    it('reports the tool message whose call is missing, and hovers and previews as on the .json log', async () => {
      const orphan = rangeOf(document, '"call_order_2770"');
      const diagnostic = await waitFor(
        () => vscode.languages.getDiagnostics(document.uri).find((d) => typeof d.code === 'object' ? d.code.value === 'inspect/unknown-call-id' : d.code === 'inspect/unknown-call-id'),
        30_000, 'the unknown-call-id diagnostic on the archive',
      );
      assert.equal(formatRange(diagnostic.range), formatRange(orphan));
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, rangeOf(document, '"call_refund_1042"', 1).start.translate(0, 3));
      assert.match(hovers.map((hover) => hover.contents.map((part) => (typeof part === 'string' ? part : part.value)).join('\n')).join('\n'), /issue_refund/);
      const api = await activeApi();
      const rendered = await eventAfter(api.preview.onDidRender, document.uri, () => vscode.commands.executeCommand('agentTraces.showPreviewToSide'), 'the preview of the archive to render');
      assert.equal(rendered.nodeCount, 9);
    });
  });
}
