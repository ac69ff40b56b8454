import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
      }, {
        // The element each variable of the rule was bound to: the hover lists it as a link.
        location: { uri: traceUri, range: { start: { line: 1, character: 2 }, end: { line: 1, character: traceText.split('\n')[1].length - 1 } } },
        message: 'm = messages.0',
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
    // `bound`: the node of the message the rule's variable `m` was bound to (the preview marks it).
    assert.deepEqual(marked, [[1, [{ severity: 'warning', code: 'guardrails/leaks.gr:2', message: 'password in a message', range: rangeOf(2, 'sk-live-'), bound: [{ node: 1, variable: 'm' }] }]]]);
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
      [[1, [{ severity: 'warning', code: 'guardrails/leaks.gr:2', message: 'password in a message', range, bound: [{ node: 1, variable: 'm' }] }]]]);
  });
});

describe('a rule\'s time limit from agentTraces.guardrails.timeout', () => {
  const server = new ServerProcess({ guardrails: { timeout: 300 } });
  const traceUri = 'file:///workspace/backtracks.trace.json';

  before(async () => {
    await server.initialize();
    server.open(traceUri, 'agent-trace', JSON.stringify([{ role: 'user', content: 'a'.repeat(30) + '!' }]));
    server.open(ruleUri, 'guardrail', 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n');
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('stops a rule stuck in one regular expression at the limit set, and says so on the trace and the rule file', async () => {
    let diagnostics = await server.diagnosticsFor(traceUri, 1);
    while (!guardrails(diagnostics).length) diagnostics = await server.nextDiagnostics(traceUri);
    assert.deepEqual(guardrails(diagnostics).map((d) => [d.code, d.severity, d.message]), [[
      'guardrails/timeout', 3, 'leaks.gr: Rule 1 stopped after running 300 ms on this trace (the time limit); its violations are not reported (setting agentTraces.guardrails.timeout)',
    ]]);
    let ruleFile = await server.diagnosticsFor(ruleUri, 1);
    while (ruleFile.length === 0) ruleFile = await server.nextDiagnostics(ruleUri);
    assert.deepEqual(ruleFile.map((d) => [d.code, d.severity, d.range.start, d.message]), [[
      'guardrails/timeout', 2, { line: 0, character: 0 },
      'This rule ran past its time limit (300 ms) on 1 trace (backtracks.trace.json) and was stopped there: its violations on them are not reported (setting agentTraces.guardrails.timeout)',
    ]]);
  });
});

describe('policy parameters from agentTraces.guardrails.parameters', () => {
  const traceUri = 'file:///workspace/refund.trace.json';
  const refund = JSON.stringify([
    { role: 'assistant', content: null, tool_calls: [{ id: 'r', type: 'function', function: { name: 'issue_refund', arguments: { amount: 500 } } }] },
  ]);
  const limitRule = 'raise "refund over the limit" if:\n    (call: ToolCall)\n    call.function.arguments.amount > input.limit\n';

  async function guardrailMessages(server: ServerProcess): Promise<string[]> {
    await server.initialize();
    await server.configured;
    server.open(traceUri, 'agent-trace', refund);
    server.open(ruleUri, 'guardrail', limitRule);
    let diagnostics = await server.diagnosticsFor(traceUri, 1);
    while (!guardrails(diagnostics).length) diagnostics = await server.nextDiagnostics(traceUri);
    assert.equal(await server.shutdown(), 0);
    return guardrails(diagnostics).map((d) => `${d.code}: ${d.message}`);
  }

  it('evaluates a rule that reads input.limit with the value set', async () => {
    assert.deepEqual(await guardrailMessages(new ServerProcess({ guardrails: { parameters: { limit: 100 } } })), [
      'guardrails/leaks.gr:1: refund over the limit',
    ]);
  });

  it('says which parameter a rule needs, and where to give it, when it is not set', async () => {
    assert.deepEqual(await guardrailMessages(new ServerProcess()), [
      "guardrails/failed: Guardrails from leaks.gr could not be evaluated: Evaluation failed at line 3 (rule 1): MissingPolicyParameter: Missing Policy Parameter: 'limit' " +
        '(policy relies on `input.limit`), which is required for evaluation of a rule. (leaks.gr:3); give it in the setting agentTraces.guardrails.parameters',
    ]);
  });
});

describe('a rule file\'s code lens over the workspace\'s trace files', () => {
  const server = new ServerProcess({ guardrails: { maxLensTraces: 2 } });
  const folder = mkdtempSync(join(tmpdir(), 'lens-workspace-'));
  const uri = (name: string) => pathToFileURL(join(folder, name)).toString();

  before(async () => {
    writeFileSync(join(folder, 'a.trace.json'), '[{"role": "user", "content": "my hunter2"}]');
    writeFileSync(join(folder, 'b.jsonl'), '{"messages": [{"role": "user", "content": "fine"}]}\n{"messages": [{"role": "user", "content": "hunter2 hunter2"}]}\n');
    writeFileSync(join(folder, 'c.trace.json'), '[{"role": "user", "content": "hunter2 again"}]');
    writeFileSync(join(folder, 'notes.json'), '[{"role": "user", "content": "hunter2, but not a trace file"}]');
    await server.initialize(pathToFileURL(folder).toString());
    await server.configured;
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('counts the violations in trace files that are not open, up to agentTraces.guardrails.maxLensTraces, and says when it stopped', async () => {
    const ruleFile = uri('leaks.gr');
    const refreshed = server.nextLensRefresh();
    server.open(ruleFile, 'guardrail', ruleText('hunter2'));
    const lensTitles = async () => (await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: ruleFile } }) as any[]).map((lens) => lens.command?.title);
    await refreshed;
    let titles = await lensTitles();
    while (!titles.some((title) => /workspace/.test(title))) {
      await server.nextLensRefresh();
      titles = await lensTitles();
    }
    assert.deepEqual(titles, ['2 violations in 2 traces (of 2 trace files in the workspace) · more than 2 trace files in the workspace: the first 2 counted (agentTraces.guardrails.maxLensTraces)']);
    const lenses = await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: ruleFile } }) as any[];
    assert.deepEqual(lenses[0].command.arguments[2].map((target: { uri: string; range: unknown }) => [target.uri, target.range]), [
      [uri('a.trace.json'), { start: { line: 0, character: 33 }, end: { line: 0, character: 40 } }],
      [uri('b.jsonl'), { start: { line: 1, character: 43 }, end: { line: 1, character: 50 } }],
    ]);
  });

  it('counts an open trace from its document, and the rest from disk', async () => {
    const refreshed = server.nextLensRefresh();
    server.open(uri('a.trace.json'), 'agent-trace', '[{"role": "user", "content": "no secret now"}]');
    await refreshed;
    let titles: string[] = [];
    const ruleFile = uri('leaks.gr');
    for (;;) {
      titles = (await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: ruleFile } }) as any[]).map((lens) => lens.command?.title);
      if (titles.some((title) => title.includes('and 2 more trace files'))) break; // once the workspace was counted again
      await server.nextLensRefresh();
    }
    assert.deepEqual(titles, ['2 violations in 2 traces (of 1 open trace file and 2 more trace files in the workspace)']);
  });
});
