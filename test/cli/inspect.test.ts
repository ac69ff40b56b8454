import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { corpusOrSkip as corpusPresent, runCli } from './cliRun';
import { agentLog } from '../unit/inspect/logs';

const corpus = resolve(__dirname, '../../..', '../shared/corpus/formats/inspect');
const example = resolve(__dirname, '../../..', 'examples/logs/2025-07-05T14-00-00_refund-agent.json');

const run = runCli;
const corpusOrSkip = (t: TestContext) => corpusPresent(t, corpus);

/** Rules that fire on what Inspect logs hold: calls and their arguments, outputs, failed tools, messages. */
const rules = [
  'raise "a bash call" if:\n    (call: ToolCall)\n    call is tool:bash\n',
  'raise "an order looked up" if:\n    (out: ToolOutput)\n    "total" in out.content\n',
  'raise "a tool failed" if:\n    (out: ToolOutput)\n    out.metadata.error is not None\n',
  'raise "a yes" if:\n    (m: Message)\n    m.role == "assistant"\n    "Yes" in m.content\n',
  'raise "refund above the order total" if:\n    (order: ToolOutput) -> (call: ToolCall)\n    order is tool:get_order\n    call is tool:issue_refund\n    call.function.arguments.amount > json_loads(order.content).total\n',
].join('\n');

interface EvalEntry {
  errors: { message: string; ranges: string[] }[];
  error: string | null;
}

function evaluated(cwd: string, file: string): EvalEntry[] {
  const ran = run(cwd, 'eval', 'rules.gr', file, '--json');
  assert.ok(ran.code === 0 || ran.code === 1, `${file}: exit ${ran.code}: ${ran.stderr}`);
  return (JSON.parse(ran.stdout) as EvalEntry[]).map(({ errors, error }) => ({ errors: errors.map(({ message, ranges }) => ({ message, ranges })), error }));
}

function errorsOf(cwd: string, file: string): string[] {
  const checked = run(cwd, 'check', file, '--json');
  const problems = (JSON.parse(checked.stdout) as { problems: { severity: string; code: string }[] }[])[0].problems;
  return problems.filter((p) => p.severity === 'error').map((p) => p.code);
}

describe('agent-traces convert, check and eval on Inspect AI logs', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-inspect-'));
    writeFileSync(join(dir, 'rules.gr'), rules);
    writeFileSync(join(dir, 'agent.json'), agentLog());
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a log of several samples becomes JSON Lines, one trace per sample, that check passes; eval finds on it what it finds on the log', () => {
    const ran = run(dir, 'convert', 'agent.json');
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, 'agent.trace.jsonl: 2 traces, 12 events\n');
    assert.equal(readFileSync(join(dir, 'agent.trace.jsonl'), 'utf8').split('\n').filter(Boolean).length, 2);
    // The log's own faults carry over (a tool message naming a call that is not in its sample), nothing else.
    assert.deepEqual(errorsOf(dir, 'agent.trace.jsonl'), ['trace/unknown-call-id']);
    const onLog = evaluated(dir, 'agent.json');
    assert.ok(onLog.reduce((sum, entry) => sum + entry.errors.length, 0) >= 4, JSON.stringify(onLog));
    assert.deepEqual(onLog, evaluated(dir, 'agent.trace.jsonl'));
  });

  it('the corpus logs and the example convert to traces check passes (the orphans of log_tool_call_error.json aside), with the same violations', (t) => {
    if (!corpusOrSkip(t)) return;
    const logs = [...['log_formats.json', 'log_read_sample.json', 'log_tool_call_error.json'].map((name) => join(corpus, name)), example];
    for (const file of logs) {
      const out = join(dir, `${file.split('/').pop()!.replace(/\.json$/, '')}.out.jsonl`);
      const converted = run(dir, 'convert', file, '--out', out);
      assert.equal(converted.code, 0, `${file}: ${converted.stderr}`);
      const expected = file.endsWith('log_tool_call_error.json') ? Array(11).fill('trace/unknown-call-id') : file === example ? ['trace/unknown-call-id'] : [];
      assert.deepEqual(errorsOf(dir, out), expected, out);
      assert.deepEqual(evaluated(dir, file), evaluated(dir, out), file);
    }
    const failed = evaluated(dir, join(corpus, 'log_tool_call_error.json'));
    assert.equal(failed[0].errors.filter((error) => error.message === 'a tool failed').length, 11);
  });

  it('check and eval take a folder of logs, and leave its other JSON files alone', () => {
    const sub = mkdtempSync(join(dir, 'folder-'));
    writeFileSync(join(sub, 'rules.gr'), rules);
    writeFileSync(join(sub, '2025-07-05T14-00-00_refund-agent.json'), readFileSync(example, 'utf8'));
    writeFileSync(join(sub, 'package.json'), '{"name": "evals", "version": "1.0.0"}\n');
    writeFileSync(join(sub, 'settings.json'), '{"eval": {"task": "x"}}\n');
    const ran = run(sub, 'eval', 'rules.gr', '.');
    assert.equal(ran.code, 1, ran.stderr);
    const lines = ran.stdout.trim().split('\n').filter((line) => !line.trimStart().startsWith('bound:'));
    assert.ok(lines.some((line) => /^2025-07-05T14-00-00_refund-agent\.json:\d+:\d+ warning guardrails refund above the order total/.test(line)), ran.stdout);
    assert.equal(lines[lines.length - 1], `2 traces in 1 file evaluated: ${lines.length - 1} violations, 0 failed`);
    const checked = run(sub, 'check', '.');
    assert.equal(checked.code, 1, checked.stdout);
    assert.match(checked.stdout, /2 files checked: 1 errors, 1 warnings, 1 infos/);
    assert.deepEqual(readdirSync(sub).sort(), ['2025-07-05T14-00-00_refund-agent.json', 'package.json', 'rules.gr', 'settings.json']);
  });
});
