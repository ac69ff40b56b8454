/**
 * A rule file open beside a file of each agent format, through the bundled server over stdio, on the corpus's own
 * files read in place (`../shared/corpus/formats/`): the violation lands on the file's own characters (inside a
 * Codex call's arguments string, in any-agent's tool span output).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { corpusOrSkip, formatsCorpus, positionOf } from './corpusFiles';
import { ServerProcess } from './lspClient';

const formats = formatsCorpus;
const present = (t: TestContext) => corpusOrSkip(t, formats);


describe('rules on the corpus\'s files of each format over the protocol', () => {
  const server = new ServerProcess();
  before(async () => {
    await server.initialize();
    server.open('file:///w/rules/formats.gr', 'guardrail', [
      'raise "lists files" if:\n    (call: ToolCall)\n    call is tool:shell\n    "ls -la" in call.function.arguments.command\n',
      'raise "time asked" if:\n    (out: ToolOutput)\n    "America/New_York" in out.content\n',
    ].join('\n'));
  });
  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  async function violations(uri: string): Promise<{ range: { start: { line: number; character: number } }; message: string }[]> {
    let diagnostics = await server.diagnosticsFor(uri, 1, 30_000);
    for (let i = 0; i < 20 && !diagnostics.some((d) => d.source === 'guardrails'); i++) diagnostics = await server.nextDiagnostics(uri);
    return diagnostics.filter((d) => d.source === 'guardrails') as never;
  }

  it('a Codex rollout (codex/codex_golden.jsonl): on the command inside the call\'s arguments string', async (t) => {
    if (!present(t)) return;
    const uri = 'file:///home/u/.codex/sessions/2025/01/04/rollout-golden.jsonl';
    const text = readFileSync(path.join(formats, 'codex/codex_golden.jsonl'), 'utf8');
    server.open(uri, 'jsonl', text);
    const found = await violations(uri);
    assert.deepEqual(found.map((d) => [d.message, d.range.start]), [['lists files', positionOf(text, text.indexOf('ls -la'))]]);
  });

  it('any-agent\'s spans (otel-any-agent/OPENAI_trace.json): on the words in the tool span\'s own output', async (t) => {
    if (!present(t)) return;
    const uri = 'file:///w/runs/OPENAI_trace.json';
    const text = readFileSync(path.join(formats, 'otel-any-agent/OPENAI_trace.json'), 'utf8');
    server.open(uri, 'json', text);
    const found = await violations(uri);
    const output = text.indexOf('America/New_York', text.indexOf('"gen_ai.output"', text.indexOf('"gen_ai.tool.args"')));
    assert.ok(found.some((d) => d.message === 'time asked' && JSON.stringify(d.range.start) === JSON.stringify(positionOf(text, output))), JSON.stringify(found));
  });
});
