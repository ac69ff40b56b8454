import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  activeApi, closeAllEditors, diagnosticCode, eventAfter, expectedDiagnostic, formatRange, openFile, rangeOf, toTargets, waitFor, waitForDiagnostics,
  workspaceFile,
} from './helpers';

describe('Inspect AI logs (.json)', () => {
  let document: vscode.TextDocument;

  before(async () => {
    // examples/logs/…_refund-agent.json: VS Code opens it as json; its first keys make it an Inspect log.
    const { document: opened } = await openFile('logs', '2025-07-05T14-00-00_refund-agent.json');
    await activeApi();
    const current = () => vscode.workspace.textDocuments.find((each) => each.uri.toString() === opened.uri.toString());
    document = await waitFor(() => (current()?.languageId === 'agent-trace-inspect' ? current() : undefined), 20_000, `the agent-trace-inspect language (is ${current()?.languageId})`);
  });
  after(closeAllEditors);

  it('reports the tool message whose call is missing and the tool that timed out', async () => {
    // The information is on the timed-out call's tool name, in sample 2.
    const text = document.getText();
    const callName = text.indexOf('"get_order"', text.indexOf('"id": "call_order_2077"'));
    await waitForDiagnostics(document.uri, [
      expectedDiagnostic('inspect/tool-error', 'information', new vscode.Range(document.positionAt(callName), document.positionAt(callName + '"get_order"'.length))),
      expectedDiagnostic('inspect/tool-error', 'warning', rangeOf(document, '"timeout"', 0)),
      expectedDiagnostic('inspect/unknown-call-id', 'error', rangeOf(document, '"call_order_2770"')),
    ], 'the faults of the refund agent log');
  });

  it('goes from a tool_call_id to its call in the same sample', async () => {
    const output = rangeOf(document, '"call_refund_1042"', 1);
    const targets = toTargets(await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
      'vscode.executeDefinitionProvider', document.uri, output.start.translate(0, 3),
    ));
    assert.equal(targets.length, 1);
    assert.equal(formatRange(targets[0].selection ?? targets[0].range), formatRange(rangeOf(document, '"call_refund_1042"', 0)));
  });

  it('lists the samples with their scores, then their turns with the calls', async () => {
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', document.uri);
    assert.deepEqual(symbols.map((symbol) => symbol.name), [
      'Eval: refund_agent · openai/gpt-4o',
      'Sample 1 (epoch 1): Order 1042 arrived damaged. Please refund me 45 euros.',
      'Sample 2 (epoch 1): Where is my order 2077? It should have arrived last week.',
    ]);
    assert.match(symbols[1].detail, /^model_graded_qa: I · 2 calls · 6\.60 s · 1,523 tokens/);
    const turn = symbols[1].children.find((child) => child.name.startsWith('Order 1042'))!;
    assert.deepEqual(turn.children.map((child) => child.name), ['get_order(order_id=1042)', 'issue_refund(order_id=1042, amount=45.0, reason="damaged in transit")']);
  });

  it('draws one sample in the preview, and the other when the cursor moves into it', async () => {
    const editor = await vscode.window.showTextDocument(document);
    const api = await activeApi();
    const first = await eventAfter(api.preview.onDidRender, document.uri, () => vscode.commands.executeCommand('agentTraces.showPreviewToSide'), 'the preview of the log to render');
    // Sample 1: the system prompt, the prompt, three assistant messages, two calls and their two results.
    assert.equal(first.nodeCount, 9);
    const shown = await vscode.window.showTextDocument(document, { viewColumn: editor.viewColumn });
    const second = await eventAfter(api.preview.onDidRender, document.uri, async () => {
      const into = rangeOf(document, '"call_order_2770"').start;
      shown.selection = new vscode.Selection(into, into);
    }, 'the preview of sample 2 after the cursor moved into it');
    // Sample 2: the system prompt, the prompt, two assistant messages, one call, the timed-out result and the orphan.
    assert.equal(second.nodeCount, 7);
  });

  it('marks a rule\'s violation in a sample on the log\'s own characters', async () => {
    // A rule file written into the workspace copy for this test: the refund of sample 1 is above its order's total.
    const ruleUri = workspaceFile('rules', 'refund-total.gr');
    await vscode.workspace.fs.writeFile(ruleUri, new TextEncoder().encode([
      'raise PolicyViolation("refund above the order total", call) if:',
      '    (order: ToolOutput) -> (call: ToolCall)',
      '    order is tool:get_order',
      '    call is tool:issue_refund',
      '    call.function.arguments.amount > json_loads(order.content).total',
      '',
    ].join('\n')));
    try {
      await vscode.window.showTextDocument(document);
      const rule = await vscode.workspace.openTextDocument(ruleUri);
      await vscode.window.showTextDocument(rule, { preview: false, viewColumn: vscode.ViewColumn.Beside });
      const violation = await waitFor(
        () => vscode.languages.getDiagnostics(document.uri).find((d) => d.source === 'guardrails'),
        30_000, 'a guardrails diagnostic on the refund agent log',
      );
      // The smallest element the violation binds: the get_order output of sample 1 (messages[3]), from its brace.
      const text = document.getText();
      const start = text.lastIndexOf('{', text.indexOf('"id": "t1"'));
      const end = text.indexOf('}', text.indexOf('"function": "get_order"', start)) + 1;
      assert.deepEqual(
        [diagnosticCode(violation), formatRange(violation.range), violation.message],
        ['guardrails/refund-total.gr:1', formatRange(new vscode.Range(document.positionAt(start), document.positionAt(end))), 'refund above the order total'],
      );
    } finally {
      await closeAllEditors();
      await vscode.workspace.fs.delete(ruleUri);
    }
  });
});
