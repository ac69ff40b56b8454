import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'eval', '--compare', ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

const oldRules = 'raise PolicyViolation("secret", m) if:\n    (m: Message)\n    "secret" in m.content\n';
// A rule added above moves the secret rule down; it must not count as a flip of its violations.
const newRules = 'raise PolicyViolation("shouting", m) if:\n    (m: Message)\n    "!!" in m.content\n\n'
  + 'raise PolicyViolation("secret", m) if:\n    (m: Message)\n    "secret" in m.content\n    m.role == "user"\n';

describe('agent-traces eval --compare', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-compare-'));
    writeFileSync(join(dir, 'rules.gr'), oldRules);
    writeFileSync(join(dir, 'a.trace.json'), '[\n  {"role": "user", "content": "the secret"},\n  {"role": "assistant", "content": "a secret!!"}\n]\n');
    writeFileSync(join(dir, 'same.trace.json'), '[\n  {"role": "user", "content": "a secret"}\n]\n');
    writeFileSync(join(dir, 'set.jsonl'), '{"messages": [{"role": "user", "content": "hi"}]}\n{"messages": [{"role": "assistant", "content": "secret"}]}\n');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir });
    git('init', '-q', '.');
    git('add', '-A');
    git('commit', '-qm', 'rules');
    writeFileSync(join(dir, 'rules.gr'), newRules);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('lists only the traces whose violations differ, each violation added or removed at its place, and exits 1', () => {
    const result = run(dir, 'git:HEAD:rules.gr', 'rules.gr', '.');
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.lines, [
      'a.trace.json:3:39 removed secret (git:HEAD:rules.gr:1)',
      'a.trace.json:3:45 added shouting (rules.gr:1)',
      'set.jsonl:2:49 removed secret (git:HEAD:rules.gr:1)',
      '2 of 4 traces in 3 files flip: 1 violation added, 2 removed',
    ]);
  });

  it('writes the flips as JSON: per trace (and dataset line) the added and removed violations with their places and bindings', () => {
    const result = run(dir, 'git:HEAD:rules.gr', 'rules.gr', 'set.jsonl', 'same.trace.json', '--json');
    assert.equal(result.code, 1, result.stderr);
    const report = JSON.parse(result.stdout);
    assert.equal(report.traces, 3);
    assert.deepEqual(report.flips, [{
      file: 'set.jsonl', line: 2, added: [],
      removed: [{ message: 'secret', rule: 1, range: { start: { line: 2, column: 49 }, end: { line: 2, column: 55 } }, ranges: ['messages.0', 'messages.0.content:0-6'], bindings: { m: 'messages.0' } }],
    }]);
  });

  it('exits 0 when nothing flips, also when the rule file only moved its rules', () => {
    writeFileSync(join(dir, 'moved.gr'), `\n\n# the same rule, lower\n${oldRules}`);
    const result = run(dir, 'git:HEAD:rules.gr', 'moved.gr', 'same.trace.json', 'a.trace.json');
    assert.equal(result.code, 0, result.stdout);
    assert.deepEqual(result.lines, ['0 of 2 traces in 2 files flip: 0 violations added, 0 removed']);
  });

  it('exits 2 when a version cannot be read from git or does not load, 3 when a trace cannot be evaluated', () => {
    const missing = run(dir, 'git:HEAD:nope.gr', 'rules.gr', '.');
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^agent-traces eval: git:HEAD:nope\.gr: fatal: path 'nope\.gr' does not exist in 'HEAD'; nothing was compared/);
    assert.equal(run(dir, 'git:no-such-revision:rules.gr', 'rules.gr', '.').code, 2);
    assert.equal(run(dir, 'git:--output=x:rules.gr', 'rules.gr', '.').code, 2, 'an option is never passed to git as a revision');
    writeFileSync(join(dir, 'broken.gr'), 'raise "x" if:\n    (m: Message\n');
    assert.equal(run(dir, 'rules.gr', 'broken.gr', '.').code, 2);
    writeFileSync(join(dir, 'param.gr'), 'raise "x" if:\n    (m: Message)\n    len(m.content) > input.limit\n');
    const failing = run(dir, 'moved.gr', 'param.gr', 'same.trace.json');
    assert.equal(failing.code, 3, failing.stdout);
    assert.match(failing.lines[0], /^same\.trace\.json: error: the new rules could not be evaluated: .*MissingPolicyParameter/);
    assert.equal(run(dir, 'rules.gr', 'rules.gr').code, 2, 'a usage error: no trace named');
  });
});
