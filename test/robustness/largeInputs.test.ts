import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { AttackedServer, temporaryFolder } from './harness';

const uriOf = (path: string) => pathToFileURL(path).toString();
const rule = 'raise "x" if:\n    (c: ToolCall)\n    c is tool:send_email\n';

describe('a workspace holding a 20 MB .jsonl of 6.9 million short lines', () => {
  const workspace = temporaryFolder('lines');

  before(() => {
    writeFileSync(join(workspace.path, 'many.jsonl'), '[]\n'.repeat(6_900_000));
    writeFileSync(join(workspace.path, 'calls.trace.json'),
      '[{"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "send_email", "arguments": {}}}]}]');
  });
  after(() => workspace.remove());

  for (const [title, settings, leftOut] of [
    ['with the default limits, the index leaves the file out', {}, true],
    ['with a 64 MB per-file limit, the index reads it up to the line limit', { workspace: { maxFileSizeMB: 64 } }, false],
  ] as const) {
    it(title, async () => {
      const server = await AttackedServer.start({ settings, folders: [uriOf(workspace.path)] });
      try {
        await server.log(/^Tool index: done/, 20_000);
        const skipped = server.logged().some((line) => /many\.jsonl: refused: the file is 20 MB, over the 10 MB limit/.test(line));
        assert.equal(skipped, leftOut);
        server.open('file:///rules.gr', 'guardrail', rule);
        await server.diagnostics('file:///rules.gr');
        const hover = await server.request('textDocument/hover', { textDocument: { uri: 'file:///rules.gr' }, position: { line: 2, character: 16 } });
        assert.match(hover.contents.value, /send_email/);
        server.assertHealthy();
      } finally {
        await server.stop();
      }
    });
  }
});

describe('big documents opened in the editor', () => {
  let server: AttackedServer;
  before(async () => {
    server = await AttackedServer.start();
  });
  after(async () => {
    await server?.stop();
  });

  it('a 9 MB dataset of 3 million lines: the first 250,000 are read, with a notice; symbols and hover answer in time', async () => {
    const uri = 'file:///huge.jsonl';
    server.open(uri, 'agent-trace-jsonl', '[]\n'.repeat(3_000_000));
    const diagnostics = await server.diagnostics(uri, 1, 10_000);
    assert.deepEqual(diagnostics.map((d) => `${d.code} ${d.message}`), [
      'jsonl/too-many-lines The last 2750001 lines were not read: at most 250000 lines of a JSON Lines file are read (setting agentTraces.jsonl.maxLines).',
    ]);
    const symbols = await server.request('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(symbols.length, 10_001);
    assert.equal(symbols[10_000].name, '240000 more traces are not listed: the outline lists the first 10000');
    await server.request('textDocument/hover', { textDocument: { uri }, position: { line: 100, character: 0 } });
    await server.request('textDocument/foldingRange', { textDocument: { uri } });
    server.assertHealthy();
  });

  it('keys named like Object.prototype members hover as text', async () => {
    const uri = 'file:///proto.trace.json';
    const text = '[{"role": "constructor", "__proto__": 1, "toString": "x", "content": "hi"}]';
    server.open(uri, 'agent-trace', text);
    await server.diagnostics(uri);
    for (const name of ['constructor', '__proto__', 'toString']) {
      const hover = await server.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: text.indexOf(name) + 1 } });
      if (hover === null) continue; // a key the format does not define has no docs
      assert.equal(typeof hover.contents.value, 'string', name);
      assert.doesNotMatch(hover.contents.value, /\[object|function/, name);
    }
    const agentguard = 'file:///proto.jsonl';
    server.open(agentguard, 'agent-trace-jsonl', '{"call": {"call_id": "a", "tool_name": "t", "constructor": 1}, "result": {"call_id": "a", "status": "constructor"}}');
    await server.diagnostics(agentguard);
    for (const character of [45, 95]) {
      const hover = await server.request('textDocument/hover', { textDocument: { uri: agentguard }, position: { line: 0, character } });
      if (hover) assert.equal(typeof hover.contents.value, 'string');
    }
    server.assertHealthy();
  });

  it('an event with more calls than the default preview.maxNodes draws the calls that fit, and says how many there are', async () => {
    const uri = 'file:///wide.trace.json';
    const calls = Array.from({ length: 100_000 }, (_, i) => `{"id": "c${i}", "type": "function", "function": {"name": "t", "arguments": "{}"}}`);
    server.open(uri, 'agent-trace', `[{"role": "assistant", "tool_calls": [${calls.join(',\n')}]}]`);
    await server.diagnostics(uri, 1, 10_000);
    const graph = await server.request('agentTraces/graph', { uri });
    assert.deepEqual([graph.nodes.length, graph.limits.maxNodes, graph.limits.truncatedFrom], [50_000, 50_000, 100_001]);
    assert.equal(graph.nodes[49_999].title, 't()');
    void server.server.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    server.assertHealthy();
  });
});

describe('big JSON Lines documents, one server each', () => {
  it('a dataset of 100,000 short traces and an agentguard log of 100,000 entries: outline, hover and preview in time', async (t) => {
    const server = await AttackedServer.start();
    try {
      const dataset = 'file:///traces.jsonl';
      const line = (i: number) => `[{"role": "user", "content": "q${i}"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c${i}", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}]`;
      server.open(dataset, 'agent-trace-jsonl', Array.from({ length: 100_000 }, (_, i) => line(i)).join('\n'));
      await server.diagnostics(dataset, 1, 20_000);
      const symbols = await server.request('textDocument/documentSymbol', { textDocument: { uri: dataset } });
      assert.equal(symbols.length, 10_001);
      const graph = await server.request('agentTraces/graph', { uri: dataset, traceIndex: 75_000 });
      assert.deepEqual([graph.traceIndex, graph.traces.length, graph.nodes.length], [75_000, 502, 3]);
      await server.request('textDocument/hover', { textDocument: { uri: dataset }, position: { line: 99_999, character: 80 } });
      server.assertHealthy();
      // One at a time: each holds several hundred megabytes of per-line models (see the README's Limits).
      void server.server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: dataset } });
      const log = 'file:///session.jsonl';
      const entry = (i: number) => `{"call": {"call_id": "c${i}", "tool_name": "t", "args": [], "kwargs": {}, "timestamp": "2024-01-01T00:00:00Z"}, "result": {"call_id": "c${i}", "status": "success", "duration_ms": 1}}`;
      server.open(log, 'agent-trace-jsonl', Array.from({ length: 100_000 }, (_, i) => entry(i)).join('\n'));
      await server.diagnostics(log, 1, 30_000);
      const entries = await server.request('textDocument/documentSymbol', { textDocument: { uri: log } });
      assert.equal(entries.length, 10_001);
      assert.match(entries[10_000].name, /^90000 more calls are not listed/);
      const timeline = await server.request('agentTraces/graph', { uri: log });
      assert.deepEqual([timeline.nodes.length, timeline.limits.truncatedFrom], [20_000, 100_000]);
      const memory = server.assertHealthy();
      t.diagnostic(`peak RSS ${Math.round(memory.peakBytes / 2 ** 20)} MB`);
    } finally {
      await server.stop();
    }
  });
});

describe('a 36 MB trace of 500,000 tool calls', () => {
  it('is checked within the memory bound, and hover, definition and the preview answer in time', async (t) => {
    const server = await AttackedServer.start();
    try {
      const uri = 'file:///calls.trace.json';
      const calls = Array.from({ length: 500_000 }, (_, i) => `{"type":"function","id":"c${i}","function":{"name":"t","arguments":"{}"}}`);
      const text = `[${calls.join(',\n')}]`;
      calls.length = 0;
      server.open(uri, 'agent-trace', text);
      // Publishing diagnostics is no answer to a request: it gets longer than the 2 s bound, but must come.
      const diagnostics = await server.diagnostics(uri, 1, 60_000);
      assert.equal(diagnostics.length, 1001, 'every call is unanswered: capped at maxProblems, with the notice');
      const position = { line: 250_000, character: 27 }; // inside "c250000"
      const hover = await server.request('textDocument/hover', { textDocument: { uri }, position });
      assert.match(hover.contents.value, /c250000/);
      await server.request('textDocument/definition', { textDocument: { uri }, position });
      // The preview at the default node cap: the first 50,000 calls, and how many there are for the banner.
      const graph = await server.request('agentTraces/graph', { uri });
      assert.deepEqual([graph.nodes.length, graph.limits.truncatedFrom], [50_000, 500_000]);
      const memory = server.assertHealthy();
      t.diagnostic(`peak RSS ${Math.round(memory.peakBytes / 2 ** 20)} MB for a ${Math.round(text.length / 2 ** 20)} MB trace`);
    } finally {
      await server.stop();
    }
  });
});
