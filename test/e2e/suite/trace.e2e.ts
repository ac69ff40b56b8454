import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activeApi, brokenFixtureDiagnostics, closeAllEditors, describeDiagnostics, expectedDiagnostic, formatRange, hoverText, nextDiagnosticsChange,
  openFile, positionIn, rangeOf, toTargets, waitFor, waitForDiagnostics, workspaceFile,
} from './helpers';

/** A copy of a file under a new name, so the server sees it opened for the first time. */
async function freshCopy(source: string, name: string, transform: (text: string) => string = (text) => text): Promise<vscode.Uri> {
  const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceFile(source)));
  const target = workspaceFile(name);
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(transform(text)));
  return target;
}

function labelOf(item: vscode.CompletionItem): string {
  return typeof item.label === 'string' ? item.label : item.label.label;
}

describe('trace files (.trace.json)', () => {
  before(async () => {
    await openFile('inbox-assistant.trace.json');
    await activeApi();
  });
  after(closeAllEditors);

  it('reports each seeded fault of broken-fixture.trace.json with its code, severity and range', async () => {
    const { document } = await openFile('broken-fixture.trace.json');
    const expected = brokenFixtureDiagnostics(document);
    const diagnostics = await waitForDiagnostics(document.uri, expected, 'the five seeded problems of broken-fixture.trace.json');
    const unknown = diagnostics.find((d) => d.code === 'trace/unknown-call-id' || (d.code as { value?: unknown })?.value === 'trace/unknown-call-id');
    assert.match(unknown?.message ?? '', /call_lookup_9/, 'the message names the unknown id');
  });

  it('reports nothing on the clean inbox-assistant.trace.json', async () => {
    const uri = await freshCopy('inbox-assistant.trace.json', 'clean-copy.trace.json');
    const published = nextDiagnosticsChange(uri, 20_000, 'the first diagnostics of clean-copy.trace.json');
    await openFile('clean-copy.trace.json');
    await published;
    assert.deepEqual(describeDiagnostics(vscode.languages.getDiagnostics(uri)), []);
  });

  it('goes from a tool_call_id to the call it answers', async () => {
    const { document } = await openFile('inbox-assistant.trace.json');
    const results = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider', document.uri, positionIn(document, '"call_send_02"', 3, 1),
    );
    const targets = toTargets(results);
    assert.equal(targets.length, 1, `one definition, got ${targets.map((t) => formatRange(t.range)).join(', ')}`);
    assert.equal(targets[0].uri.toString(), document.uri.toString());
    const callId = rangeOf(document, '"call_send_02"', 0);
    assert.equal(formatRange(targets[0].selection ?? targets[0].range), formatRange(callId), 'lands on the call id');
  });

  it('lists the outputs of a call as its references', async () => {
    const { document } = await openFile('inbox-assistant.trace.json');
    const results = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider', document.uri, positionIn(document, '"call_inbox_01"', 4, 0),
    );
    const found = (results ?? []).map((location) => `${location.uri.path.split('/').pop()} ${formatRange(location.range)}`).sort();
    const expected = [
      `inbox-assistant.trace.json ${formatRange(rangeOf(document, '"call_inbox_01"', 0))}`,
      `inbox-assistant.trace.json ${formatRange(rangeOf(document, '"call_inbox_01"', 1))}`,
    ].sort();
    assert.deepEqual(found, expected);
  });

  it('explains a field on hover', async () => {
    const { document } = await openFile('inbox-assistant.trace.json');
    const key = rangeOf(document, '"tool_call_id"', 0);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider', document.uri, key.start.translate(0, 3),
    );
    const text = hoverText(hovers ?? []);
    assert.ok(text.includes('**`tool_call_id`** `string`'), `hover names the field and its type:\n${text}`);
    assert.ok(text.includes('the earlier tool call this output answers'), `hover explains the field:\n${text}`);
    const own = (hovers ?? []).find((hover) => hover.range && formatRange(hover.range) === formatRange(key));
    assert.ok(own, `a hover whose range is the key ${formatRange(key)}; got ${(hovers ?? []).map((h) => h.range && formatRange(h.range)).join(', ')}`);
  });

  it('lists every event in the outline', async () => {
    const { document } = await openFile('inbox-assistant.trace.json');
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
      'vscode.executeDocumentSymbolProvider', document.uri,
    );
    assert.ok(symbols, 'document symbols');
    const events = JSON.parse(document.getText()) as unknown[];
    // Each event object starts at a line that is exactly "  {".
    const eventStarts = document.getText().split('\n').flatMap((line, index) => (line === '  {' ? [index] : []));
    assert.equal(eventStarts.length, events.length);
    const topLevel = symbols;
    assert.deepEqual(topLevel.map((symbol) => symbol.range.start.line), eventStarts);
    const prefixes = ['#0 system: ', '#1 user: ', '#2 assistant → get_inbox(', '#3 tool ← get_inbox: ', '#4 assistant → send_email(', '#5 tool ← send_email: ', '#6 assistant: '];
    assert.deepEqual(
      topLevel.map((symbol, i) => (symbol.name.startsWith(prefixes[i]) ? prefixes[i] : symbol.name)),
      prefixes,
      'each event is named by its index, role and call or answered tool',
    );
    // The calls sit under the messages that make them.
    assert.deepEqual(
      topLevel.map((symbol) => symbol.children.map((child) => child.name.replace(/\(.*/, '('))),
      [[], [], ['get_inbox('], [], ['send_email('], [], []],
    );
  });

  it('completes a tool_call_id with the calls still waiting for an answer', async () => {
    const uri = await freshCopy('inbox-assistant.trace.json', 'completion-scratch.trace.json', (text) =>
      text.replace('"tool_call_id": "call_send_02"', '"tool_call_id": ""'),
    );
    const { document } = await openFile('completion-scratch.trace.json');
    assert.equal(document.uri.toString(), uri.toString());
    const inside = rangeOf(document, '"tool_call_id": ""').end.translate(0, -1);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider', document.uri, inside,
    );
    const items = [...(list?.items ?? [])].sort((a, b) => (a.sortText ?? labelOf(a)).localeCompare(b.sortText ?? labelOf(b)));
    // Every earlier call, the one still waiting for an answer first.
    assert.deepEqual(items.map(labelOf), ['call_send_02', 'call_inbox_01']);
    // Accepting it replaces the whole empty string with the quoted id, so the JSON stays valid.
    const first = items[0];
    const inserted = typeof first.insertText === 'string' ? first.insertText : first.insertText?.value;
    assert.equal(inserted, '"call_send_02"');
    const range = first.range instanceof vscode.Range ? first.range : first.range?.replacing;
    const emptyValue = rangeOf(document, '"tool_call_id": ""').end;
    assert.equal(range && formatRange(range), formatRange(new vscode.Range(emptyValue.translate(0, -2), emptyValue)));
  });

  it('updates diagnostics on an edit and restores them on undo', async () => {
    await freshCopy('inbox-assistant.trace.json', 'edit-scratch.trace.json');
    const { document, editor } = await openFile('edit-scratch.trace.json');
    const answer = rangeOf(document, '"call_send_02"', 1);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, answer, '"call_send_99"');
    assert.ok(await vscode.workspace.applyEdit(edit), 'the edit applies');
    await waitForDiagnostics(document.uri, [
      expectedDiagnostic('trace/unknown-call-id', 'error', rangeOf(document, '"call_send_99"')),
      expectedDiagnostic('trace/unanswered-call', 'information', rangeOf(document, '"call_send_02"')),
    ], 'the problems the edit introduced');

    await vscode.window.showTextDocument(editor.document, { preview: false, preserveFocus: false });
    await vscode.commands.executeCommand('undo');
    await waitFor(() => document.getText().includes('"tool_call_id": "call_send_02"'), 5_000, 'undo to restore the text');
    await waitForDiagnostics(document.uri, [], 'no problems after undo');
    assert.equal(document.isDirty, false, 'undo returns to the saved text');
  });
});
