/**
 * `agent-traces convert`, `check` and `eval` on files of OpenTelemetry spans: any-agent's runs of the corpus
 * (`../shared/corpus/formats/otel-any-agent/`, read in place) and the file exporter's JSON Lines, generated as
 * test/unit/otel/samples.ts says (imitating OPENAI_trace.json's run), also in a folder.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { corpusOrSkip as corpusPresent, runCli } from './cliRun';
import { conventionsRun, exporterFile, runWithoutIds } from '../unit/otel/samples';

const corpus = resolve(__dirname, '../../..', '../shared/corpus/formats/otel-any-agent');

const run = runCli;
const corpusOrSkip = (t: TestContext) => corpusPresent(t, corpus);

/** Rules that fire on what the runs hold: calls and their arguments, results, a call then its result, the prompt. */
const rules = [
  // LlamaIndex's model asks for write_file with no arguments (its tool span records the text): no rule reads them.
  'raise "writes a file" if:\n    (call: ToolCall)\n    call is tool:write_file\n',
  'raise "a time result" if:\n    (out: ToolOutput)\n    "America/New_York" in out.content\n',
  'raise "a call then its output" if:\n    (call: ToolCall) -> (out: ToolOutput)\n    out is tool:get_current_time\n    call.function.name == "get_current_time"\n',
  'raise "the user asks for the year" if:\n    (m: Message)\n    m.role == "user"\n    "year" in m.content\n',
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

describe('agent-traces convert, check and eval on OpenTelemetry spans', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-spans-'));
    writeFileSync(join(dir, 'rules.gr'), rules);
    writeFileSync(join(dir, 'with-ids.jsonl'), exporterFile(conventionsRun()));
    writeFileSync(join(dir, 'without-ids.jsonl'), exporterFile(runWithoutIds()));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('converts every corpus run and the exporter\'s files to traces that check passes, on which eval finds what it finds on the spans', (t) => {
    if (!corpusOrSkip(t)) return;
    const files = [...readdirSync(corpus).filter((name) => name.endsWith('.json')).map((name) => join(corpus, name)), join(dir, 'with-ids.jsonl'), join(dir, 'without-ids.jsonl')];
    assert.equal(files.length, 7);
    let violations = 0;
    for (const file of files) {
      const checkedSpans = run(dir, 'check', file);
      assert.equal(checkedSpans.code, 0, `${file}: ${checkedSpans.stdout}`);
      const out = join(dir, `${file.replace(/^.*\//, '').replace(/\.jsonl?$/, '')}.trace.json`);
      const converted = run(dir, 'convert', file, '--out', out);
      assert.equal(converted.code, 0, `${file}: ${converted.stderr}`);
      const checked = run(dir, 'check', out, '--json');
      const problems = (JSON.parse(checked.stdout) as { problems: { severity: string }[] }[])[0].problems;
      assert.deepEqual(problems.filter((p) => p.severity === 'error'), [], out);
      assert.equal(checked.code, 0, out);
      const onSpans = evaluated(dir, file);
      const onConversion = evaluated(dir, out);
      // The same violations at the same official addresses: the spans are evaluated as their conversion.
      assert.deepEqual(onSpans, onConversion, file);
      assert.equal(onSpans[0].error, null, file);
      violations += onSpans[0].errors.length;
    }
    assert.ok(violations >= 25, `violations found: ${violations}`);
  });

  it('eval and check take a folder holding the exporter\'s files, and print violations at the spans\' own lines', () => {
    const folder = join(dir, 'exports');
    mkdirSync(folder);
    writeFileSync(join(folder, 'batch-1.jsonl'), exporterFile(conventionsRun()));
    // A .json of spans is found by its first characters (one OTLP object, pretty-printed); other .json files are not read.
    writeFileSync(join(folder, 'export.json'), JSON.stringify(JSON.parse(exporterFile(runWithoutIds()).split('\n')[0]), null, 2));
    writeFileSync(join(folder, 'package.json'), '{"name": "exports", "spans": []}\n');
    const checked = run(dir, 'check', 'exports');
    assert.equal(checked.code, 0, checked.stdout);
    assert.match(checked.stdout, /^2 files checked: 0 errors/m);
    const ran = run(dir, 'eval', 'rules.gr', 'exports');
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^exports\/batch-1\.jsonl:1:\d+ warning guardrails writes a file$/m);
    assert.match(ran.stdout, /^2 traces in 2 files evaluated: \d+ violations, 0 failed$/m);
  });
});
