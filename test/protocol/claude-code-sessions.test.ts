import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver/node';
import { ServerProcess } from './lspClient';
import { prompt, reply, result, session, text, toolUse } from '../unit/jsonl/claudeCodeSessions';

/** A session as Claude Code writes it, opened by an editor that knows only `jsonl` (Neovim, Helix). */
const lines = [
  prompt('u1', 'run the tests'),
  reply('a1', 'msg_1', text('Running them.'), { parent: 'u1' }),
  reply('a2', 'msg_1', toolUse('toolu_01', 'Bash', { command: 'npm test -- --token=sk-live-secret' }), { parent: 'a1' }),
  result('r1', 'toolu_01', 'FAIL test/app.test.ts\n1 failing', { parent: 'a2', error: true }),
  prompt('u2', 'fix it', { parent: 'r1' }),
  reply('a3', 'msg_2', toolUse('toolu_02', 'Edit', { file_path: 'src/app.ts', old_string: 'a', new_string: 'b' }), { parent: 'u2' }),
  result('r2', 'toolu_02', 'edited', { parent: 'a3' }),
];
const sessionText = session(...lines);

const ruleText = [
  'raise "a secret in a shell command" if:',
  '    (call: ToolCall)',
  '    call is tool:Bash',
  '    any(find(r"sk-live-[a-z]+", call.function.arguments.command))',
  '',
].join('\n');

function rangeOf(line: number, needle: string) {
  const character = lines[line].indexOf(needle);
  assert.ok(character >= 0, needle);
  return { start: { line, character }, end: { line, character: character + needle.length } };
}

const guardrails = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.source === 'guardrails');

describe('a Claude Code session over stdio, opened as "jsonl"', () => {
  const folder = mkdtempSync(join(tmpdir(), 'session-workspace-'));
  const sessionUri = pathToFileURL(join(folder, '0f3c9a.jsonl')).toString();
  const ruleUri = pathToFileURL(join(folder, 'secrets.gr')).toString();
  const server = new ServerProcess();

  before(async () => {
    writeFileSync(join(folder, '0f3c9a.jsonl'), sessionText);
    writeFileSync(join(folder, 'secrets.gr'), ruleText);
    await server.initialize(folder);
    server.open(sessionUri, 'jsonl', sessionText);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('gets its diagnostics, outline and navigation from a tool_use_id to its call', async () => {
    const diagnostics = await server.diagnosticsFor(sessionUri, 1);
    assert.deepEqual(diagnostics.filter((d) => d.severity === 1), []);
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: sessionUri } }) as { name: string; children?: { name: string }[] }[];
    assert.deepEqual(symbols.map((s) => s.name), ['run the tests', 'fix it']);
    assert.deepEqual(symbols.map((s) => s.children?.map((c) => c.name)), [['✗ Bash: npm test -- --token=sk-live-secret'], ['Edit: src/app.ts']]);
    const at = rangeOf(3, 'toolu_01').start;
    const targets = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri: sessionUri }, position: { line: 3, character: at.character + 2 } }) as { uri?: string; range?: unknown; targetUri?: string; targetSelectionRange?: unknown }[];
    const id = lines[2].indexOf('"toolu_01"');
    assert.deepEqual(targets.map((t) => [t.targetUri ?? t.uri, t.targetSelectionRange ?? t.range]), [[sessionUri, { start: { line: 2, character: id }, end: { line: 2, character: id + '"toolu_01"'.length } }]]);
  });

  it('puts a violation of a rule opened beside it on the exact characters of the session, on its node in the preview and in the rule\'s lens', async () => {
    server.open(ruleUri, 'guardrail', ruleText);
    let diagnostics = await server.diagnosticsFor(sessionUri, 1);
    while (guardrails(diagnostics).length === 0) diagnostics = await server.nextDiagnostics(sessionUri);
    const range = rangeOf(2, 'sk-live-secret');
    assert.deepEqual(guardrails(diagnostics).map((d) => [d.range, d.code, d.message]), [[range, 'guardrails/secrets.gr:1', 'a secret in a shell command']]);
    const graph = await server.connection.sendRequest('agentTraces/graph', { uri: sessionUri }) as { nodes: { kind: string; title: string; problems: { code: string; range?: unknown }[] }[] };
    const marked = graph.nodes.filter((node) => node.problems.some((p) => p.code.startsWith('guardrails/')));
    assert.deepEqual(marked.map((node) => [node.kind, node.problems.filter((p) => p.code.startsWith('guardrails/')).map((p) => p.range)]), [['call', [range]]]);
    const lenses = await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: ruleUri } }) as { command?: { title: string } }[];
    assert.match(lenses[0].command?.title ?? '', /^1 violation in 1 trace/);
  });

  it('converts to an Invariant trace on request, redacted when asked', async () => {
    const plain = await server.connection.sendRequest('agentTraces/convertToTrace', { uri: sessionUri }) as { text: string; fileName: string; warnings: string[] };
    assert.equal(plain.fileName, '0f3c9a.trace.json');
    assert.deepEqual(plain.warnings, []);
    const events = JSON.parse(plain.text) as { role: string; is_error?: boolean }[];
    assert.deepEqual(events.map((e) => e.role), ['user', 'assistant', 'assistant', 'tool', 'user', 'assistant', 'tool']);
    assert.equal(events[3].is_error, true);
    const redacted = await server.connection.sendRequest('agentTraces/convertToTrace', { uri: sessionUri, redact: true }) as { text: string; replaced: string[] };
    assert.ok(!redacted.text.includes('sk-live-secret'));
    assert.deepEqual(redacted.replaced, ['assigned-secret at messages.2.tool_calls.0.function.arguments.command: sk-l… → <redacted:assigned-secret>']);
    const other = await server.connection.sendRequest('agentTraces/convertToTrace', { uri: 'file:///nowhere.jsonl' }) as { error?: string };
    assert.equal(other.error, 'the document is not open');
  });
});
