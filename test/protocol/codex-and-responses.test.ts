/**
 * Codex rollouts and OpenAI Responses documents through the bundled server over stdio, opened by a generic client
 * (the `jsonl` and `json` language ids editors other than VS Code send): diagnostics, definition from an output to
 * its call, the outline and the preview graph. The rollout imitates `../shared/corpus/formats/codex/
 * codex_with_escalation.jsonl` (a call left unanswered by an aborted turn); the Responses request imitates the
 * recorded bodies of `formats/api-cassettes/openai_responses_history_with_combined_tool_call_id.yaml`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { positionOf } from './corpusFiles';
import { ServerProcess } from './lspClient';

const line = (second: number, type: string, payload: unknown) => JSON.stringify({ timestamp: `2025-12-05T11:00:${String(second).padStart(2, '0')}.000Z`, type, payload });
const rollout = [
  line(0, 'session_meta', { id: 'protocol-001', timestamp: '2025-12-05T11:00:00.000Z', cwd: '/home/testuser/p', originator: 'codex_cli_rs', cli_version: '0.77.0' }),
  line(2, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Read the file' }] }),
  line(3, 'response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","cat a.txt"]}', call_id: 'call_read' }),
  line(5, 'response_item', { type: 'function_call_output', call_id: 'call_read', output: 'hello' }),
  line(6, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Delete it' }] }),
  line(7, 'response_item', { type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","rm a.txt"]}', call_id: 'call_rm' }),
  line(9, 'event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
].join('\n') + '\n';

const request = JSON.stringify({
  model: 'gpt-5',
  input: [
    { role: 'user', content: 'What is the largest city in the user country?' },
    { type: 'function_call', id: 'fc_6847', call_id: 'call_ZWkV', name: 'get_user_country', arguments: '{}' },
    { type: 'function_call_output', call_id: 'call_ZWkV', output: 'Mexico' },
    { type: 'function_call_output', call_id: 'fc_6847', output: 'Mexico again' },
  ],
}, null, 2);


describe('Codex rollouts and Responses documents over the protocol', () => {
  const server = new ServerProcess();
  const rolloutUri = 'file:///home/testuser/.codex/sessions/2025/12/05/rollout-2025-12-05T11-00-00-protocol.jsonl';
  const requestUri = 'file:///workspace/recorded/request.json';

  before(async () => {
    await server.initialize();
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('a rollout opened as "jsonl": the aborted call as information, the output leads to its call, turns in the outline', async () => {
    server.open(rolloutUri, 'jsonl', rollout);
    const diagnostics = await server.diagnosticsFor(rolloutUri, 1);
    assert.deepEqual(diagnostics.map((d) => [d.severity, d.code, d.range.start.line]), [[3, 'codex/unanswered-call', 5]]);
    assert.match(String(diagnostics[0].message), /the turn was aborted \(line 7: interrupted\)/);
    const outputAt = rollout.indexOf('"call_read"', rollout.indexOf('function_call_output')) + 3;
    const found = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri: rolloutUri }, position: positionOf(rollout, outputAt) }) as { targetSelectionRange: { start: { line: number; character: number } } }[];
    assert.deepEqual(found.map((link) => link.targetSelectionRange.start), [positionOf(rollout, rollout.indexOf('"call_read"'))]);
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: rolloutUri } }) as { name: string; children?: { name: string }[] }[];
    assert.deepEqual(symbols.map((symbol) => [symbol.name, (symbol.children ?? []).map((child) => child.name)]), [
      ['Codex session protocol-001', []],
      ['Read the file', ['shell: cat a.txt']],
      ['Delete it', ['shell: rm a.txt']],
    ]);
    const graph = await server.connection.sendRequest('agentTraces/graph', { uri: rolloutUri }) as { format: string; nodes: { kind: string; title: string }[]; totals: { calls: number } };
    assert.equal(graph.format, 'codex');
    assert.deepEqual(graph.nodes.map((node) => node.kind), ['metadata', 'user', 'call', 'output', 'user', 'call', 'metadata']);
    assert.equal(graph.totals.calls, 2);
  });

  it('a Responses request opened as "json": the did-you-mean, its quick fix, the definition by call_id, the outline by question, the preview', async () => {
    server.open(requestUri, 'json', request);
    const diagnostics = await server.diagnosticsFor(requestUri, 1);
    assert.deepEqual(diagnostics.map((d) => [d.severity, d.code]), [[1, 'responses/unknown-call-id']]);
    assert.match(String(diagnostics[0].message), /Did you mean "call_ZWkV"\?/);
    const actions = await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: requestUri }, range: diagnostics[0].range, context: { diagnostics, only: ['quickfix'] },
    }) as { title: string; edit: { changes: Record<string, { newText: string }[]> } }[];
    assert.deepEqual(actions.map((action) => [action.title, action.edit.changes[requestUri][0].newText]), [['Name the call by its call_id "call_ZWkV"', '"call_ZWkV"']]);
    const outputAt = request.indexOf('"call_ZWkV"', request.indexOf('function_call_output')) + 3;
    const found = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri: requestUri }, position: positionOf(request, outputAt) }) as { targetSelectionRange: { start: unknown } }[];
    assert.deepEqual(found.map((link) => link.targetSelectionRange.start), [positionOf(request, request.indexOf('"call_ZWkV"'))]);
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: requestUri } }) as { name: string; children?: { name: string }[] }[];
    assert.deepEqual(symbols.map((symbol) => [symbol.name, (symbol.children ?? []).map((child) => child.name)]), [
      ['Request', []],
      ['What is the largest city in the user country?', ['get_user_country']],
    ]);
    const graph = await server.connection.sendRequest('agentTraces/graph', { uri: requestUri }) as { format: string; nodes: { kind: string }[] };
    assert.equal(graph.format, 'openai-responses');
    assert.deepEqual(graph.nodes.map((node) => node.kind), ['user', 'call', 'output', 'output']);
  });

  it('other JSON and JSON Lines files stay untouched', async () => {
    const other = 'file:///workspace/package.json';
    server.open(other, 'json', '{"name": "x", "input": ["not", "items"]}');
    assert.deepEqual(await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: other } }), []);
    const log = 'file:///workspace/server.jsonl';
    server.open(log, 'jsonl', '{"timestamp":"2025-01-04T09:00:00.000Z","type":"info","payload":"started"}\n');
    assert.deepEqual(await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: log } }), []);
  });
});
