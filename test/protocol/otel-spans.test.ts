/**
 * OpenTelemetry spans through the bundled server over stdio, opened by a generic client with the language ids other
 * editors send (`jsonl`, `json`): diagnostics, definition from a tool span to the call it answers (by id, and
 * inferred where the framework wrote none), the span tree in the outline, the preview graph. The JSON Lines file is
 * generated as the collector's file exporter writes it, imitating `../shared/corpus/formats/otel-any-agent/
 * OPENAI_trace.json`'s run (test/unit/otel/samples.ts); the any-agent file is that corpus file, read in place.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { corpusOrSkip, formatsCorpus, positionOf } from './corpusFiles';
import { ServerProcess } from './lspClient';
import { conventionsRun, exporterFile } from '../unit/otel/samples';

const corpusFile = path.join(formatsCorpus, 'otel-any-agent/OPENAI_trace.json');


describe('OpenTelemetry spans over the protocol', () => {
  const server = new ServerProcess();

  before(async () => {
    await server.initialize();
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('the file exporter\'s lines opened as "jsonl": no fault, the tool span\'s id leads to the call, the span tree, the preview', async () => {
    const uri = 'file:///workspace/exports/spans.jsonl';
    const text = exporterFile(conventionsRun());
    server.open(uri, 'jsonl', text);
    assert.deepEqual(await server.diagnosticsFor(uri, 1), []);
    const toolId = text.indexOf('"call_1"', text.indexOf('execute_tool get_current_time')) + 2;
    const found = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: positionOf(text, toolId) }) as { targetSelectionRange: { start: { line: number; character: number } } }[];
    assert.deepEqual(found.map((link) => link.targetSelectionRange.start), [positionOf(text, text.indexOf('\\" call_1\\"'))]);
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as { name: string; detail?: string; children?: { name: string; children?: { name: string; detail?: string }[] }[] }[];
    assert.equal(symbols[0].name, 'Trace 5b8efff7…');
    assert.deepEqual(symbols[0].children!.map((child) => child.name), ['invoke_agent weather-agent']);
    assert.deepEqual(symbols[0].children![0].children!.map((child) => `${child.name} | ${child.detail}`), [
      'chat gpt-4o | 240.0 ms · 285 tokens (269 in, 16 out) · 1 call', 'execute_tool get_current_time | 3.0 ms',
      'chat gpt-4o | 314.0 ms · 373 tokens (359 in, 14 out) · 1 call', 'execute_tool write_file | 2.0 ms', 'chat gpt-4o | 662.0 ms · 438 tokens (392 in, 46 out)',
    ]);
    const graph = await server.connection.sendRequest('agentTraces/graph', { uri }) as { format: string; nodes: { kind: string; depth?: number }[]; edges: { kind: string }[]; totals: { calls: number; tokens: number } };
    assert.equal(graph.format, 'otel-spans');
    assert.deepEqual(graph.nodes.map((node) => `${node.kind}${node.depth ? ` ${node.depth}` : ''}`), ['system', 'assistant 1', 'call 1', 'output 1', 'assistant 1', 'call 1', 'output 1', 'assistant 1']);
    assert.deepEqual(graph.edges.filter((edge) => edge.kind !== 'sequence').map((edge) => edge.kind), ['output', 'output']);
    assert.deepEqual([graph.totals.calls, graph.totals.tokens], [2, 1096]);
  });

  it('any-agent\'s JSON opened as "json": the tool span\'s name leads to the call it answers, and the hover says the link was inferred', async (t) => {
    if (!corpusOrSkip(t, corpusFile)) return;
    const uri = 'file:///workspace/runs/OPENAI_trace.json';
    const text = readFileSync(corpusFile, 'utf8');
    server.open(uri, 'json', text);
    assert.deepEqual(await server.diagnosticsFor(uri, 1), []);
    const toolName = text.indexOf('"get_current_time"', text.indexOf('"gen_ai.tool.name"')) + 3;
    const found = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: positionOf(text, toolName) }) as { targetSelectionRange: { start: { line: number; character: number } } }[];
    assert.deepEqual(found.map((link) => link.targetSelectionRange.start), [positionOf(text, text.indexOf('\\"get_current_time\\"'))]);
    const hover = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: positionOf(text, toolName) }) as { contents: { value: string } };
    assert.match(hover.contents.value, /the link is inferred from span nesting and order/);
  });
});
