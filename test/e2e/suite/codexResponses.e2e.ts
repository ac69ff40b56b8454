import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, definitionAt, diagnosticCode, eventAfter, formatRange, outlineNames, outlineOf, rangeOf, waitFor, workspaceFile } from './helpers';

// Written for these tests after the shapes of the corpus's Codex rollouts (codex/codex_golden.jsonl) and recorded
// Responses bodies (api-cassettes/openai_responses_*.yaml), into the workspace copy.
const rollout = [
  { timestamp: '2026-11-02T10:00:00.000Z', type: 'session_meta', payload: { id: 'e2e-rollout', cwd: '/work/app', originator: 'codex_cli_rs', cli_version: '0.77.0' } },
  { timestamp: '2026-11-02T10:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Clean the build folder' }] } },
  { timestamp: '2026-11-02T10:00:03.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":"rm -rf build"}', call_id: 'call_clean1' } },
  { timestamp: '2026-11-02T10:00:04.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_clean1', output: 'removed' } },
  { timestamp: '2026-11-02T10:00:05.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] } },
].map((record) => JSON.stringify(record)).join('\n') + '\n';

const responses = `${JSON.stringify({
  model: 'gpt-5',
  input: [
    { role: 'user', content: [{ type: 'input_text', text: 'Refund order 77' }] },
    { type: 'function_call', id: 'fc_77', call_id: 'call_refund77', name: 'issue_refund', arguments: '{"reason": "sent to the attacker"}' },
    { type: 'function_call_output', call_id: 'call_refund77', output: 'refunded' },
  ],
}, null, 2)}\n`;

const shellRule = 'raise "no rm -rf" if:\n    (call: ToolCall)\n    "rm -rf" in call.function.arguments.command\n';
const refundRule = 'raise "refund to an attacker" if:\n    (call: ToolCall)\n    call is tool:issue_refund\n    "attacker" in call.function.arguments.reason\n';

async function write(text: string, ...segments: string[]): Promise<vscode.Uri> {
  const uri = workspaceFile(...segments);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return uri;
}

/**
 * Empties the rule files, then deletes what the tests wrote: VS Code keeps a closed file's document open for a while,
 * and every open rule file applies to every trace, so a rule left behind would be evaluated in the tests after these.
 */
async function cleanUp(rules: vscode.Uri[], files: string[]): Promise<void> {
  await closeAllEditors();
  for (const rule of rules) {
    await vscode.workspace.fs.writeFile(rule, new Uint8Array());
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === rule.toString());
    if (open) await waitFor(() => open.isClosed || open.getText() === '', 20_000, `${rule.path} emptied`);
  }
  for (const name of files) await vscode.workspace.fs.delete(workspaceFile(name)).then(undefined, () => undefined);
}

/** Shows the rule file beside the trace and waits for its violation there. */
async function violationBeside(trace: vscode.TextDocument, rule: vscode.Uri): Promise<vscode.Diagnostic> {
  await vscode.window.showTextDocument(trace, { preview: false });
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(rule), { preview: false, viewColumn: vscode.ViewColumn.Beside });
  return waitFor(() => vscode.languages.getDiagnostics(trace.uri).find((d) => d.source === 'guardrails'), 30_000, `a guardrails diagnostic on ${trace.uri.path}`);
}

describe('Codex rollouts and Responses conversations', () => {
describe('a Codex rollout', () => {
  let document: vscode.TextDocument;
  let rule: vscode.Uri;

  before(async () => {
    // Named as Codex names rollouts; only its first record says what it is.
    const uri = await write(rollout, 'rollout-2026-11-02T10-00-00-e2e.jsonl');
    rule = await write(shellRule, 'no-rm.gr');
    document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    await activeApi();
  });
  after(() => cleanUp([rule], ['rollout-2026-11-02T10-00-00-e2e.jsonl', 'no-rm.gr', 'rollout-2026-11-02T10-00-00-e2e.trace.json']));

  it('goes from an output\'s call_id to its call', async () => {
    const targets = await definitionAt(document, rangeOf(document, '"call_clean1"', 1).start.translate(0, 3));
    assert.equal(targets.length, 1);
    assert.equal(targets[0].uri.toString(), document.uri.toString());
    assert.ok((targets[0].selection ?? targets[0].range).contains(rangeOf(document, '"call_clean1"', 0)), formatRange(targets[0].selection ?? targets[0].range));
  });

  it('lists the prompt in the outline with its shell call under it', async () => {
    const names = outlineNames(await outlineOf(document));
    assert.ok(names.some((name) => name.includes('Clean the build folder')), names.join(' | '));
    assert.ok(names.some((name) => name.startsWith('shell')), names.join(' | '));
  });

  it('draws the rollout in the preview', async () => {
    await vscode.window.showTextDocument(document);
    const api = await activeApi();
    const event = await eventAfter(api.preview.onDidRender, document.uri, () => vscode.commands.executeCommand('agentTraces.showPreview'), 'the preview of the rollout to render');
    // The prompt, the call with its output, the answer.
    assert.ok(event.nodeCount >= 3, `nodes drawn: ${event.nodeCount}`);
  });

  it('underlines a rule\'s violation on the characters inside the call\'s arguments string', async () => {
    const violation = await violationBeside(document, rule);
    assert.deepEqual([diagnosticCode(violation), formatRange(violation.range), violation.message], ['guardrails/no-rm.gr:1', formatRange(rangeOf(document, 'rm -rf')), 'no rm -rf']);
  });

  it('converts the rollout with the editor\'s command to the trace rules see', async () => {
    const output = await vscode.commands.executeCommand<vscode.Uri | undefined>('agentTraces.convertToTrace', document.uri);
    assert.ok(output, 'the command wrote a trace');
    assert.ok(output.path.endsWith('/rollout-2026-11-02T10-00-00-e2e.trace.json'), output.path);
    const written = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(output))) as unknown;
    assert.deepEqual(written, [
      { role: 'user', content: 'Clean the build folder' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_clean1', type: 'function', function: { name: 'shell', arguments: '{"command":"rm -rf build"}' } }] },
      { role: 'tool', content: 'removed', tool_call_id: 'call_clean1' },
      { role: 'assistant', content: 'Done.' },
    ]);
    // The command opens what it wrote.
    await waitFor(() => vscode.window.visibleTextEditors.some((editor) => editor.document.uri.toString() === output.toString()), 20_000, 'the converted trace shown');
  });
});

describe('an OpenAI Responses conversation', () => {
  let document: vscode.TextDocument;
  let rule: vscode.Uri;

  before(async () => {
    const uri = await write(responses, 'refund-responses.json');
    rule = await write(refundRule, 'refunds-e2e.gr');
    document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, { preview: false });
    await activeApi();
  });
  after(() => cleanUp([rule], ['refund-responses.json', 'refunds-e2e.gr']));

  it('goes from an output\'s call_id to its call', async () => {
    const targets = await definitionAt(document, rangeOf(document, '"call_refund77"', 1).start.translate(0, 3));
    assert.equal(targets.length, 1);
    assert.ok((targets[0].selection ?? targets[0].range).contains(rangeOf(document, '"call_refund77"', 0)), formatRange(targets[0].selection ?? targets[0].range));
  });

  it('lists the user message in the outline with its call', async () => {
    const names = outlineNames(await outlineOf(document));
    assert.ok(names.some((name) => name.includes('Refund order 77')), names.join(' | '));
    assert.ok(names.some((name) => name.includes('issue_refund')), names.join(' | '));
  });

  it('draws the conversation in the preview', async () => {
    await vscode.window.showTextDocument(document);
    const api = await activeApi();
    const event = await eventAfter(api.preview.onDidRender, document.uri, () => vscode.commands.executeCommand('agentTraces.showPreview'), 'the preview of the conversation to render');
    assert.ok(event.nodeCount >= 2, `nodes drawn: ${event.nodeCount}`);
  });

  it('underlines a rule\'s violation on the word inside the call\'s arguments string', async () => {
    const violation = await violationBeside(document, rule);
    assert.deepEqual([diagnosticCode(violation), formatRange(violation.range), violation.message], ['guardrails/refunds-e2e.gr:1', formatRange(rangeOf(document, 'attacker')), 'refund to an attacker']);
  });
});
});
