import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { performance } from 'node:perf_hooks';
import { AttackedServer } from './harness';
import { browserAgentLog as bigLog } from '../unit/inspect/logs';

const small = 'file:///small.trace.json';
const smallText = '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant", "content": "hello"}\n]\n';
const smallHover = { textDocument: { uri: small }, position: { line: 1, character: 5 } };

describe('a 100 MB Inspect log with images inline, opened as "json"', () => {
  it('is read and checked in slices while another document\'s hovers are answered, within the memory bound; then the outline, hover, definition and the preview answer in time', async (t) => {
    const server = await AttackedServer.start();
    try {
      // A small trace open beside the log: hovers on it, sent one after the other while the log is read and checked,
      // must be answered meanwhile (read at once, the log held the server's thread until its diagnostics were out).
      server.open(small, 'agent-trace', smallText);
      await server.diagnostics(small);
      const uri = 'file:///logs/2025-07-05T14-00-00_browser-agent.json';
      const { text, samples } = bigLog(100 * 1024 ** 2);
      assert.ok(text.length >= 100 * 1024 ** 2, `${text.length} characters`);
      server.open(uri, 'json', text);
      let checked = false;
      const checking = server.diagnostics(uri, 1, 120_000).finally(() => (checked = true));
      // The first hover waits for the log's text to arrive; the ones after it come while the server reads and checks it.
      const opened = performance.now();
      assert.match((await server.request<{ contents: { value: string } }>('textDocument/hover', smallHover, 60_000)).contents.value, /user/);
      const arrived = performance.now();
      let answeredMeanwhile = 0;
      let slowestMs = 0;
      const giveUpAt = performance.now() + 120_000;
      while (!checked) {
        assert.ok(performance.now() < giveUpAt, `no diagnostics after 120 s; the server logged: ${server.logged().slice(-5).join(' | ')}`);
        const sent = performance.now();
        const answer = await server.request<{ contents: { value: string } }>('textDocument/hover', smallHover, 60_000);
        assert.match(answer.contents.value, /user/);
        if (checked) break;
        answeredMeanwhile++;
        slowestMs = Math.max(slowestMs, performance.now() - sent);
      }
      t.diagnostic(`${answeredMeanwhile} hovers on a small file answered while the log was read and checked, the slowest in ${Math.round(slowestMs)} ms`);
      assert.ok(answeredMeanwhile >= 3, `only ${answeredMeanwhile} hovers on a small file were answered while the log was read and checked`);
      const diagnostics = await checking;
      t.diagnostic(`the log's text arrived after ${Math.round(arrived - opened)} ms, its diagnostics ${Math.round(performance.now() - arrived)} ms later`);
      assert.equal(diagnostics.filter((d) => d.severity === 1).length, 0, 'every call is answered in its sample: no errors');
      const symbols = await server.request<{ name: string; children?: unknown[] }[]>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.equal(symbols.length, samples + 1, 'the eval, then every sample');
      assert.ok(symbols[samples].children!.length >= 2);
      // A tool_call_id in the last sample: its hover and its definition lead to its call, in that sample.
      const lines = text.split('\n');
      let line = lines.length - 1;
      while (line > 0 && !lines[line].includes(`"tool_call_id": "call_${samples - 1}_2"`)) line--;
      const position = { line, character: lines[line].indexOf('"call_') + 3 };
      const hover = await server.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position });
      assert.match(hover.contents.value, /browser\(action="click"/);
      const targets = await server.request<{ targetSelectionRange: { start: { line: number } } }[]>('textDocument/definition', { textDocument: { uri }, position });
      assert.equal(targets.length, 1);
      const callLine = targets[0].targetSelectionRange.start.line;
      assert.ok(lines[callLine].includes(`"id": "call_${samples - 1}_2"`), lines[callLine]);
      const graph = await server.request<{ nodes: unknown[]; traces: unknown[]; traceIndex: number }>('agentTraces/graph', { uri, cursorLine: line });
      assert.equal(graph.traceIndex, samples - 1);
      assert.equal(graph.traces.length, samples);
      assert.equal(graph.nodes.length, 12);
      const memory = server.assertHealthy();
      // The text is held once by the editor's document; the samples are lazy views of it and the images are never
      // decoded into strings of their own, so the peak is a small multiple of the text (the message that brought it
      // and its decoding included).
      assert.ok(memory.peakBytes < 6 * text.length, `peak RSS ${Math.round(memory.peakBytes / 2 ** 20)} MB for a ${Math.round(text.length / 2 ** 20)} MB log`);
      t.diagnostic(`peak RSS ${Math.round(memory.peakBytes / 2 ** 20)} MB for a ${Math.round(text.length / 2 ** 20)} MB log of ${samples} samples`);
    } finally {
      await server.stop();
    }
  });
});
