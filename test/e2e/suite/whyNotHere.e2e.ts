import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, hoverText, openFile, positionIn, waitFor, withTimeout, workspaceFile } from './helpers';

interface ShownExplanation {
  uri: string;
  range: vscode.Range;
  wouldFire: boolean;
  markdown: string;
}

const rulesPath = ['rules', 'refunds.gr'];
const tracePath = ['rules', 'fixtures', 'approved.trace.json'];
/** "refund above the order total": its second rule. */
const aboveTotal = 1;

describe('"why not here?" in the editor', () => {
  beforeEach(closeAllEditors);
  after(closeAllEditors);

  it('explains a rule on the tool call at the cursor, as a hover on the call', async () => {
    await activeApi();
    const rules = await openFile(...rulesPath);
    const { document, editor } = await openFile(...tracePath);
    const position = positionIn(document, '"issue_refund"');
    editor.selection = new vscode.Selection(position, position);
    const shown = await withTimeout(
      vscode.commands.executeCommand<ShownExplanation>('agentTraces.whyNotHere', { ruleUri: rules.document.uri.toString(), ruleIndex: aboveTotal }),
      30_000, 'the explanation of the rule on the call',
    );
    assert.ok(shown, 'an explanation was shown');
    assert.equal(shown.uri, document.uri.toString());
    assert.equal(shown.wouldFire, false);
    assert.ok(shown.range.contains(position), 'on the call at the cursor');
    assert.equal(document.getText(shown.range).split('\n')[0], '{"id": "call_3", "type": "function", "function": {"name": "issue_refund", "arguments": "{\\"order_id\\": 1001, \\"amount\\": 240}"}}');
    const paragraphs = shown.markdown.split('\n\n');
    assert.match(paragraphs[0], /^\*\*Why not here\?\*\* \[refunds\.gr:15\]\(.*refunds\.gr#L15,1\) `refund above the order total` on \[messages\.5\.tool_calls\.0\]/);
    assert.match(paragraphs[1], /^\*\*It does not fire here\*\*, with `call` \(\[line 16\]/);
    assert.ok(paragraphs.some((p) => p.startsWith('The first false condition, [line 20]')), shown.markdown);
    // The panel stays on the call: hovering it shows the explanation.
    const hovers = await waitFor(async () => {
      const found = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, position);
      return hoverText(found ?? []).includes('**It does not fire here**') ? found : undefined;
    }, 10_000, 'the explanation in the call\'s hover');
    assert.ok(hoverText(hovers).includes('`refund above the order total`'));
  });

  it('offers a code action on a rule, which explains it on an element of an open trace', async () => {
    const api = await activeApi();
    const trace = await openFile(...tracePath);
    const { document } = await openFile(...rulesPath);
    const inRule = positionIn(document, 'order is tool:get_order');
    const actions = await waitFor(async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, new vscode.Range(inRule, inRule));
      return found?.some((a) => a.command?.command === 'agentTraces.explainRuleOnTrace') ? found : undefined;
    }, 20_000, 'the explain code action on the rule');
    const action = actions.find((a) => a.command?.command === 'agentTraces.explainRuleOnTrace')!;
    assert.equal(action.title, 'Why does "refund above the order total" not fire on…? Explain it on a trace element');
    assert.deepEqual(action.command!.arguments, [document.uri.toString(), aboveTotal]);

    const explained = new Promise<ShownExplanation>((resolve) => {
      const subscription = api.whyNotHere.onDidExplain((shown) => {
        subscription.dispose();
        resolve(shown);
      });
    });
    // The element the user would pick in the list the command shows.
    await vscode.commands.executeCommand(action.command!.command, ...action.command!.arguments!, { uri: workspaceFile(...tracePath).toString(), address: 'messages.2' });
    const shown = await withTimeout(explained, 30_000, 'the explanation on the output');
    assert.equal(shown.uri, trace.document.uri.toString());
    assert.match(shown.markdown.split('\n\n')[1], /^\*\*It does not fire here\*\*, with `order` \(\[line 16\]/);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), trace.document.uri.toString(), 'the trace is shown at the element');
  });
});
