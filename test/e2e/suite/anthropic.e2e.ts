import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activeApi, closeAllEditors, expectedDiagnostic, formatRange, hoverText, openFile, positionIn, rangeOf, toTargets, waitFor, waitForDiagnostics,
} from './helpers';

describe('Anthropic Messages conversations (.json)', () => {
  after(closeAllEditors);

  it('gives a request body VS Code opened as json our language, with its diagnostics, navigation, hover, outline and preview', async () => {
    const { document: opened } = await openFile('conversations', 'refund-request.json');
    await activeApi();
    const uri = opened.uri;
    const current = () => vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    const document = await waitFor(() => (current()?.languageId === 'agent-trace-anthropic' ? current() : undefined), 20_000, `the agent-trace-anthropic language (is ${current()?.languageId})`);
    await waitForDiagnostics(uri, [
      expectedDiagnostic('anthropic/tool-error', 'information', rangeOf(document, '"refund_order"', 1)),
      expectedDiagnostic('anthropic/unanswered-call', 'warning', rangeOf(document, '"toolu_03Refund1042"')),
      expectedDiagnostic('anthropic/unknown-call-id', 'error', rangeOf(document, '"toolu_03Refund1024"')),
    ], 'the three faults of refund-request.json');

    const results = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider', uri, positionIn(document, '"toolu_02Refund1042"', 3, 1),
    );
    const targets = toTargets(results);
    assert.equal(targets.length, 1);
    assert.equal(formatRange(targets[0].selection ?? targets[0].range), formatRange(rangeOf(document, '"toolu_02Refund1042"', 0)), 'lands on the tool_use id');

    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, positionIn(document, '"toolu_02Refund1042"', 3, 1));
    assert.match(hoverText(hovers), /refund_order\(order=1042, reason="damaged in transit"\)[\s\S]*payment provider timeout/);

    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', uri);
    assert.deepEqual(symbols.map((symbol) => symbol.name), [
      'System: You are the support assistant of a bookshop. Look orders up before you answer.',
      'Tools: find_order, refund_order',
      'Order 1042 arrived damaged, can I get my money back?',
    ]);

    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('agentTraces.showPreview');
    const api = await activeApi();
    const rendered = await waitFor(() => api.preview.lastRendered(uri.toString()), 20_000, 'the preview of refund-request.json');
    assert.ok(rendered.nodeCount >= 8, `the messages and their calls are drawn (${rendered.nodeCount} nodes)`);
  });
});
