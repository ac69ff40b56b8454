import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, eventAfter, formatRange, openFile, rangeOf, toTargets, waitFor } from './helpers';

describe('Claude Code sessions', () => {
  let document: vscode.TextDocument;

  before(async () => {
    // examples/sessions/fix-checkout.jsonl: nothing but its first record says it is a session.
    ({ document } = await openFile('sessions', 'fix-checkout.jsonl'));
    await activeApi();
  });
  after(closeAllEditors);

  it('goes from a tool_result\'s tool_use_id to its tool_use', async () => {
    const result = rangeOf(document, '"toolu_01Checkout1"', 1);
    const targets = await waitFor(async () => {
      const found = toTargets(await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider', document.uri, result.start.translate(0, 3),
      ));
      return found.length > 0 ? found : undefined;
    }, 20_000, 'a definition for the tool_use_id');
    assert.equal(targets.length, 1);
    assert.equal(targets[0].uri.toString(), document.uri.toString());
    assert.equal(formatRange(targets[0].selection ?? targets[0].range), formatRange(rangeOf(document, '"toolu_01Checkout1"', 0)));
  });

  it('lists the prompts in the outline, with their calls, the failed one marked', async () => {
    const symbols = await waitFor(async () => {
      const found = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', document.uri);
      return found && found.length > 0 ? found : undefined;
    }, 20_000, 'the outline of the session');
    assert.deepEqual(symbols.map((symbol) => symbol.name), ['The checkout tests fail since yesterday. Find out why and fix it.', 'Commit it.']);
    assert.equal(symbols[0].children[0]?.name, '✗ Bash: npm test -- checkout');
    assert.equal(symbols[0].children.length, 4);
    assert.equal(symbols[1].children.length, 1);
  });

  it('draws the session in the preview', async () => {
    await vscode.window.showTextDocument(document);
    const api = await activeApi();
    const event = await eventAfter(api.preview.onDidRender, document.uri, () => vscode.commands.executeCommand('agentTraces.showPreview'), 'the preview of the session to render');
    // 2 prompts, the assistant's messages with their 5 calls, and the 5 results.
    assert.ok(event.nodeCount >= 12, `nodes drawn: ${event.nodeCount}`);
    assert.ok(event.domNodeCount > 0);
  });
});
