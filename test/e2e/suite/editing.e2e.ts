import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, diagnosticCode, openFile, positionIn, waitFor, workspaceFile } from './helpers';

const call = (id: string) => `{"id": "${id}", "type": "function", "function": {"name": "get_inbox", "arguments": {}}}`;
const fixture = [
  '[',
  `  {"role": "assistant", "tool_calls": [${call('call_1')}]},`,
  '  {"role": "tool", "tool_call_id": "call_1", "content": [1,]}',
  ']',
  '',
].join('\n');

async function writeFixture(name: string): Promise<vscode.TextDocument> {
  await vscode.workspace.fs.writeFile(workspaceFile(name), new TextEncoder().encode(fixture));
  return (await openFile(name)).document;
}

const hasCode = (uri: vscode.Uri, code: string) => vscode.languages.getDiagnostics(uri).some((d) => diagnosticCode(d) === code);

describe('hand-editing traces: quick fixes, rename, inlay hints', () => {
  before(activeApi);
  after(closeAllEditors);

  it('offers the fix for a seeded trailing comma, and applying it clears the diagnostic', async () => {
    const document = await writeFixture('fix-me.trace.json');
    await waitFor(() => hasCode(document.uri, 'json/trailing-comma'), 20_000, 'the trailing comma reported');
    const at = positionIn(document, ',]', 0);
    // Asked again until offered, as the diagnostics are waited for: in 2 of about 30 runs the first answer VS Code
    // gave was empty, though the server's answers, logged over 14 runs, always held the fix.
    let titles: string[] = [];
    const fix = await waitFor(async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider', document.uri, new vscode.Range(at, at), vscode.CodeActionKind.QuickFix.value,
      );
      titles = actions.map((action) => action.title);
      return actions.find((action) => action.title === 'Remove the trailing comma');
    }, 20_000, 'the fix offered').catch((error: Error) => assert.fail(`${error.message}; last offered: ${titles.join(', ')}`));
    assert.ok(fix.edit, 'the fix has an edit');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await waitFor(() => !hasCode(document.uri, 'json/trailing-comma') && document.getText().includes('[1]'), 20_000, 'the diagnostic cleared');
  });

  it('fix-all (as fix on save runs it) closes an unterminated comment instead of deleting the events after it', async () => {
    const text = ['[', '  {"role": "user", "content": "hi",},', '  /* cached answer', '  {"role": "assistant", "content": "kept"}', ']', ''].join('\n');
    await vscode.workspace.fs.writeFile(workspaceFile('fix-all.trace.json'), new TextEncoder().encode(text));
    const document = (await openFile('fix-all.trace.json')).document;
    await waitFor(() => hasCode(document.uri, 'json/syntax'), 20_000, 'the unterminated comment reported');
    const fixAll = await waitFor(async () => {
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider', document.uri, new vscode.Range(0, 0, 0, 0), 'source.fixAll.agentTraces',
      );
      return actions[0];
    }, 20_000, 'fix-all offered');
    assert.ok(await vscode.workspace.applyEdit(fixAll.edit!));
    assert.equal(document.getText(), text.replace('"hi",}', '"hi"}').replace('cached answer', 'cached answer */'));
  });

  it('renames a call id from a tool_call_id: the call changes too', async () => {
    const document = await writeFixture('rename-me.trace.json');
    await waitFor(() => vscode.languages.getDiagnostics(document.uri).length > 0, 20_000, 'the file checked');
    const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
      'vscode.executeDocumentRenameProvider', document.uri, positionIn(document, '"call_1"', 2, 1), 'inbox_call',
    );
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(document.getText(), fixture.replaceAll('call_1', 'inbox_call'));
  });

  it('draws inlay hints for tool call links', async () => {
    const document = await writeFixture('hints.trace.json');
    const hints = await waitFor(async () => {
      const found = await vscode.commands.executeCommand<vscode.InlayHint[]>(
        'vscode.executeInlayHintProvider', document.uri, new vscode.Range(0, 0, document.lineCount, 0),
      );
      return found.length >= 2 ? found : undefined;
    }, 20_000, 'inlay hints');
    const labels = hints.map((hint) => (typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join('')));
    assert.deepEqual(labels, ['→ #1', '← get_inbox #0']);
  });
});
