import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, eventAfter, openFile, RenderEvent, waitFor } from './helpers';

function previewTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('agentTraces.preview'));
}

/** Runs the preview command on the active editor and resolves with the webview's first render of `uri`. */
async function renderOf(uri: vscode.Uri, command: string): Promise<RenderEvent> {
  const api = await activeApi();
  return eventAfter(api.preview.onDidRender, uri, () => vscode.commands.executeCommand(command), `the preview of ${uri.path} to render`);
}

describe('trace preview', () => {
  beforeEach(closeAllEditors);
  after(closeAllEditors);

  it('opens a webview for the active trace and draws one node per message, call and output', async () => {
    const { document } = await openFile('inbox-assistant.trace.json');
    const event = await renderOf(document.uri, 'agentTraces.showPreview');
    // system, user, assistant + its get_inbox call, the output, assistant + its send_email call, the output, answer
    assert.equal(event.nodeCount, 9);
    assert.ok(event.domNodeCount > 0, `the webview drew DOM nodes (${event.domNodeCount})`);
    assert.equal(event.version, document.version);
    assert.equal(previewTabs().length, 1, `one preview tab: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label).join(', ')}`);
    const last = (await activeApi()).preview.lastRendered(document.uri.toString());
    assert.deepEqual(last, { nodeCount: event.nodeCount, domNodeCount: event.domNodeCount, version: event.version });
  });

  it('redraws the preview after an edit', async () => {
    const { document } = await openFile('inbox-assistant.trace.json');
    await renderOf(document.uri, 'agentTraces.showPreview');
    const api = await activeApi();
    // Drop the final answer: one node fewer.
    const finalAnswer = document.getText().lastIndexOf(',\n  {\n    "role": "assistant"');
    const end = document.getText().lastIndexOf('\n]');
    const edit = new vscode.WorkspaceEdit();
    edit.delete(document.uri, new vscode.Range(document.positionAt(finalAnswer), document.positionAt(end)));
    assert.ok(await vscode.workspace.applyEdit(edit));
    const redrawn = await waitFor(() => {
      const last = api.preview.lastRendered(document.uri.toString());
      return last && last.version === document.version ? last : undefined;
    }, 20_000, 'the preview to draw the edited version', { extraEvents: [api.preview.onDidRender as vscode.Event<unknown>] });
    assert.equal(redrawn.nodeCount, 8);
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    assert.equal(document.isDirty, false);
  });

  it('opens the preview of a dataset to the side, drawing its first trace', async () => {
    const { document } = await openFile('datasets', 'support-evals.trace.jsonl');
    const event = await renderOf(document.uri, 'agentTraces.showPreviewToSide');
    // trace 0: user, assistant + its track_parcel call, the output, answer
    assert.equal(event.nodeCount, 5);
    assert.equal(previewTabs().length, 1);
    const groups = vscode.window.tabGroups.all.filter((group) => group.tabs.length > 0);
    assert.ok(groups.length >= 2, 'the preview sits beside the editor');
  });

  it('draws one node per agentguard entry', async () => {
    const { document } = await openFile('agentguard', 'checkout-session.jsonl');
    // Language detection has its own test (activation.e2e.ts); here the preview alone is checked.
    const typed = await vscode.languages.setTextDocumentLanguage(document, 'agent-trace-jsonl');
    await vscode.window.showTextDocument(typed);
    const event = await renderOf(typed.uri, 'agentTraces.showPreview');
    assert.equal(event.nodeCount, 5);
  });
});
