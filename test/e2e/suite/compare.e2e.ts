import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, compareTabs, EXTENSION_ID, openFile, renderCompareAfter, waitFor, workspaceFile } from './helpers';

describe('compare views', () => {
  // Its commands activate the extension; activated here, the tests can wait on its API's events from the start.
  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });
  beforeEach(closeAllEditors);
  after(closeAllEditors);

  it('"Compare Traces…" on two files from the Explorer draws their steps aligned', async () => {
    const before = workspaceFile('runs', 'booking-before.trace.json');
    const after = workspaceFile('runs', 'booking-after.trace.json');
    const drawn = await renderCompareAfter(() => vscode.commands.executeCommand('agentTraces.compareTraces', before, [before, after]), 'the two runs to be compared');
    assert.deepEqual([drawn.left, drawn.right], [before.toString(), after.toString()]);
    assert.equal(drawn.rowCount, 20);
    assert.deepEqual(drawn.counts, { same: 14, added: 2, removed: 0, changed: 4, reordered: 1, nowFail: 1, nowSucceed: 0 });
    assert.ok(drawn.domNodeCount > 100, `the webview drew its rows (${drawn.domNodeCount} DOM nodes)`);
    assert.deepEqual(compareTabs().map((tab) => tab.label), ['booking-before.trace.json ↔ booking-after.trace.json']);
  });

  it('draws the comparison again when one of the files is edited', async () => {
    const before = workspaceFile('runs', 'booking-before.trace.json');
    const after = workspaceFile('runs', 'booking-after.trace.json');
    await renderCompareAfter(() => vscode.commands.executeCommand('agentTraces.compareTraces', before, [before, after]), 'the first drawing');
    const document = await vscode.workspace.openTextDocument(after);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    const text = document.getText();
    const at = text.indexOf('"Aisle seats free: 12C, 14C, 21D"');
    const redrawn = await renderCompareAfter(async () => {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(after, new vscode.Range(document.positionAt(at), document.positionAt(at + '"Aisle seats free: 12C, 14C, 21D"'.length)), '"No aisle seat left"');
      assert.ok(await vscode.workspace.applyEdit(edit));
    }, 'the edited comparison');
    assert.equal(redrawn.counts.added, 2);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('compares a Claude Code session with its conversion (the editor\'s Convert to Invariant Trace) step for step, as the same run', async () => {
    const session = workspaceFile('sessions', 'fix-checkout.jsonl');
    // The conversion is the server's, of the session it holds: open it, and wait for the server to read it as one.
    await openFile('sessions', 'fix-checkout.jsonl');
    await waitFor(async () => ((await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', session)) ?? []).length > 0 || undefined, 30_000, 'the session read by the server');
    const converted = await vscode.commands.executeCommand<vscode.Uri | undefined>('agentTraces.convertToTrace', session);
    assert.ok(converted, 'the session was converted');
    try {
      assert.ok(converted.path.endsWith('/sessions/fix-checkout.trace.json'), converted.path);
      const drawn = await renderCompareAfter(() => vscode.commands.executeCommand('agentTraces.compareTraces', session, [session, converted]), 'the session compared with its conversion');
      assert.deepEqual([drawn.left, drawn.right], [session.toString(), converted.toString()]);
      assert.deepEqual(drawn.notices, []);
      assert.deepEqual(drawn.counts, { same: 16, added: 0, removed: 0, changed: 0, reordered: 0, nowFail: 0, nowSucceed: 0 });
      // The conversion edited as another run would differ: one argument, in the open document.
      const document = await vscode.workspace.openTextDocument(converted);
      const at = document.getText().indexOf('"git commit -am \'Apply the SAVE10 discount\'"');
      assert.ok(at > 0);
      const redrawn = await renderCompareAfter(async () => {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(converted, new vscode.Range(document.positionAt(at), document.positionAt(at + '"git commit -am \'Apply the SAVE10 discount\'"'.length)), '"git status"');
        assert.ok(await vscode.workspace.applyEdit(edit));
      }, 'the comparison with the edited conversion');
      assert.deepEqual([redrawn.counts.same, redrawn.counts.changed], [15, 1]);
    } finally {
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === converted.toString());
      if (document?.isDirty) {
        await vscode.window.showTextDocument(document);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
      await closeAllEditors();
      await vscode.workspace.fs.delete(converted);
    }
  });
});
