import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activeApi, closeAllEditors, describeDiagnostics, expectedDiagnostic, formatRange, hoverText, nextDiagnosticsChange,
  openFile, positionIn, rangeOf, toTargets, waitForDiagnostics, workspaceFile,
} from './helpers';

function rangeInside(document: vscode.TextDocument, context: string, word: string, occurrence = 0): vscode.Range {
  const around = rangeOf(document, context, occurrence);
  const start = document.offsetAt(around.start) + context.indexOf(word);
  return new vscode.Range(document.positionAt(start), document.positionAt(start + word.length));
}

async function definitionOf(document: vscode.TextDocument, position: vscode.Position) {
  const results = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
    'vscode.executeDefinitionProvider', document.uri, position,
  );
  return toTargets(results);
}

describe('guardrail rules (.gr)', () => {
  before(async () => {
    await openFile('rules', 'data-leak.gr');
    await activeApi();
  });
  after(closeAllEditors);

  it('reports the seeded mistakes of broken.gr with the official wording', async () => {
    const { document } = await openFile('rules', 'broken.gr');
    const expected = [
      // from the variable (where the official parser points) to the end of the unknown type
      expectedDiagnostic('gr/unknown-type', 'error', rangeInside(document, '(out: ToolOuptut)', 'out: ToolOuptut')),
      expectedDiagnostic('gr/unknown-identifier', 'error', rangeInside(document, 'any(secret(', 'secret')),
      expectedDiagnostic('gr/unknown-attribute', 'warning', rangeInside(document, 'm.tool_call ==', 'tool_call')),
      // the import the misspelled call meant is therefore unused
      expectedDiagnostic('gr/unused-import', 'hint', rangeInside(document, 'import secrets', 'secrets')),
    ];
    const diagnostics = await waitForDiagnostics(document.uri, expected, 'the seeded problems of broken.gr');
    const messages = diagnostics.map((d) => d.message).sort();
    assert.ok(messages.includes("Failed to resolve type ToolOuptut. Did you mean 'ToolOutput'?"), `messages: ${messages.join(' | ')}`);
    assert.ok(messages.includes('Failed to resolve identifier secret'), `messages: ${messages.join(' | ')}`);
    assert.ok(messages.some((m) => m.includes('tool_call')), `the attribute message names tool_call: ${messages.join(' | ')}`);
  });

  it('reports nothing on the clean data-leak.gr', async () => {
    const text = await vscode.workspace.fs.readFile(workspaceFile('rules', 'data-leak.gr'));
    const copy = workspaceFile('rules', 'clean-copy.gr');
    await vscode.workspace.fs.writeFile(copy, text);
    const published = nextDiagnosticsChange(copy, 20_000, 'the first diagnostics of clean-copy.gr');
    await openFile('rules', 'clean-copy.gr');
    await published;
    assert.deepEqual(describeDiagnostics(vscode.languages.getDiagnostics(copy)), []);
  });

  it('shows the fields of a type on hover', async () => {
    const { document } = await openFile('rules', 'data-leak.gr');
    const type = rangeInside(document, '(call: ToolCall)', 'ToolCall', 1);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider', document.uri, type.start.translate(0, 2),
    );
    const text = hoverText(hovers ?? []);
    assert.ok(text.includes('type ToolCall'), `hover names the type:\n${text}`);
    // Its own fields and those every event has, each with its type.
    const fields = [...text.matchAll(/^- `(\w+)`: `(\w+)`/gm)].map((m) => `${m[1]}: ${m[2]}`);
    assert.deepEqual(fields, ['id: str', 'type: str', 'function: Function', 'metadata: dict', 'server: str']);
  });

  it('goes from a variable to its declaration in the same rule', async () => {
    const { document } = await openFile('rules', 'data-leak.gr');
    // First rule: declared in `(inbox: ToolOutput) -> (call: ToolCall)`, used in `call is tool:send_email`.
    const targets = await definitionOf(document, positionIn(document, '    call is tool:send_email', 5, 0));
    const declaration = rangeInside(document, '-> (call: ToolCall)', 'call');
    assert.deepEqual(targets.map((t) => `${t.uri.toString() === document.uri.toString()} ${formatRange(t.selection ?? t.range)}`), [`true ${formatRange(declaration)}`]);
    // Second rule declares its own `call`.
    const second = await definitionOf(document, positionIn(document, '    call is tool:send_email', 5, 1));
    const secondDeclaration = rangeInside(document, '    (call: ToolCall)\n', 'call');
    assert.deepEqual(second.map((t) => formatRange(t.selection ?? t.range)), [formatRange(secondDeclaration)]);
  });

  it('goes from a predicate call and a constant to their declarations', async () => {
    const { document } = await openFile('rules', 'data-leak.gr');
    const predicate = await definitionOf(document, positionIn(document, '    is_external(call)\n', 6, 0));
    const predicateName = rangeInside(document, 'is_external(call: ToolCall) :=', 'is_external');
    assert.deepEqual(predicate.map((t) => formatRange(t.selection ?? t.range)), [formatRange(predicateName)]);
    const constant = await definitionOf(document, positionIn(document, '+ COMPANY_DOMAIN +', 4, 0));
    const constantName = rangeInside(document, 'COMPANY_DOMAIN := ', 'COMPANY_DOMAIN');
    assert.deepEqual(constant.map((t) => formatRange(t.selection ?? t.range)), [formatRange(constantName)]);
  });
});
