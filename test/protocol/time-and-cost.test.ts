/**
 * Time and cost per step across the formats that record them, through the bundled server over stdio, on the corpus's
 * files read in place (`../shared/corpus/formats/`): a Codex rollout's timestamps, an Inspect log's model usage and
 * total time, any-agent's span durations, tokens and dollars. With `agentTraces.inlayHints.durations` on (it is off by
 * default), a call gets its duration as an inlay hint; the hover on a call id says how long it took; the outline's top
 * entry and the preview's header carry the totals.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { corpusOrSkip, formatsCorpus, positionOf } from './corpusFiles';
import { ServerProcess } from './lspClient';

const formats = formatsCorpus;
const present = (t: TestContext) => corpusOrSkip(t, formats);


interface Hint { position: { line: number; character: number }; label: string | { value: string }[] }
interface Symbol { name: string; detail?: string; children?: Symbol[] }
const labelOf = (hint: Hint) => (typeof hint.label === 'string' ? hint.label : hint.label.map((part) => part.value).join(''));

for (const durations of [true, false]) {
  describe(`time and cost on the corpus's files over the protocol, inlay hints of durations ${durations ? 'on' : 'off (the default)'}`, () => {
    const server = new ServerProcess(durations ? { inlayHints: { durations: true } } : {});
    before(async () => {
      await server.initialize();
    });
    after(async () => {
      assert.equal(await server.shutdown(), 0);
    });

    async function opened(name: string, uri: string, languageId: string): Promise<string> {
      const text = readFileSync(path.join(formats, name), 'utf8');
      server.open(uri, languageId, text);
      await server.diagnosticsFor(uri, 1);
      return text;
    }

    async function durationHints(uri: string, text: string): Promise<{ line: number; label: string }[]> {
      const end = positionOf(text, text.length);
      const hints = await server.connection.sendRequest('textDocument/inlayHint', { textDocument: { uri }, range: { start: { line: 0, character: 0 }, end } }) as Hint[];
      return hints.map((hint) => ({ line: hint.position.line, label: labelOf(hint) })).filter((hint) => hint.label.startsWith('⏱'));
    }

    it('a Codex rollout (codex/codex_golden.jsonl): the call\'s second, the session\'s totals', async (t) => {
      if (!present(t)) return;
      const uri = 'file:///home/u/.codex/sessions/2025/01/04/rollout-2025-01-04T09-00-00-golden.jsonl';
      const text = await opened('codex/codex_golden.jsonl', uri, 'jsonl');
      const callLine = positionOf(text, text.indexOf('"call_golden_001"')).line;
      assert.deepEqual(await durationHints(uri, text), durations ? [{ line: callLine, label: '⏱ 1.00 s' }] : []);
      const hover = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: positionOf(text, text.indexOf('"call_golden_001"') + 3) }) as { contents: { value: string } };
      assert.match(hover.contents.value, /1\.00 s/);
      const [top] = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as Symbol[];
      assert.match(`${top.name} ${top.detail ?? ''}`, /tokens/);
      const graph = await server.connection.sendRequest('agentTraces/graph', { uri }) as { totals: { calls: number; tokens?: number; durationMs?: number; costUsd?: number } };
      assert.equal(graph.totals.calls, 1);
      assert.ok((graph.totals.tokens ?? 0) > 0, JSON.stringify(graph.totals));
      assert.ok(!('costUsd' in graph.totals), 'a rollout records tokens but no dollars: no cost, not $0');
    });

    it('an Inspect log (inspect/log_read_sample.json): the sample\'s time and tokens in the outline and the preview', async (t) => {
      if (!present(t)) return;
      const uri = 'file:///w/logs/log_read_sample.json';
      await opened('inspect/log_read_sample.json', uri, 'json');
      const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as Symbol[];
      const samples = symbols.slice(1);
      assert.ok(samples.length >= 1);
      assert.ok(samples.every((sample) => /tokens/.test(sample.detail ?? '') && /\d s\b|\d ms\b|\d min\b/.test(sample.detail ?? '')), samples.map((s) => s.detail).join(' | '));
      const graph = await server.connection.sendRequest('agentTraces/graph', { uri, traceIndex: 0 }) as { totals: { tokens?: number; durationMs?: number } };
      assert.ok((graph.totals.tokens ?? 0) > 0 && (graph.totals.durationMs ?? 0) > 0, JSON.stringify(graph.totals));
    });

    it('any-agent\'s spans (otel-any-agent/OPENAI_trace.json): each tool call\'s duration, the trace\'s totals with its cost', async (t) => {
      if (!present(t)) return;
      const uri = 'file:///w/runs/OPENAI_trace.json';
      const text = await opened('otel-any-agent/OPENAI_trace.json', uri, 'json');
      const hints = await durationHints(uri, text);
      if (durations) assert.ok(hints.length >= 1 && hints.every((hint) => /^⏱ [\d.]+ (ms|s)$/.test(hint.label)), JSON.stringify(hints));
      else assert.deepEqual(hints, []);
      const [top] = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as Symbol[];
      assert.match(`${top.name} ${top.detail ?? ''}`, /tokens/);
      const graph = await server.connection.sendRequest('agentTraces/graph', { uri }) as { totals: { calls: number; tokens?: number; durationMs?: number; costUsd?: number } };
      assert.equal(graph.totals.calls, 2);
      assert.ok((graph.totals.tokens ?? 0) > 0 && (graph.totals.durationMs ?? 0) > 0, JSON.stringify(graph.totals));
      // The three model spans' gen_ai.usage.input_cost and output_cost, summed.
      assert.equal(graph.totals.costUsd?.toFixed(7), '0.0001248');
    });
  });
}
