import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';

const traceUri = 'file:///workspace/inbox.trace.json';
const traceText = [
  '[',
  '  {"role": "user", "content": "What is in my inbox?"},',
  '  {"role": "assistant", "content": null, "tool_calls": [',
  '    {"id": "call_1", "type": "function", "function": {"name": "get_inbox", "arguments": "{\\"n\\": 10}"}}',
  '  ]},',
  '  {"role": "tool", "tool_call_id": "call_1", "content": "1. Subject: Hello"},',
  '  {"role": "tool", "tool_call_id": "call_9", "content": "orphan"}',
  ']',
].join('\n');

const ruleUri = 'file:///workspace/rules.gr';
const ruleText = [
  'from invariant.detectors import secrets',
  '',
  'raise "leak" if:',
  '    (call: ToolCall)',
  '    (out: Outputt)',
  '    secrets(call.function.arguments)',
].join('\n');

/** Line and character of the first occurrence of `needle` on `line` (plus `extra` characters). */
function at(text: string, line: number, needle: string, extra = 0) {
  const character = text.split('\n')[line].indexOf(needle);
  assert.ok(character >= 0, `'${needle}' not on line ${line}`);
  return { line, character: character + extra };
}

describe('language server over stdio', () => {
  const server = new ServerProcess();

  before(async () => {
    const result = await server.initialize();
    assert.equal(result.serverInfo.name, 'agent-traces-language-server');
    assert.equal(result.capabilities.textDocumentSync.change, 2, 'incremental document sync');
    server.open(traceUri, 'agent-trace', traceText);
    server.open(ruleUri, 'guardrail', ruleText);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('publishes trace diagnostics on open, on the narrowest range', async () => {
    const diagnostics = await server.diagnosticsFor(traceUri, 1);
    const errors = diagnostics.filter((d) => d.severity === 1);
    assert.deepEqual(errors.map((d) => d.code), ['trace/unknown-call-id']);
    const start = at(traceText, 6, '"call_9"');
    assert.deepEqual(errors[0].range, { start, end: { line: 6, character: start.character + '"call_9"'.length } });
    assert.equal(errors[0].source, 'agent-traces');
  });

  it('re-validates after an incremental change', async () => {
    const start = at(traceText, 6, 'call_9');
    await server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: traceUri, version: 2 },
      contentChanges: [{ range: { start, end: { line: 6, character: start.character + 6 } }, text: 'call_1' }],
    });
    const diagnostics = await server.diagnosticsFor(traceUri, 2);
    assert.deepEqual(diagnostics.filter((d) => d.severity === 1), []);
  });

  it('goes from a tool_call_id to its call, selecting the call id', async () => {
    const links: any[] = await server.connection.sendRequest('textDocument/definition', {
      textDocument: { uri: traceUri },
      position: at(traceText, 5, '"call_1"', 3),
    });
    assert.equal(links.length, 1);
    assert.equal(links[0].targetUri, traceUri);
    const idStart = at(traceText, 3, '"call_1"');
    assert.equal(links[0].targetRange.start.line, 3);
    assert.deepEqual(links[0].targetSelectionRange.start.line, idStart.line);
    assert.ok(Math.abs(links[0].targetSelectionRange.start.character - idStart.character) <= 1);
  });

  it('lists a call\'s outputs as its references', async () => {
    const references: any[] = await server.connection.sendRequest('textDocument/references', {
      textDocument: { uri: traceUri },
      position: at(traceText, 3, '"call_1"', 2),
      context: { includeDeclaration: false },
    });
    assert.deepEqual(references.map((r) => r.range.start.line).sort(), [5, 6]);
  });

  it('answers hover on a field with its docs', async () => {
    const hover: any = await server.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: traceUri },
      position: at(traceText, 5, '"tool_call_id"', 2),
    });
    assert.equal(hover.contents.kind, 'markdown');
    assert.match(hover.contents.value, /tool_call_id/);
    assert.equal(hover.range.start.line, 5);
  });

  it('outlines one symbol per event, calls nested', async () => {
    const symbols: any[] = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: traceUri } });
    assert.equal(symbols.length, 4);
    assert.deepEqual(symbols.map((s) => s.range.start.line), [1, 2, 5, 6]);
    assert.equal(symbols[1].children.length, 1);
    assert.match(symbols[1].children[0].name, /get_inbox/);
  });

  it('completes a tool_call_id with the ids of earlier calls', async () => {
    // Line 6 holds "call_1" since the incremental change above; the columns are those of "call_9".
    const position = at(traceText, 6, '"call_9"', 1);
    const items: any[] = await server.connection.sendRequest('textDocument/completion', { textDocument: { uri: traceUri }, position });
    const list = Array.isArray(items) ? items : (items as any).items;
    const labels = list.map((item: any) => item.label);
    assert.ok(labels.includes('call_1'), `labels: ${labels.join(', ')}`);
  });

  it('publishes rule diagnostics worded like the official tool', async () => {
    const diagnostics = await server.diagnosticsFor(ruleUri, 1);
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === 1).map((d) => [d.code, d.message, d.range.start.line, d.range.start.character]),
      [['gr/unknown-type', 'Failed to resolve type Outputt', 4, 5]],
    );
  });

  it('goes from a rule variable to its declaration and renames it everywhere', async () => {
    const use = at(ruleText, 5, 'call.', 1);
    const links: any[] = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri: ruleUri }, position: use });
    assert.deepEqual(links.map((l) => [l.targetSelectionRange.start.line, l.targetSelectionRange.start.character]), [[3, 5]]);
    const edit: any = await server.connection.sendRequest('textDocument/rename', { textDocument: { uri: ruleUri }, position: use, newName: 'tool_call' });
    const edits = edit.changes[ruleUri].map((e: any) => [e.range.start.line, e.range.start.character, e.newText]);
    assert.deepEqual(edits.sort(), [[3, 5, 'tool_call'], [5, 12, 'tool_call']]);
  });

  it('answers hover on a rule type with its fields', async () => {
    const hover: any = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: ruleUri }, position: at(ruleText, 3, 'ToolCall', 2) });
    assert.match(hover.contents.value, /ToolCall/);
    assert.match(hover.contents.value, /function/);
  });

  it('computes the preview graph for an open trace', async () => {
    const graph: any = await server.connection.sendRequest('agentTraces/graph', { uri: traceUri });
    assert.equal(graph.error, undefined);
    assert.deepEqual(graph.nodes.map((n: any) => n.kind), ['user', 'assistant', 'call', 'output', 'output']);
    assert.equal(graph.version, 2);
  });

  it('reports its process id', async () => {
    const info: any = await server.connection.sendRequest('agentTraces/serverInfo');
    assert.equal(typeof info.pid, 'number');
  });

  it('survives requests for unknown documents and malformed positions', async () => {
    const hover = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///nope.gr' }, position: { line: 0, character: 0 } });
    assert.equal(hover, null);
    const far = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: ruleUri }, position: { line: 999, character: 999 } });
    assert.ok(far === null || typeof far === 'object');
  });
});

describe('files the editor does not sync', () => {
  it('previews a trace file read from disk when no document is open for it', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { pathToFileURL } = await import('node:url');
    const dir = mkdtempSync(join(tmpdir(), 'agent-traces-disk-'));
    const path = join(dir, 'large.trace.json');
    writeFileSync(path, traceText);
    const server = new ServerProcess();
    try {
      await server.initialize([pathToFileURL(dir).toString()]);
      const graph: any = await server.connection.sendRequest('agentTraces/graph', { uri: pathToFileURL(path).toString() });
      assert.equal(graph.error, undefined);
      assert.equal(graph.version, -1, 'read from disk, not from an editor');
      assert.deepEqual(graph.nodes.map((n: any) => n.kind), ['user', 'assistant', 'call', 'output', 'output']);
      assert.deepEqual(graph.nodes[2].range.start, { line: 3, character: 4 });
      const missing: any = await server.connection.sendRequest('agentTraces/graph', { uri: pathToFileURL(join(dir, 'gone.trace.json')).toString() });
      assert.match(missing.error, /^Could not read this file: /);
    } finally {
      await server.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
