import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';

const trace = (i: number) => `[{"role": "user", "content": "q${i}"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c${i}", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c${i}", "content": "ok"}]`;
const lines = Array.from({ length: 6 }, (_, i) => trace(i));
const uri = 'file:///settings/data.jsonl';

describe('JSON Lines settings read through workspace/configuration, and edits re-read line by line', () => {
  const server = new ServerProcess({ jsonl: { maxOutlineEntries: 4, cachedLineModels: 2 } });

  before(async () => {
    await server.initialize();
    await server.configured;
    server.open(uri, 'agent-trace-jsonl', lines.join('\n'));
    assert.deepEqual(await server.diagnosticsFor(uri, 1), []);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('the outline stops at agentTraces.jsonl.maxOutlineEntries and says how many traces it left out', async () => {
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as any[];
    assert.deepEqual(symbols.map((symbol) => symbol.name), ['Trace 1', 'Trace 2', 'Trace 3', 'Trace 4', '2 more traces are not listed: the outline lists the first 4']);
    assert.equal(symbols[4].detail, 'setting agentTraces.jsonl.maxOutlineEntries');
    assert.deepEqual(symbols[4].range, { start: { line: 4, character: 0 }, end: { line: 5, character: lines[5].length } });
  });

  it('after edits that split, break and join lines, diagnostics, definitions and the outline follow the new text', async () => {
    // Line 1 split in two before its third event: two broken lines.
    const at = lines[1].indexOf(', {"role": "tool"') + 2;
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: at }, end: { line: 1, character: at } }, text: '\n' }],
    });
    const broken = await server.diagnosticsFor(uri, 2);
    assert.deepEqual(broken.map((d) => [d.code, d.range.start.line]), [['jsonl/syntax', 1], ['jsonl/syntax', 2]]);
    // Joined again, and a line inserted before it: every later line moves down one.
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 3 },
      contentChanges: [
        { range: { start: { line: 1, character: at }, end: { line: 2, character: 0 } }, text: '' },
        { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '{"metadata": {"name": "d"}}\n' },
      ],
    });
    assert.deepEqual(await server.diagnosticsFor(uri, 3), []);
    const callId = lines[4].lastIndexOf('"c4"') + 1;
    const links = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: { line: 5, character: callId } }) as any[];
    assert.deepEqual(links.map((link) => link.targetSelectionRange), [
      { start: { line: 5, character: lines[4].indexOf('"c4"') }, end: { line: 5, character: lines[4].indexOf('"c4"') + 4 } },
    ]);
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as any[];
    assert.deepEqual(symbols.map((symbol) => symbol.name).slice(0, 2), ['Dataset metadata', 'Trace 1']);
    assert.equal(symbols.length, 5);
  });
});
