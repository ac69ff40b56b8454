import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function check(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'check', ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

const runsAsRoot = process.getuid?.() === 0;

describe('agent-traces check: every input is checked or reported', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-cli-inputs-'));
  });

  after(() => {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a .jsonl whose first line is a string as not checked, exiting 3', () => {
    writeFileSync(join(dir, 'strings.jsonl'), '"just a string"\n"another"\n');
    const result = check(dir, 'strings.jsonl');
    assert.deepEqual(result.lines, [
      'strings.jsonl: error: not checked: not a trace or rule file (by its name, or for .jsonl by its first line)',
      '0 files checked, 1 could not be checked: 0 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    assert.equal(result.code, 3);
  });

  it('refuses a file over --max-file-size, exiting 3', () => {
    writeFileSync(join(dir, 'big.trace.json'), `[${' '.repeat(2 * 1024 * 1024)}]`);
    const result = check(dir, '--max-file-size', '1', 'big.trace.json');
    assert.equal(result.lines[0], 'big.trace.json: error: refused: the file is 2.0 MB, over the 1.0 MB limit (setting --max-file-size)');
    assert.equal(result.code, 3);
  });

  it('reports a FIFO and a symlink to a device as not regular files instead of reading them', () => {
    const sub = join(dir, 'special');
    mkdirSync(sub);
    execFileSync('mkfifo', [join(sub, 'pipe.trace.json')]);
    symlinkSync('/dev/zero', join(sub, 'zero.trace.json'));
    const result = check(sub, 'pipe.trace.json', 'zero.trace.json');
    assert.deepEqual(result.lines, [
      'pipe.trace.json: error: not a regular file or folder',
      'zero.trace.json: error: not a regular file or folder',
      '0 files checked, 2 could not be checked: 0 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    assert.equal(result.code, 3);
  });

  it('escapes control characters from content and file names', () => {
    const sub = join(dir, 'hostile');
    mkdirSync(sub);
    writeFileSync(join(sub, 'a\u001b[2K\r.trace.json'), '[{"role": "tool", "tool_call_id": "\\u001b[2K\\r\\u009bX", "content": "x"}]');
    const result = check(sub, '.');
    assert.equal(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(result.stdout), false, JSON.stringify(result.stdout));
    assert.equal(result.lines[0], 'a\\u001b[2K\\r.trace.json:1:35 error trace/unknown-call-id tool_call_id "\\u001b[2K\\r\\u009bX" names no tool call in this trace');
    const json = check(sub, '--json', '.');
    assert.equal(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(json.stdout), false);
    assert.equal(JSON.parse(json.stdout)[0].problems[0].message, 'tool_call_id "\u001b[2K\r\u009bX" names no tool call in this trace');
  });

  it('exits 4 when errors were found and some file could not be read', () => {
    const sub = join(dir, 'partial');
    mkdirSync(sub);
    execFileSync('mkfifo', [join(sub, 'pipe.trace.json')]);
    writeFileSync(join(sub, 'bad.trace.json'), '[{"role": "tool", "tool_call_id": "nope", "content": "x"}]');
    writeFileSync(join(sub, 'good.trace.json'), '[]');
    assert.equal(check(sub, 'pipe.trace.json', 'bad.trace.json').code, 4);
    assert.equal(check(sub, 'pipe.trace.json', 'good.trace.json').code, 3);
    assert.equal(check(sub, 'missing.trace.json', 'bad.trace.json').code, 4, 'a name that matches nothing is an input not read');
  });

  it('reports a glob whose walk fails instead of saying that nothing matches', () => {
    const sub = join(dir, 'globs');
    mkdirSync(sub);
    writeFileSync(join(sub, 'a.trace.json'), '[]');
    const result = check(sub, 'a.trace.json/**/*.json');
    assert.deepEqual(result.lines, [
      'a.trace.json: error: cannot read this folder: ENOTDIR',
      '0 files checked, 1 could not be checked: 0 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    assert.equal(result.stderr, '');
    assert.equal(result.code, 3);
  });

  it('reports an unreadable subfolder and goes on, without a stack trace', { skip: runsAsRoot && 'root reads every folder' }, () => {
    const sub = join(dir, 'walk');
    mkdirSync(join(sub, 'locked'), { recursive: true });
    writeFileSync(join(sub, 'ok.trace.json'), '[]');
    chmodSync(join(sub, 'locked'), 0);
    try {
      const result = check(sub, '.', '**/*.trace.json');
      assert.deepEqual(result.lines, [
        'locked: error: cannot read this folder: EACCES',
        '1 file checked, 1 could not be checked: 0 errors, 0 warnings, 0 infos, 0 hints',
      ]);
      assert.equal(result.stderr, '');
      assert.equal(result.code, 3);
    } finally {
      chmodSync(join(sub, 'locked'), 0o700);
    }
  });
});
