import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function check(cwd: string, ...args: string[]): string[] {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  if (!result.stdout) throw new Error(`no output: ${result.stderr} ${result.error}`);
  // the problem lines only, as path:line:col severity code
  return result.stdout.trim().split('\n').filter((line) => line.startsWith('policy.gr:')).map((line) => line.split(' ').slice(0, 3).join(' '));
}

describe('agent-traces check --python-path', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-python-path-'));
    mkdirSync(join(dir, 'lib', 'helpers'), { recursive: true });
    mkdirSync(join(dir, 'outside'), { recursive: true });
    writeFileSync(join(dir, 'lib', 'helpers', '__init__.py'), 'def is_safe(text):\n    return True\n');
    writeFileSync(join(dir, 'outside', 'secret.py'), 'def leak(): pass\n');
    symlinkSync(join(dir, 'outside', 'secret.py'), join(dir, 'lib', 'secret.py'));
    writeFileSync(join(dir, 'policy.gr'), 'from helpers import is_safe, nope\nfrom secret import leak\n\nraise "x" if:\n    (m: Message)\n    is_safe(m.content)\n    nope(m)\n    leak(m)\n');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('without it, every module outside the standard library is a warning', () => {
    assert.deepEqual(check(dir, 'check', 'policy.gr'), [
      'policy.gr:1:6 warning gr/unresolved-module',
      'policy.gr:2:6 warning gr/unresolved-module',
    ]);
  });

  it('with it, packages resolve through __init__.py, missing names warn, and links leaving the folder are not followed', () => {
    assert.deepEqual(check(dir, 'check', '--python-path', 'lib', 'policy.gr'), [
      'policy.gr:1:30 warning gr/unknown-import',
      'policy.gr:2:6 warning gr/unresolved-module',
    ]);
  });
});
