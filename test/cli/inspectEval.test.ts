import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { corpusOrSkip as corpusPresent, runCli } from './cliRun';
import { agentLog } from '../unit/inspect/logs';
import { inspectArchiveEntries, zipArchive } from '../unit/inspect/evalArchives';

const corpus = resolve(__dirname, '../../..', '../shared/corpus/formats/inspect');
const example = resolve(__dirname, '../../..', 'examples/logs/2025-07-05T14-00-00_refund-agent.json');
const corpusOrSkip = (t: TestContext) => corpusPresent(t, corpus);

const rules = [
  'raise "a bash call" if:\n    (call: ToolCall)\n    call is tool:bash\n',
  'raise "a tool failed" if:\n    (out: ToolOutput)\n    out.metadata.error is not None\n',
  'raise "refund above the order total" if:\n    (order: ToolOutput) -> (call: ToolCall)\n    order is tool:get_order\n    call is tool:issue_refund\n    call.function.arguments.amount > json_loads(order.content).total\n',
].join('\n');

interface CheckedProblem { line: number; column: number; code: string; message: string; where?: string }

function checked(cwd: string, file: string): CheckedProblem[] {
  const ran = runCli(cwd, 'check', file, '--json');
  assert.ok(ran.code === 0 || ran.code === 1, `${file}: exit ${ran.code}: ${ran.stdout}${ran.stderr}`);
  return (JSON.parse(ran.stdout) as { problems: CheckedProblem[] }[])[0].problems;
}

function evaluated(cwd: string, file: string): unknown {
  const ran = runCli(cwd, 'eval', 'rules.gr', file, '--json');
  assert.ok(ran.code === 0 || ran.code === 1, `${file}: exit ${ran.code}: ${ran.stderr}`);
  return (JSON.parse(ran.stdout) as { errors: { message: string; ranges: string[] }[]; error: string | null }[])
    .map(({ errors, error }) => ({ errors: errors.map(({ message, ranges }) => ({ message, ranges })), error }));
}

/** The log as Inspect's eval recorder would have written it: the same log, as an archive beside it. */
function writeBoth(dir: string, name: string, text: string): { json: string; eval: string } {
  writeFileSync(join(dir, `${name}.json`), text);
  writeFileSync(join(dir, `${name}.eval`), zipArchive(inspectArchiveEntries(text, { compact: true })));
  return { json: `${name}.json`, eval: `${name}.eval` };
}

describe('agent-traces check, eval and convert on Inspect .eval archives', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-inspect-eval-'));
    writeFileSync(join(dir, 'rules.gr'), rules);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('an archive converts, checks and evaluates as the same log saved as .json; its problems name the sample and path', () => {
    // A generated agentic log (in the shape of the corpus's log_read_sample.json, with tool calls) and the example.
    for (const [name, text] of [['agent', agentLog()], ['refund', readFileSync(example, 'utf8')]] as const) {
      const files = writeBoth(dir, name, text);
      const onJson = checked(dir, files.json);
      const onEval = checked(dir, files.eval);
      assert.ok(onJson.length > 0, name);
      assert.deepEqual(onEval.map(({ where: _where, ...problem }) => problem), onJson, name);
      for (const problem of onEval) assert.match(problem.where ?? '', /^sample \S+ \(epoch \d+\)(, \S+)?$/, JSON.stringify(problem));
      assert.deepEqual(evaluated(dir, files.eval), evaluated(dir, files.json), name);
      assert.equal(runCli(dir, 'convert', files.json, '--out', `${name}.from-json.jsonl`).code, 0);
      const converted = runCli(dir, 'convert', files.eval, '--out', `${name}.from-eval.jsonl`);
      assert.equal(converted.code, 0, converted.stderr);
      assert.equal(readFileSync(join(dir, `${name}.from-eval.jsonl`), 'utf8'), readFileSync(join(dir, `${name}.from-json.jsonl`), 'utf8'), name);
    }
    const lines = runCli(dir, 'check', 'agent.eval');
    assert.equal(lines.code, 1);
    assert.match(lines.stdout, /^agent\.eval:\d+:\d+ error inspect\/unknown-call-id tool_call_id "call_gone" .* \(sample two \(epoch 2\), messages\[3\]\.tool_call_id\)$/m);
  });

  it('the corpus logs as archives give what the logs give', (t) => {
    if (!corpusOrSkip(t)) return;
    for (const name of ['log_formats', 'log_read_sample', 'log_tool_call_error']) {
      const files = writeBoth(dir, name, readFileSync(join(corpus, `${name}.json`), 'utf8'));
      const strip = (problems: CheckedProblem[]) => problems.map(({ code, message }) => ({ code, message }));
      assert.deepEqual(strip(checked(dir, files.eval)), strip(checked(dir, files.json)), name);
      runCli(dir, 'convert', files.json, '--out', `${name}.from-json.jsonl`);
      assert.equal(runCli(dir, 'convert', files.eval, '--out', `${name}.from-eval.jsonl`).code, 0);
      assert.equal(readFileSync(join(dir, `${name}.from-eval.jsonl`), 'utf8'), readFileSync(join(dir, `${name}.from-json.jsonl`), 'utf8'), name);
    }
  });

  it('a folder search finds archives by their zip signature; a damaged or foreign one named is an input not read', () => {
    const folder = join(dir, 'logs');
    mkdirSync(folder);
    writeFileSync(join(folder, 'run.eval'), zipArchive(inspectArchiveEntries(agentLog(), { compact: true })));
    writeFileSync(join(folder, 'notes.eval'), 'an .eval file of some other tool, in text');
    const ran = runCli(dir, 'check', 'logs');
    assert.match(ran.stdout, /^1 file checked: 2 errors/m);
    assert.match(ran.stdout, /^logs\/run\.eval:\d+:\d+ error/m);
    const archive = zipArchive(inspectArchiveEntries(agentLog(), { compact: true }));
    writeFileSync(join(dir, 'cut.eval'), archive.subarray(0, archive.length - 40));
    const cut = runCli(dir, 'check', 'cut.eval');
    assert.equal(cut.code, 3);
    assert.match(cut.stdout, /^cut\.eval: error: not read: not a zip archive \(no end of central directory record\): the file is cut or not an archive$/m);
    const convertCut = runCli(dir, 'convert', 'cut.eval');
    assert.equal(convertCut.code, 3);
    assert.match(convertCut.stderr, /cut\.eval: not read: not a zip archive/);
  });
});
