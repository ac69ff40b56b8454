/**
 * A rule file open beside a file of each agent format, through the bundled server over stdio, on the corpus's own
 * files read in place (`../shared/corpus/formats/`): the violation lands on the file's own characters (inside a
 * Codex call's or a Responses call's arguments string, on an Inspect log's tool message, in any-agent's tool span
 * output).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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
      'raise "capital asked" if:\n    (call: ToolCall)\n    call is tool:get_capital\n    "PotatoLand" in call.function.arguments.country\n',
      'raise "output too long" if:\n    (out: ToolOutput)\n    "was too long to be displayed" in out.content\n',
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

  it('an OpenAI Responses request (api-cassettes/openai_responses_model_simple_response_with_tool_call.yaml): on the word inside the call\'s arguments string', async (t) => {
    if (!present(t)) return;
    const yaml = createRequire(__filename)('js-yaml') as { load(text: string): unknown };
    const cassette = yaml.load(readFileSync(path.join(formats, 'api-cassettes/openai_responses_model_simple_response_with_tool_call.yaml'), 'utf8')) as {
      interactions: { request: { parsed_body?: { input?: unknown[] } } }[];
    };
    // The second request as a user saves it: the question, the model's call and the tool's output, sent back.
    const body = cassette.interactions.map((interaction) => interaction.request.parsed_body).find((each) => JSON.stringify(each?.input ?? []).includes('function_call_output'));
    assert.ok(body, 'a recorded request that answers a call');
    const text = `${JSON.stringify(body, null, 2)}\n`;
    const uri = 'file:///w/recorded/capital-request.json';
    server.open(uri, 'json', text);
    const found = await violations(uri);
    // The first PotatoLand is the question's; the second is inside the arguments string.
    const inArguments = text.indexOf('PotatoLand', text.indexOf('"arguments"'));
    assert.deepEqual(found.map((d) => [d.message, d.range]), [['capital asked', { start: positionOf(text, inArguments), end: positionOf(text, inArguments + 'PotatoLand'.length) }]]);
  });

  it('an Inspect AI log (inspect/log_tool_call_error.json): on the words in the tool message that hit the output limit', async (t) => {
    if (!present(t)) return;
    const text = readFileSync(path.join(formats, 'inspect/log_tool_call_error.json'), 'utf8');
    const uri = 'file:///w/logs/log_tool_call_error.json';
    server.open(uri, 'json', text);
    const found = await violations(uri);
    const words = text.indexOf('was too long to be displayed');
    assert.deepEqual(found.map((d) => [d.message, d.range]), [['output too long', { start: positionOf(text, words), end: positionOf(text, words + 'was too long to be displayed'.length) }]]);
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
