import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, diagnosticCode, eventAfter, formatRange, openFile, rangeOf, toTargets, waitFor, workspaceFile } from './helpers';

describe('OpenTelemetry spans', () => {
  let document: vscode.TextDocument;

  before(async () => {
    // examples/spans/travel-assistant.jsonl: the collector's file exporter's lines, recognised by their first line.
    ({ document } = await openFile('spans', 'travel-assistant.jsonl'));
    await activeApi();
    await waitFor(() => (document.languageId === 'agent-trace-jsonl' ? true : undefined), 20_000, 'the span file to be switched to Agent Trace Lines');
  });
  after(closeAllEditors);

  it('goes from a tool span\'s gen_ai.tool.call.id to the call in the model span\'s output', async () => {
    const toolSpanId = rangeOf(document, '"call_weather_1"', 0);
    const targets = await waitFor(async () => {
      const found = toTargets(await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>(
        'vscode.executeDefinitionProvider', document.uri, toolSpanId.start.translate(0, 3),
      ));
      return found.length > 0 ? found : undefined;
    }, 20_000, 'a definition for the tool span\'s call id');
    assert.equal(targets.length, 1);
    assert.equal(formatRange(targets[0].selection ?? targets[0].range), formatRange(rangeOf(document, '\\"call_weather_1\\"', 0)));
  });

  it('shows the span tree in the outline, with durations and tokens', async () => {
    const symbols = await waitFor(async () => {
      const found = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', document.uri);
      return found && found.length > 0 ? found : undefined;
    }, 20_000, 'the outline of the spans');
    assert.deepEqual(symbols.map((symbol) => symbol.name), ['Trace 7a3f9c1e…']);
    const [agent] = symbols[0].children;
    assert.equal(agent.name, 'invoke_agent travel-assistant');
    assert.deepEqual(agent.children.map((child) => `${child.name} | ${child.detail}`), [
      'chat gpt-4o | 812.4 ms · 430 tokens (412 in, 18 out) · 1 call',
      'execute_tool get_weather | 143.2 ms',
      'chat gpt-4o | 1.20 s · 529 tokens (468 in, 61 out) · 1 call',
      'execute_tool send_email | 388.0 ms',
      'chat gpt-4o | 640.7 ms · 580 tokens (561 in, 19 out)',
    ]);
  });

  it('draws the span tree in the preview', async () => {
    await vscode.window.showTextDocument(document);
    const api = await activeApi();
    const event = await eventAfter(api.preview.onDidRender, document.uri, () => vscode.commands.executeCommand('agentTraces.showPreview'), 'the preview of the spans to render');
    // The agent, three model spans with their two calls, and the two tool spans.
    assert.equal(event.nodeCount, 8);
    assert.ok(event.domNodeCount > 0);
  });
});

describe('guardrail rules on OpenTelemetry spans', () => {
  // Written into the workspace's copy of the examples, emptied then deleted after: VS Code keeps a closed file's
  // document open for a while, and every open rule file applies to every trace of the tests after these.
  let ruleUri: vscode.Uri;
  after(async () => {
    await closeAllEditors();
    await vscode.workspace.fs.writeFile(ruleUri, new Uint8Array());
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === ruleUri.toString());
    if (open) await waitFor(() => open.isClosed || open.getText() === '', 20_000, 'partner-mail.gr emptied');
    await vscode.workspace.fs.delete(ruleUri).then(undefined, () => undefined);
  });

  it('marks a rule\'s violation on the span file\'s own characters, inside the model span\'s escaped messages', async () => {
    const { document } = await openFile('spans', 'travel-assistant.jsonl');
    ruleUri = workspaceFile('spans', 'partner-mail.gr');
    const source = '# Mail to a partner needs an approval this agent never asks for.\nraise "Mail sent to a partner without approval" if:\n    (call: ToolCall)\n    call is tool:send_email\n    "@partner.example" in call.function.arguments.to\n';
    await vscode.workspace.fs.writeFile(ruleUri, new TextEncoder().encode(source));
    const rule = await vscode.workspace.openTextDocument(ruleUri);
    await vscode.window.showTextDocument(rule, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    const violation = await waitFor(
      () => vscode.languages.getDiagnostics(document.uri).find((d) => d.source === 'guardrails'),
      30_000, 'a guardrails diagnostic on travel-assistant.jsonl',
    );
    // The call's `to`, written inside the chat span's gen_ai.output.messages string.
    assert.deepEqual(
      [diagnosticCode(violation), formatRange(violation.range), violation.message],
      ['guardrails/partner-mail.gr:2', formatRange(rangeOf(document, '\\"ana@partner.example\\"', 0)), 'Mail sent to a partner without approval'],
    );
  });
});
