import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const root = resolve(__dirname, '..', '..', '..');
const cli = join(root, 'dist', 'cli.js');

function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'test', ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

const rules = [
  'raise PolicyViolation("refund needs approval", call) if:',
  '    (call: ToolCall)',
  '    call is tool:issue_refund',
  '    call.function.arguments.amount > input.limit',
  '',
  'raise PolicyViolation("secret in a reply", m) if:',
  '    (m: Message)',
  '    "secret" in m.content',
  '',
  'raise "never" if:',
  '    (m: Message)',
  '    m.role == "nobody"',
  '',
].join('\n');

const refund = (amount: number) => JSON.stringify([
  { role: 'user', content: 'refund it' },
  { role: 'assistant', content: null, tool_calls: [{ id: '1', type: 'function', function: { name: 'issue_refund', arguments: { amount } } }] },
], null, 2);

function manifest(cases: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...extra, cases }, null, 2);
}

describe('agent-traces test', () => {
  let base: string;
  let dir: string;
  const scratch = (name: string) => mkdtempSync(join(base, `${name}-`));

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'agent-traces-test-'));
    dir = join(base, 'main');
    mkdirSync(join(dir, 'rules', 'fixtures'), { recursive: true });
    writeFileSync(join(dir, 'rules', 'refunds.gr'), rules);
    writeFileSync(join(dir, 'rules', 'fixtures', 'big.trace.json'), refund(500));
    writeFileSync(join(dir, 'rules', 'fixtures', 'small.trace.json'), refund(5));
    writeFileSync(join(dir, 'rules', 'fixtures', 'set.jsonl'), [
      '{"metadata": {"name": "set"}}',
      JSON.stringify({ messages: [{ role: 'user', content: 'nothing here' }] }),
      JSON.stringify({ messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'the secret is 42' }] }),
    ].join('\n') + '\n');
    writeFileSync(join(dir, 'rules', 'refunds.tests.json'), manifest([
      { name: 'a big refund is caught', trace: 'fixtures/big.trace.json', expect: [{ message: 'refund needs approval', at: 1 }] },
      { name: 'a small refund passes', trace: 'fixtures/small.trace.json', expect: [] },
      { name: 'a dataset line', trace: 'fixtures/set.jsonl', line: 3, expect: [{ message: '/secret/', rule: 6 }] },
      { name: 'an inline trace', trace: [{ role: 'user', content: 'a secret' }], expect: [{ message: 'secret in a reply', at: 0 }] },
      { name: 'a lower limit', trace: 'fixtures/small.trace.json', params: { limit: 1 }, expect: [{ message: 'refund needs approval' }] },
      { name: 'not yet', trace: 'fixtures/small.trace.json', expect: [], skip: 'waiting for the new limits' },
    ], { params: { limit: 100 } }));
  });

  after(() => rmSync(base, { recursive: true, force: true }));

  it('runs every manifest under the current folder by default, ends with the counts, and exits 0 when all pass', () => {
    const result = run(dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(result.lines, ['5 passed, 0 failed, 1 skipped']);
  });

  it('prints one line per failure at the trace\'s file:line:col, with what was expected and what was found, and exits 1', () => {
    const sub = scratch('failing');
    writeFileSync(join(sub, 'refunds.gr'), rules);
    writeFileSync(join(sub, 'big.trace.json'), refund(500));
    writeFileSync(join(sub, 'refunds.tests.json'), manifest([
      { name: 'wrong event', trace: 'big.trace.json', expect: [{ message: 'refund needs approval', at: 0 }] },
      { name: 'expects nothing', trace: 'big.trace.json', expect: [] },
      { name: 'expects another message', trace: 'big.trace.json', expect: [{ message: 'refund too big' }], allowOthers: true },
      { name: 'passes', trace: 'big.trace.json', expect: [{ message: '/approval$/' }] },
    ], { params: { limit: 100 } }));
    const result = run(sub);
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.lines, [
      'big.trace.json:2:3 FAIL refunds.tests.json › wrong event: missing "refund needs approval" at event 0: found at event 1, rule line 1 instead (big.trace.json:10:7)',
      'big.trace.json:10:7 FAIL refunds.tests.json › expects nothing: unexpected "refund needs approval" at event 1, rule line 1',
      'big.trace.json:1:1 FAIL refunds.tests.json › expects another message: missing "refund too big"',
      '1 passed, 3 failed',
    ]);
  });

  it('matches each expected entry with a distinct violation, as many as can be paired, and fails when one is left over', () => {
    const sub = scratch('pairs');
    writeFileSync(join(sub, 'secret.gr'), 'raise PolicyViolation("secret in a reply", m) if:\n    (m: Message)\n    "secret" in m.content\n');
    const trace = [{ role: 'user', content: 'secret one' }, { role: 'user', content: 'secret two' }];
    writeFileSync(join(sub, 'secret.tests.json'), manifest([
      { name: 'regex first, exact second', trace, expect: [{ message: '/secret/' }, { message: 'secret in a reply', at: 0 }] },
      { name: 'three expected, two found', trace, expect: [{ message: '/secret/' }, { message: '/secret/' }, { message: '/secret/' }] },
    ]));
    const result = run(sub);
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.lines, [
      `secret.tests.json:${startOfSecondTrace(sub)} FAIL secret.tests.json › three expected, two found: missing /secret/`,
      '1 passed, 1 failed',
    ]);
  });

  it('runs the manifest beside a rule file named on its own, and only the named manifests', () => {
    const named = run(dir, 'rules/refunds.gr');
    assert.equal(named.code, 0, named.stdout);
    assert.deepEqual(named.lines, ['5 passed, 0 failed, 1 skipped']);
    assert.equal(run(dir, 'nothing-here').code, 3, 'a name that matches nothing is an input not read');
  });

  it('writes JSON with --json: per case its name, status, expected and found violations with their addresses and bindings', () => {
    const result = run(dir, '--json');
    assert.equal(result.code, 0, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.passed, 5);
    assert.equal(report.failed, 0);
    assert.equal(report.skipped, 1);
    const [first] = report.manifests;
    assert.equal(first.file, join('rules', 'refunds.tests.json'));
    assert.equal(first.rules, join('rules', 'refunds.gr'));
    const big = first.cases[0];
    assert.equal(big.name, 'a big refund is caught');
    assert.equal(big.status, 'passed');
    assert.deepEqual(big.expected, [{ message: 'refund needs approval', at: 1 }]);
    assert.deepEqual(big.found, [{
      message: 'refund needs approval', rule: 1, at: 1, location: { file: join('rules', 'fixtures', 'big.trace.json'), line: 10, column: 7 },
      ranges: ['messages.1.tool_calls.0'], bindings: { call: 'messages.1.tool_calls.0' },
    }]);
    const line = first.cases[2];
    assert.equal(line.found[0].location.file, join('rules', 'fixtures', 'set.jsonl'));
    assert.equal(line.found[0].location.line, 3);
    const inline = first.cases[3];
    assert.equal(inline.found[0].location.file, join('rules', 'refunds.tests.json'), 'an inline trace\'s violations point into the manifest');
    assert.equal(first.cases[5].status, 'skipped');
  });

  it('writes JUnit XML with --junit, a suite per manifest and a case per case', () => {
    const sub = scratch('junit');
    writeFileSync(join(sub, 'refunds.gr'), rules);
    writeFileSync(join(sub, 'big.trace.json'), refund(500));
    writeFileSync(join(sub, 'refunds.tests.json'), manifest([
      { name: 'passes <ok> & "fine"', trace: 'big.trace.json', expect: [{ message: 'refund needs approval' }] },
      { name: 'fails', trace: 'big.trace.json', expect: [] },
      { name: 'skipped', trace: 'big.trace.json', expect: [], skip: true },
    ], { params: { limit: 100 } }));
    const out = join(sub, 'results.xml');
    const result = run(sub, '--junit', out);
    assert.equal(result.code, 1);
    const xml = readFileSync(out, 'utf8');
    assert.match(xml, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="agent-traces test" tests="3" failures="1" errors="0" skipped="1">/);
    assert.match(xml, /<testsuite name="refunds.tests.json" tests="3" failures="1" errors="0" skipped="1">/);
    assert.match(xml, /<testcase name="passes &lt;ok&gt; &amp; &quot;fine&quot;" classname="refunds.tests.json" time="\d+\.\d{3}"\/>/);
    assert.match(xml, /<testcase name="fails" [^>]*><failure message="big.trace.json:10:7 unexpected &quot;refund needs approval&quot; at event 1, rule line 1">/);
    assert.match(xml, /<testcase name="skipped" [^>]*><skipped\/><\/testcase>/);
  });

  it('prints per rule the cases it fired in with --coverage, and rule files no manifest tests as not tested', () => {
    writeFileSync(join(dir, 'rules', 'lonely.gr'), 'raise "alone" if:\n    (m: Message)\n');
    try {
      const result = run(dir, 'rules', '--coverage');
      assert.equal(result.code, 0, result.stdout);
      assert.deepEqual(result.lines, [
        'Coverage: the cases each rule fired in',
        '  rules/refunds.gr:1 refund needs approval: fired in 2 of 5 cases',
        '  rules/refunds.gr:6 secret in a reply: fired in 2 of 5 cases',
        '  rules/refunds.gr:10 never: fired in 0 of 5 cases (never fires)',
        '  rules/lonely.gr:1 alone: not tested (no manifest runs this rule file)',
        '5 passed, 0 failed, 1 skipped',
      ]);
      const json = JSON.parse(run(dir, 'rules', '--coverage', '--json').stdout);
      assert.deepEqual(json.coverage.find((c: { line: number; file: string }) => c.line === 10 && c.file.endsWith('refunds.gr')), {
        file: join('rules', 'refunds.gr'), line: 10, message: 'never', cases: 0, of: 5, tested: true,
      });
    } finally {
      rmSync(join(dir, 'rules', 'lonely.gr'));
    }
  });

  it('exits 2 for a manifest that does not parse or names a missing file, and still runs the others', () => {
    const sub = scratch('broken');
    writeFileSync(join(sub, 'refunds.gr'), rules);
    writeFileSync(join(sub, 'big.trace.json'), refund(500));
    writeFileSync(join(sub, 'a.tests.json'), '{ "rules": "refunds.gr", "cases": [ { "name": "x", "trace": "big.trace.json", "expect": [] }, ] ');
    writeFileSync(join(sub, 'b.tests.json'), manifest([{ name: 'gone', trace: 'missing.trace.json', expect: [] }], { rules: 'refunds.gr' }));
    writeFileSync(join(sub, 'c.tests.json'), manifest([{ name: 'ok', trace: 'big.trace.json', expect: [{ message: 'refund needs approval' }] }], { rules: 'refunds.gr', params: { limit: 1 } }));
    writeFileSync(join(sub, 'd.tests.json'), manifest([{ name: 'no rules', trace: 'big.trace.json', expect: [] }]));
    const result = run(sub);
    assert.equal(result.code, 2, result.stdout);
    assert.match(result.lines[0], /^a\.tests\.json: error: the manifest does not parse: .* \(line 1, column \d+\)$/);
    assert.equal(result.lines[1], 'b.tests.json:5:15 FAIL b.tests.json › gone: the trace missing.trace.json cannot be read: cannot read: ENOENT');
    assert.equal(result.lines[2], 'd.tests.json: error: the rule file d.gr cannot be read: cannot read: ENOENT');
    assert.equal(result.lines.at(-1), '1 passed, 1 failed');
  });

  it('exits 3 when a rule fails on a case\'s trace and nothing failed otherwise, 4 beside a failing case', () => {
    const sub = scratch('raises');
    writeFileSync(join(sub, 'param.gr'), 'raise "over" if:\n    (m: Message)\n    len(m.content) > input.limit\n');
    writeFileSync(join(sub, 'param.tests.json'), manifest([{ name: 'no parameter', trace: [{ role: 'user', content: 'hello' }], expect: [] }]));
    const alone = run(sub);
    assert.equal(alone.code, 3, alone.stdout);
    assert.equal(alone.lines[0], "param.tests.json:5:16 FAIL param.tests.json › no parameter: param.gr:3: Evaluation failed at line 3 (rule 1): MissingPolicyParameter: Missing Policy Parameter: 'limit' (policy relies on `input.limit`), which is required for evaluation of a rule.");
    writeFileSync(join(sub, 'param.tests.json'), manifest([
      { name: 'no parameter', trace: [{ role: 'user', content: 'hello' }], expect: [] },
      { name: 'fails', trace: [{ role: 'user', content: 'hello' }], params: { limit: 1 }, expect: [] },
    ]));
    assert.equal(run(sub).code, 4);
  });

  it('exits 2 on bad usage, and prints its help with the exit-code table', () => {
    assert.equal(run(dir, '--budget', 'x').code, 2);
    assert.equal(run(dir, '--frobnicate').code, 2);
    const help = run(dir, '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: agent-traces test/);
    assert.match(help.stdout, /3 {2}some inputs could not be read or evaluated/);
  });

  it('runs the examples\' tests, which CI runs', () => {
    const result = run(root, 'examples');
    assert.equal(result.code, 0, result.stdout);
    assert.match(result.lines.at(-1)!, /^\d+ passed, 0 failed$/);
  });
});

/** Where the second case's inline trace starts in its manifest, as line:column. */
function startOfSecondTrace(sub: string): string {
  const text = readFileSync(join(sub, 'secret.tests.json'), 'utf8');
  const second = text.indexOf('"three expected');
  const start = text.indexOf('"trace"', second);
  const open = text.indexOf('[', start);
  const before = text.slice(0, open);
  const line = before.split('\n').length;
  return `${line}:${open - before.lastIndexOf('\n')}`;
}
