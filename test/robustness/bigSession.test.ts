import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { AttackedServer } from './harness';
import { repeatSession } from '../../bench/generateSession';
import { prompt, reply, result, session, text, toolUse } from '../unit/jsonl/claudeCodeSessions';

const corpusSession = resolve(__dirname, '../../..', '../shared/corpus/formats/claude-code/4d5611e5-241a-462a-8d15-5122611a9569.jsonl');

/** A real session (the corpus's, or one written here without it) repeated to 50 MB with fresh ids per copy. */
function bigSession(): string {
  const seed = existsSync(corpusSession) ? readFileSync(corpusSession, 'utf8') : session(
    prompt('u1', 'run the tests'),
    reply('a1', 'msg_01AAAAAAAAAA', text('Running them.'), { parent: 'u1' }),
    reply('a2', 'msg_01AAAAAAAAAA', toolUse('toolu_01AAAAAAAAAA', 'Bash', { command: 'npm test' }), { parent: 'a1' }),
    result('r1', 'toolu_01AAAAAAAAAA', 'FAIL src/app.test.ts\n'.repeat(200), { parent: 'a2' }),
  );
  return repeatSession(seed, 50 * 1024 ** 2);
}

describe('a 50 MB Claude Code session, opened as "jsonl"', () => {
  it('is checked within the memory bound, and the outline, hover, definition and the preview answer in time', async (t) => {
    const server = await AttackedServer.start();
    try {
      const uri = 'file:///big-session.jsonl';
      const text = bigSession();
      const lines = text.split('\n');
      server.open(uri, 'jsonl', text);
      // Publishing diagnostics is no answer to a request: it may take longer than the answer bound, but must come.
      const diagnostics = await server.diagnostics(uri, 1, 120_000);
      assert.equal(diagnostics.filter((d) => d.severity === 1).length, 0, 'fresh ids keep every link: no errors');
      const symbols = await server.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.ok(symbols.length >= 17, `outline entries: ${symbols.length}`);
      // A result near the end: its tool_use_id leads to its call, in the same copy.
      let resultLine = lines.length - 1;
      while (resultLine > 0 && !lines[resultLine].includes('"tool_use_id":"toolu_')) resultLine--;
      const character = lines[resultLine].indexOf('"tool_use_id":"toolu_') + '"tool_use_id":"'.length + 2;
      const position = { line: resultLine, character };
      const hover = await server.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position });
      assert.match(hover.contents.value, /toolu_/);
      const targets = await server.request<unknown[]>('textDocument/definition', { textDocument: { uri }, position });
      assert.equal(targets.length, 1);
      const graph = await server.request<{ nodes: unknown[] }>('agentTraces/graph', { uri });
      assert.ok(graph.nodes.length > 0);
      const memory = server.assertHealthy();
      t.diagnostic(`peak RSS ${Math.round(memory.peakBytes / 2 ** 20)} MB for a ${Math.round(text.length / 2 ** 20)} MB session of ${lines.length} lines`);
    } finally {
      await server.stop();
    }
  });
});
