import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function check(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

describe('agent-traces check', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-cli-'));
    mkdirSync(join(dir, 'traces', 'nested'), { recursive: true });
    writeFileSync(join(dir, 'traces', 'clean.trace.json'), '[\n  {"role": "user", "content": "hi"}\n]\n');
    writeFileSync(
      join(dir, 'traces', 'nested', 'orphan.trace.json'),
      '[\n  {"role": "tool", "tool_call_id": "nope", "content": "x"}\n]\n',
    );
    writeFileSync(join(dir, 'rules.gr'), 'raise "x" if:\n    (m: Mesage)\n');
    writeFileSync(join(dir, 'notes.txt'), 'not checked');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints path:line:col severity code message and a summary, exiting 1 on errors', () => {
    const result = check(dir, 'check', 'traces', 'rules.gr');
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.lines, [
      `${join('traces', 'nested', 'orphan.trace.json')}:2:36 error trace/unknown-call-id ${result.lines[0].split(' trace/unknown-call-id ')[1]}`,
      "rules.gr:2:6 error gr/unknown-type Failed to resolve type Mesage. Did you mean 'Message'?",
      '3 files checked: 2 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    assert.match(result.lines[0], /nope/);
  });

  it('exits 0 when nothing is wrong', () => {
    const result = check(dir, 'check', join('traces', 'clean.trace.json'));
    assert.equal(result.code, 0);
    assert.deepEqual(result.lines, ['1 file checked: 0 errors, 0 warnings, 0 infos, 0 hints']);
  });

  it('expands globs', () => {
    const result = check(dir, 'check', 'traces/**/*.trace.json');
    assert.equal(result.code, 1);
    assert.equal(result.lines.at(-1), '2 files checked: 1 errors, 0 warnings, 0 infos, 0 hints');
  });

  it('says when a pattern matches nothing and exits 3 (an input not read) when there is nothing to check', () => {
    const result = check(dir, 'check', 'missing/*.gr');
    assert.equal(result.code, 3);
    assert.match(result.stderr, /nothing to check matches missing\/\*\.gr/);
  });

  it('prints the exit-code table in --help', () => {
    const help = check(dir, 'check', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^ {2}3 {2}some inputs could not be read or evaluated/m);
    assert.match(help.stdout, /^ {2}4 {2}findings, and some inputs could not be read or evaluated$/m);
  });

  it('rejects bad usage with exit 2', () => {
    assert.equal(check(dir, 'lint').code, 2);
    assert.equal(check(dir, 'check', '--max-problems', 'zero', 'rules.gr').code, 2);
  });

  it('prints JSON with --json', () => {
    const result = check(dir, 'check', '--json', 'rules.gr');
    const reports = JSON.parse(result.stdout);
    assert.deepEqual(reports[0].problems.map((p: any) => [p.line, p.column, p.code]), [[2, 6, 'gr/unknown-type']]);
  });
});
