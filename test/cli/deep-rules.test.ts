import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

describe('agent-traces check on rule files with deep and long expressions', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-deep-'));
    writeFileSync(join(dir, 'member.gr'), 'x := call' + '.a'.repeat(2_500) + '\n');
    writeFileSync(join(dir, 'calls.gr'), 'x := f' + '()'.repeat(2_500) + '\n');
    writeFileSync(join(dir, 'plus.gr'), 'a := 1\nx := a' + ' + a'.repeat(3_000) + '\n');
    writeFileSync(join(dir, 'ternary.gr'), 'x := ' + 'a if b else '.repeat(9_000) + 'c\n');
    writeFileSync(join(dir, 'parens.gr'), 'x := ' + '('.repeat(5_000) + '1' + ')'.repeat(5_000) + '\n');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('checks every file and reports each problem instead of aborting the run', () => {
    const result = spawnSync(process.execPath, [cli, 'check', 'member.gr', 'calls.gr', 'plus.gr', 'ternary.gr', 'parens.gr'], { cwd: dir, encoding: 'utf8' });
    assert.equal(result.stderr, '');
    assert.equal(result.status, 1);
    assert.deepEqual(result.stdout.trim().split('\n'), [
      'member.gr:1:6 error gr/unknown-identifier Failed to resolve identifier call',
      'calls.gr:1:6 error gr/unknown-identifier Failed to resolve identifier f',
      'ternary.gr:1:60008 error gr/syntax This line has too many operators to check',
      'parens.gr:1:126 error gr/too-deep Expression nested deeper than 120 levels: the rest of this line is not checked',
      '5 files checked: 4 errors, 0 warnings, 0 infos, 0 hints',
    ]);
  });
});
