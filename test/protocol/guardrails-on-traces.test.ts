import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver/node';
import { ServerProcess } from './lspClient';

const traceUri = 'file:///workspace/support.trace.json';
// An escape (\u00e9) and a quoted word before the secret: its squiggle must still cover exactly `hunter2`.
const traceText = [
  '[',
  '  {"role": "user", "content": "Caf\\u00e9 login? \\"pw\\": hunter2"},',
  '  {"role": "assistant", "content": "Your token is sk-live-1234."}',
  ']',
].join('\n');

const ruleUri = 'file:///workspace/rules/leaks.gr';
const ruleText = (literal: string) => [
  '# secrets typed into the chat',
  `raise "password in a message" if:`,
  '    (m: Message)',
  `    "${literal}" in m.content`,
  '',
].join('\n');

function rangeOf(line: number, needle: string) {
  const character = traceText.split('\n')[line].indexOf(needle);
  assert.ok(character >= 0);
  return { start: { line, character }, end: { line, character: character + needle.length } };
}

const guardrails = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.source === 'guardrails');

describe('guardrail rules on open traces over stdio', () => {
  const server = new ServerProcess();

  /** The trace's diagnostics once they satisfy `ready` (the rule file's check re-checks the trace). */
  async function traceDiagnostics(ready: (guardrailDiagnostics: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
    let diagnostics = await server.diagnosticsFor(traceUri, 1);
    while (!ready(guardrails(diagnostics))) diagnostics = await server.nextDiagnostics(traceUri);
    return guardrails(diagnostics);
  }

  before(async () => {
    const result = await server.initialize();
    assert.deepEqual(result.capabilities.codeLensProvider, {});
    server.open(traceUri, 'agent-trace', traceText);
    server.open(ruleUri, 'guardrail', ruleText('hunter2'));
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('puts a violation of an open rule file on the exact characters of the trace, pointing at the raise line', async () => {
    const diagnostics = await traceDiagnostics((list) => list.length > 0);
    assert.deepEqual(diagnostics, [{
      range: rangeOf(1, 'hunter2'),
      severity: 2,
      code: 'guardrails/leaks.gr:2',
      source: 'guardrails',
      message: 'password in a message',
      relatedInformation: [{
        location: { uri: ruleUri, range: { start: { line: 1, character: 0 }, end: { line: 1, character: 'raise "password in a message" if:'.length } } },
        message: 'the rule that raised it',
      }],
    }]);
  });

  it('shows per rule a code lens that counts the violations and reveals them', async () => {
    await traceDiagnostics((list) => list.length > 0);
    const lenses = await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: ruleUri } }) as any[];
    assert.deepEqual(lenses, [{
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 'raise "password in a message" if:'.length } },
      command: {
        title: '1 violation in 1 trace (of 1 open trace file)',
        command: 'agentTraces.revealLocations',
        arguments: [ruleUri, { line: 1, character: 0 }, [{ uri: traceUri, range: rangeOf(1, 'hunter2') }]],
      },
    }]);
  });

  it('moves the violation when the rule changes', async () => {
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: ruleUri, version: 2 },
      contentChanges: [{ text: ruleText('sk-live-') }],
    });
    const diagnostics = await traceDiagnostics((list) => list.some((d) => d.range.start.line === 2));
    assert.deepEqual(diagnostics.map((d) => [d.range, d.code]), [[rangeOf(2, 'sk-live-'), 'guardrails/leaks.gr:2']]);
  });

  it('marks the violation on its node in the preview\'s graph, with the exact range to select', async () => {
    await traceDiagnostics((list) => list.some((d) => d.range.start.line === 2));
    const graph = await server.connection.sendRequest('agentTraces/graph', { uri: traceUri }) as { nodes: { eventIndex: number; problems: unknown[] }[] };
    const marked = graph.nodes.filter((node) => node.problems.length > 0).map((node) => [node.eventIndex, node.problems]);
    assert.deepEqual(marked, [[1, [{ severity: 'warning', code: 'guardrails/leaks.gr:2', message: 'password in a message', range: rangeOf(2, 'sk-live-') }]]]);
  });

  it('takes the violations away when the rule file is closed', async () => {
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: ruleUri } });
    assert.deepEqual(await traceDiagnostics((list) => list.length === 0), []);
  });
});

describe('guardrail rules on an open dataset over stdio', () => {
  const server = new ServerProcess();
  const datasetUri = 'file:///workspace/evals.trace.jsonl';
  const lines = [
    '{"metadata": {"name": "evals"}}',
    '{"messages": [{"role": "user", "content": "fine"}]}',
    '{"messages": [{"role": "user", "content": "x"}, {"role": "user", "content": "my hunter2"}]}',
  ];

  before(async () => {
    await server.initialize();
    server.open(datasetUri, 'agent-trace-jsonl', lines.join('\n'));
    server.open(ruleUri, 'guardrail', ruleText('hunter2'));
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('evaluates each trace line on its own: the violation lands inside its line, and on its node in that line\'s graph', async () => {
    let diagnostics = await server.diagnosticsFor(datasetUri, 1);
    while (!guardrails(diagnostics).length) diagnostics = await server.nextDiagnostics(datasetUri);
    const character = lines[2].indexOf('hunter2');
    const range = { start: { line: 2, character }, end: { line: 2, character: character + 'hunter2'.length } };
    assert.deepEqual(guardrails(diagnostics).map((d) => [d.range, d.code]), [[range, 'guardrails/leaks.gr:2']]);
    const graph = await server.connection.sendRequest('agentTraces/graph', { uri: datasetUri, traceIndex: 1 }) as { nodes: { eventIndex: number; problems: unknown[] }[] };
    assert.deepEqual(graph.nodes.filter((n) => n.problems.length > 0).map((n) => [n.eventIndex, n.problems]),
      [[1, [{ severity: 'warning', code: 'guardrails/leaks.gr:2', message: 'password in a message', range }]]]);
  });
});
