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

  it('times each call in inlay hints only while agentTraces.inlayHints.durations is on', async () => {
    const durations = () => vscode.workspace.getConfiguration('agentTraces.inlayHints');
    assert.equal(durations().get('durations'), false, 'off by default');
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const labelsOf = (hints: vscode.InlayHint[]) => hints.map((hint) => ({
      at: `${hint.position.line + 1}:${hint.position.character + 1}`,
      label: typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join(''),
    }));
    const hints = async () => labelsOf(await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', document.uri, whole));
    const timed = (found: { at: string; label: string }[]) => found.filter((hint) => hint.label.startsWith('⏱'));

    // The calls' links are hinted whatever the setting, so the server has answered when they are there.
    const off = await waitFor(async () => {
      const found = await hints();
      return found.some((hint) => hint.label.startsWith('→')) ? found : undefined;
    }, 20_000, 'the session\'s call links hinted');
    assert.deepEqual(timed(off), []);

    // After each tool_use block (its closing brace), the 4 s until its tool_result was written.
    const text = document.getText();
    const expected = [1, 2, 3, 4, 5].map((n) => {
      const end = document.positionAt(text.indexOf('}]', text.indexOf(`"id":"toolu_01Checkout${n}"`)) + 1);
      return { at: `${end.line + 1}:${end.character + 1}`, label: '⏱ 4.00 s' };
    });
    await durations().update('durations', true, vscode.ConfigurationTarget.Workspace);
    try {
      let last: { at: string; label: string }[] = [];
      await waitFor(async () => {
        last = timed(await hints());
        return last.length > 0 ? last : undefined;
      }, 20_000, 'the calls\' durations hinted once the setting is on');
      assert.deepEqual(last, expected);
    } finally {
      await durations().update('durations', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor(async () => timed(await hints()).length === 0, 20_000, 'the durations gone once the setting is off again');
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
