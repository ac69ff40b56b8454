import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, eventAfter, openFile, waitFor, type RevealEvent } from './helpers';

/** The "n outputs · open in preview" lenses of a document, once the server has answered with some. */
async function eventLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
  return waitFor(async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri);
    const found = lenses.filter((lens) => lens.command?.command === 'agentTraces.revealInPreview');
    return found.length > 0 ? found : undefined;
  }, 20_000, `the code lenses of ${document.uri.path}`);
}

/** Runs a lens's command as a click does, and resolves with the node the preview selects for it. */
async function click(lens: vscode.CodeLens, uri: vscode.Uri): Promise<RevealEvent> {
  const api = await activeApi();
  return eventAfter(
    api.preview.onDidReveal, uri, () => vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? [])),
    `the preview of ${uri.path} to select the lens's node`,
  );
}

describe('code lenses: "n outputs · open in preview"', () => {
  beforeEach(closeAllEditors);
  after(closeAllEditors);

  it('in a dataset, opens the preview on the lens\'s trace and selects its event', async () => {
    const { document } = await openFile('datasets', 'support-evals.trace.jsonl');
    const lenses = await eventLenses(document);
    // one lens per trace line with calls: the first two traces (lines 2 and 3); the third has none
    assert.deepEqual(lenses.map((lens) => [lens.range.start.line, lens.command!.title]), [[1, '1 output · open in preview'], [2, '1 output · open in preview']]);
    // The second trace, not the first one a preview opens on by itself: its assistant message, event #1.
    const revealed = await click(lenses[1], document.uri);
    assert.deepEqual([revealed.traceIndex, revealed.eventIndex, revealed.kind], [1, 1, 'assistant']);
    const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputWebview);
    assert.equal(tabs.length, 1, 'one preview opened beside the dataset');
    // With the preview open, the other lens moves it to the first trace.
    const again = await click(lenses[0], document.uri);
    assert.deepEqual([again.traceIndex, again.eventIndex, again.kind], [0, 1, 'assistant']);
  });

  it('in a trace file, selects the event of the lens clicked', async () => {
    const { document } = await openFile('inbox-assistant.trace.json');
    const lenses = await eventLenses(document);
    assert.equal(lenses.length, 2);
    // system #0, user #1, assistant #2 calling get_inbox, its output #3, assistant #4 calling send_email
    const revealed = await click(lenses[1], document.uri);
    assert.deepEqual([revealed.eventIndex, revealed.kind], [4, 'assistant']);
  });
});
