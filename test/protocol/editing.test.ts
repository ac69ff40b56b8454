import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';

const uri = 'file:///workspace/fixture.trace.json';
const call = (id: string) => `{"id": "${id}", "type": "function", "function": {"name": "get_inbox", "arguments": {}}}`;
const text = [
  '[',
  `  {"role": "assistant", "tool_calls": [${call('c1')}]},`,
  '  {"role": "tool", "tool_call_id": "c1", "content": "a"},',
  '  {"role": "user", "content": [1,]},',
  '  {"role": "user", "content": [2,]}',
  ']',
].join('\n');

describe('editing help over stdio: code actions, fix-all, rename, inlay hints', () => {
  const server = new ServerProcess();

  before(async () => {
    const result = await server.initialize();
    assert.deepEqual(result.capabilities.codeActionProvider.codeActionKinds, ['quickfix', 'refactor.rewrite', 'source.fixAll.agentTraces']);
    assert.equal(result.capabilities.inlayHintProvider, true);
    server.open(uri, 'agent-trace', text);
    await server.diagnosticsFor(uri, 1);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('offers the fix for the problem at the cursor, and fix all of its kind', async () => {
    const position = { line: 3, character: 32 };
    const actions: any[] = await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri }, range: { start: position, end: position }, context: { diagnostics: [] },
    });
    assert.deepEqual(actions.map((a) => [a.title, a.kind]), [
      ['Remove the trailing comma', 'quickfix'],
      ['Fix all json/trailing-comma problems in the file (2)', 'quickfix'],
    ]);
    assert.deepEqual(actions[0].edit.changes[uri], [{ range: { start: position, end: { line: 3, character: 33 } }, newText: '' }]);
    assert.equal(actions[0].diagnostics[0].code, 'json/trailing-comma');
    assert.equal(actions[0].isPreferred, true);
  });

  it('answers source.fixAll.agentTraces with every safe fix (fix on save)', async () => {
    const actions: any[] = await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll'] },
    });
    assert.deepEqual(actions.map((a) => a.kind), ['source.fixAll.agentTraces']);
    assert.deepEqual(actions[0].edit.changes[uri].map((e: any) => [e.range.start.line, e.range.start.character, e.newText]), [[3, 32, ''], [4, 32, '']]);
  });

  it('fades an unused import in a rule file, removes it, and adds the import a library name lacks', async () => {
    const rules = 'file:///workspace/rules.gr';
    server.open(rules, 'guardrail', 'from invariant.detectors import secrets\n\nraise "x" if:\n    (m: Message)\n    len(pii(m.content)) > 0\n');
    const diagnostics = await server.diagnosticsFor(rules, 1);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.tags, d.range.start.line, d.range.start.character]), [
      ['gr/unused-import', 4, [1], 0, 32],
      ['gr/unknown-identifier', 1, undefined, 4, 8],
    ]);
    const at = async (line: number, character: number) => (await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: rules }, range: { start: { line, character }, end: { line, character } }, context: { diagnostics: [] },
    }) as any[]).map((a) => [a.title, a.edit?.changes[rules].map((e: any) => [e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character, e.newText]) ?? a.command.command]);
    assert.deepEqual(await at(0, 34), [["Remove the unused import 'secrets'", [[0, 0, 1, 0, '']]]]);
    // Inside a rule, "why not here?" is offered beside the fixes.
    assert.deepEqual(await at(4, 9), [
      ["Add 'pii' to the import from invariant.detectors", [[0, 39, 0, 39, ', pii']]],
      ['Why does "x" not fire on…? Explain it on a trace element', 'agentTraces.explainRuleOnTrace'],
    ]);
  });

  it('renames a call id from a tool_call_id, and refuses elsewhere with a reason', async () => {
    const range: any = await server.connection.sendRequest('textDocument/prepareRename', { textDocument: { uri }, position: { line: 2, character: 38 } });
    assert.deepEqual(range, { start: { line: 2, character: 36 }, end: { line: 2, character: 38 } });
    const edit: any = await server.connection.sendRequest('textDocument/rename', { textDocument: { uri }, position: { line: 2, character: 38 }, newName: 'inbox_1' });
    assert.deepEqual(edit.changes[uri].map((e: any) => [e.range.start.line, e.range.start.character, e.newText]), [[1, 47, 'inbox_1'], [2, 36, 'inbox_1']]);
    await assert.rejects(
      server.connection.sendRequest('textDocument/prepareRename', { textDocument: { uri }, position: { line: 3, character: 6 } }),
      /Only a tool call id can be renamed in a trace/,
    );
  });

  it('refuses to rename a call id onto one another call has, with the reason as the rename error', async () => {
    const twoCalls = 'file:///workspace/two-calls.trace.json';
    const twoCallsText = `[{"role": "assistant", "tool_calls": [${call('c1')}, ${call('c2')}]}]`;
    server.open(twoCalls, 'agent-trace', twoCallsText);
    await server.diagnosticsFor(twoCalls, 1);
    const onC2 = { line: 0, character: twoCallsText.indexOf('"c2"') + 1 };
    await assert.rejects(
      server.connection.sendRequest('textDocument/rename', { textDocument: { uri: twoCalls }, position: onC2, newName: 'c1' }),
      (error: any) => error.code === -32600 && error.message === 'Another tool call of this trace already has the id "c1" (get_inbox, in event #0): two calls with one id would make their outputs ambiguous',
    );
    const edit: any = await server.connection.sendRequest('textDocument/rename', { textDocument: { uri: twoCalls }, position: onC2, newName: 'c3' });
    assert.deepEqual(edit.changes[twoCalls].map((e: any) => [e.range.start.character, e.range.end.character, e.newText]), [[onC2.character, onC2.character + 2, 'c3']]);
  });

  it('puts a lens on each event with calls that reveals it in the preview', async () => {
    const lenses: any[] = await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } });
    assert.deepEqual(lenses.map((l) => [l.range.start.line, l.command.title, l.command.command, l.command.arguments]),
      [[1, '1 output · open in preview', 'agentTraces.revealInPreview', [uri, 4]]]);
  });

  it('draws inlay hints for the requested range', async () => {
    const hints: any[] = await server.connection.sendRequest('textDocument/inlayHint', {
      textDocument: { uri }, range: { start: { line: 0, character: 0 }, end: { line: 5, character: 1 } },
    });
    assert.deepEqual(hints.map((h) => [h.position.line, h.position.character, h.label]), [[1, 50, '→ #1'], [2, 39, '← get_inbox #0']]);
    const later: any[] = await server.connection.sendRequest('textDocument/inlayHint', {
      textDocument: { uri }, range: { start: { line: 2, character: 0 }, end: { line: 5, character: 1 } },
    });
    assert.deepEqual(later.map((h) => h.label), ['← get_inbox #0']);
  });
});

describe('code lenses of a dataset over stdio, capped by agentTraces.codeLens.maxEvents', () => {
  const server = new ServerProcess({ codeLens: { maxEvents: 1 } });
  const dataset = 'file:///workspace/evals.trace.jsonl';
  const lines = [
    '{"metadata": {"name": "evals"}}',
    `[{"role": "assistant", "tool_calls": [${call('a')}]}, {"role": "tool", "tool_call_id": "a", "content": "x"}]`,
    `{"messages": [{"role": "user", "content": "b"}, {"role": "assistant", "tool_calls": [${call('b')}]}]}`,
  ];

  before(async () => {
    await server.initialize();
    await server.configured;
    server.open(dataset, 'agent-trace-jsonl', lines.join('\n'));
    await server.diagnosticsFor(dataset, 1);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('puts a lens on the events with calls of each trace line, up to the setting, and says where they stop', async () => {
    const lenses: any[] = await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: dataset } });
    const notice = 'code lenses stop on line 3: agentTraces.codeLens.maxEvents is 1';
    assert.deepEqual(lenses.map((l) => [l.range.start.line, l.range.start.character, l.command.title, l.command.arguments]), [
      [1, 1, notice, undefined],
      [1, 1, '1 output · open in preview', [dataset, lines[0].length + 2]],
      [2, 0, notice, undefined],
    ]);
  });
});
