import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';
import { agentLog, assistant, log, sample, tool, user } from '../unit/inspect/logs';

/** An Inspect log of two agentic samples (test/unit/inspect/logs.ts), opened by an editor that knows only `json`. */
const text = agentLog();
const uri = 'file:///workspace/logs/2025-07-05T14-00-00_file-agent_E1.json';
const corpusLog = resolve(__dirname, '../../..', '../shared/corpus/formats/inspect/log_tool_call_error.json');
const positionIn = (source: string, needle: string, nth = 0) => {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = source.indexOf(needle, at + 1);
  assert.notEqual(at, -1, needle);
  const before = source.slice(0, at);
  return { line: before.split('\n').length - 1, character: at - before.lastIndexOf('\n') - 1 };
};

describe('an Inspect log opened as "json": diagnostics, navigation, hover, outline and preview through the bundled server', () => {
  const server = new ServerProcess();

  before(async () => {
    await server.initialize();
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('reports the tool message whose call is missing on its tool_call_id, and the parse_error', async () => {
    server.open(uri, 'json', text);
    const diagnostics = await server.diagnosticsFor(uri, 1);
    const errors = diagnostics.filter((d) => d.severity === 1).map((d) => [d.code, d.range.start]);
    assert.deepEqual(errors, [
      ['inspect/parse-error', positionIn(text, '"Expecting value')],
      ['inspect/unknown-call-id', positionIn(text, '"call_gone"')],
    ]);
  });

  it('a big log read in slices shows an early sample\'s problems before the last sample is checked', async () => {
    // 60 samples of about 30 KB (a tool output each): the log is read and checked a sample per step. The first and
    // the last samples each hold a tool message whose call is missing.
    const output = 'a line of the listing\n'.repeat(1400);
    const samples = Array.from({ length: 60 }, (_, i) => {
      const id = i === 0 ? 'call_gone_first' : i === 59 ? 'call_gone_last' : `call_${i}`;
      const calls = i === 0 || i === 59 ? [] : [{ id, fn: 'bash', args: { cmd: 'ls -R' } }];
      return sample({ id: i + 1, messages: [user(`Task ${i + 1}`), assistant(`m_${i}`, 'Listing.', calls), tool(`t_${i}`, id, 'bash', output)] });
    });
    const big = log(samples);
    assert.ok(big.length > 1_500_000, `${big.length} characters`);
    const bigUri = 'file:///workspace/logs/2025-07-05T15-00-00_listing_E2.json';
    const unknown = (diagnostics: { code?: unknown; range: { start: unknown } }[]) => diagnostics.filter((d) => d.code === 'inspect/unknown-call-id').map((d) => d.range.start);
    server.open(bigUri, 'json', big);
    const first = await server.diagnosticsFor(bigUri, 1, 60_000);
    assert.deepEqual(unknown(first), [positionIn(big, '"call_gone_first"')], 'the first publication holds the first sample\'s problem, not yet the last\'s');
    let latest = first;
    for (let i = 0; i < 200 && unknown(latest).length < 2; i++) latest = await server.nextDiagnostics(bigUri, 60_000);
    assert.deepEqual(unknown(latest), [positionIn(big, '"call_gone_first"'), positionIn(big, '"call_gone_last"')]);
  });

  it('goes from a tool_call_id to its call, hovers with the call and its output, outlines the samples and draws the one chosen', async () => {
    const answer = positionIn(text, '"call_ls"', 1);
    const position = { line: answer.line, character: answer.character + 3 };
    const definition: any = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position });
    const targets = Array.isArray(definition) ? definition : [definition];
    assert.deepEqual(targets.map((target: any) => (target.targetSelectionRange ?? target.range).start), [positionIn(text, '"call_ls"')]);
    const hover: any = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position });
    assert.match(hover.contents.value, /`bash\(cmd="ls -la"\)`[\s\S]*README\.md/);
    const symbols: any = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(symbols.map((symbol: any) => symbol.name), ['Eval: file_agent · openai/gpt-4o', 'Sample 1 (epoch 1): List the files.', 'Sample two (epoch 2): Read the config.']);
    assert.equal(symbols[1].detail, 'includes: C · 2 calls, 1 failed · 12.5 s · 340 tokens (300 in, 40 out)');
    const graph: any = await server.connection.sendRequest('agentTraces/graph', { uri, traceIndex: 1 });
    assert.equal(graph.format, 'inspect');
    assert.equal(graph.traceIndex, 1);
    assert.deepEqual(graph.traces.map((choice: any) => choice.label), ['sample 1 (epoch 1) · includes: C', 'sample two (epoch 2) · includes: I']);
    assert.deepEqual(graph.nodes.map((node: any) => node.kind), ['user', 'assistant', 'call', 'output', 'output', 'assistant', 'call']);
    const byCursor: any = await server.connection.sendRequest('agentTraces/graph', { uri, cursorLine: answer.line });
    assert.equal(byCursor.traceIndex, 0);
  });

  it('tells a client which JSON documents are Inspect logs from their beginning alone', async () => {
    assert.equal(await server.connection.sendRequest('agentTraces/recognizeDocument', { uri: 'file:///workspace/run.json', languageId: 'json', text: text.slice(0, 4000) }), 'agent-trace-inspect');
    assert.equal(await server.connection.sendRequest('agentTraces/recognizeDocument', { uri: 'file:///workspace/package.json', languageId: 'json', text: '{"name": "x", "version": "1.0.0", "scripts": {"eval": "inspect eval"}}' }), null);
  });

  it('reads the corpus log whose tool messages lost their calls', async (t) => {
    if (!existsSync(corpusLog)) {
      if (process.env.CI) assert.fail(`corpus not found at ${corpusLog}`);
      t.skip(`corpus not found at ${corpusLog}`);
      return;
    }
    const source = readFileSync(corpusLog, 'utf8');
    const corpusUri = 'file:///workspace/logs/log_tool_call_error.json';
    server.open(corpusUri, 'json', source);
    const diagnostics = await server.diagnosticsFor(corpusUri, 1);
    const unknown = diagnostics.filter((d) => d.code === 'inspect/unknown-call-id');
    assert.equal(unknown.length, 11);
    assert.deepEqual(unknown[0].range.start, positionIn(source, '"bash_1"'));
  });
});
