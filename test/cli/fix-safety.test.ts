/**
 * `check --fix` edits the user's bytes and nothing else, writes a whole new file or nothing, and writes through a
 * symbolic link only into the folder it runs in.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function check(cwd: string, args: string[], shellPrefix = '') {
  const result = shellPrefix
    ? spawnSync('bash', ['-c', `${shellPrefix}; exec "$0" "$@"`, process.execPath, cli, 'check', ...args], { cwd, encoding: 'utf8' })
    : spawnSync(process.execPath, [cli, 'check', ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

const runsAsRoot = process.getuid?.() === 0;

describe('agent-traces check --fix: edits of the user\'s bytes, written whole or not at all', () => {
  let dir: string;
  const folder = (name: string) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    return path;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-fix-safety-'));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('changes only the bytes a fix edits: invalid UTF-8 elsewhere stays as it was', () => {
    const cwd = folder('bytes');
    const before = Buffer.concat([
      Buffer.from('[\n  {"role": "user", "content": "caf'), Buffer.from([0xe9]), Buffer.from(' \u00e9 '), Buffer.from([0xc3, 0x28, 0xff, 0xf0, 0x9f]),
      Buffer.from('"},\n  {"role": "assistant", "content": "ok",}\n]\n'),
    ]);
    writeFileSync(join(cwd, 'latin.trace.json'), before);
    const result = check(cwd, ['--fix', 'latin.trace.json']);
    assert.equal(result.lines[0], 'latin.trace.json:3:40 fixed json/trailing-comma: Remove the trailing comma');
    const comma = before.lastIndexOf(',}');
    assert.deepEqual(readFileSync(join(cwd, 'latin.trace.json')), Buffer.concat([before.subarray(0, comma), before.subarray(comma + 1)]));
  });

  it('keeps a byte order mark, CRLF line breaks and the notes after the JSON value', () => {
    const cwd = folder('layout');
    const text = '\ufeff[\r\n  // a fixture\r\n  {"role": "user", "content": "hi",}\r\n]\r\n/* run 3: flaky,\r\n   see the log */\r\n';
    writeFileSync(join(cwd, 'crlf.trace.json'), text);
    const result = check(cwd, ['--fix', 'crlf.trace.json']);
    assert.deepEqual(result.lines.filter((line) => line.includes(' fixed ')), [
      'crlf.trace.json:2:3 fixed json/comment: Remove the comment',
      'crlf.trace.json:3:35 fixed json/trailing-comma: Remove the trailing comma',
    ]);
    assert.equal(readFileSync(join(cwd, 'crlf.trace.json'), 'utf8'), '\ufeff[\r\n  {"role": "user", "content": "hi"}\r\n]\r\n/* run 3: flaky,\r\n   see the log */\r\n');
  });

  it('a write that fails leaves the file whole and says so (a file-size limit below the fixed file)', () => {
    const cwd = folder('limit');
    const events = Array.from({ length: 2000 }, (_, i) => `  {"role": "user", "content": "message ${i} ${'x'.repeat(60)}"}`);
    const text = `[\n${events.join(',\n')},\n]\n`;
    assert.ok(text.length > 150 * 1024);
    writeFileSync(join(cwd, 'big.trace.json'), text);
    const result = check(cwd, ['--fix', 'big.trace.json'], 'ulimit -f 100');
    assert.equal(readFileSync(join(cwd, 'big.trace.json'), 'utf8'), text);
    assert.deepEqual(readdirSync(cwd), ['big.trace.json'], 'no temporary file is left behind');
    assert.ok(result.lines.includes('big.trace.json: error: fixes not written: cannot write the fixed file beside it (EFBIG); the file is unchanged'), result.lines.join('\n'));
    assert.equal(result.code, 4, 'an error found, and a file that could not be fixed');
  });

  it('keeps the file\'s mode and owner', { skip: !runsAsRoot && 'changing a file\'s owner needs root' }, () => {
    const cwd = folder('owner');
    const path = join(cwd, 'owned.trace.json');
    writeFileSync(path, '[{"role": "user", "content": "hi",}]\n');
    chmodSync(path, 0o640);
    chownSync(path, 4321, 4322);
    assert.equal(check(cwd, ['--fix', 'owned.trace.json']).code, 0);
    const stat = statSync(path);
    assert.deepEqual([stat.mode & 0o7777, stat.uid, stat.gid], [0o640, 4321, 4322]);
    assert.equal(readFileSync(path, 'utf8'), '[{"role": "user", "content": "hi"}]\n');
  });

  it('reports the symbolic links a folder search skips', () => {
    const cwd = folder('walk');
    const elsewhere = folder('walk-elsewhere');
    writeFileSync(join(elsewhere, 'real.trace.json'), '[{"role": "user", "content": "hi"}]\n');
    writeFileSync(join(cwd, 'plain.trace.json'), '[{"role": "user", "content": "hi"}]\n');
    symlinkSync(join(elsewhere, 'real.trace.json'), join(cwd, 'linked.trace.json'));
    symlinkSync(elsewhere, join(cwd, 'linked-folder'));
    symlinkSync(join(cwd, 'README.md'), join(cwd, 'notes.md')); // not a file a search would check: not reported
    const result = check(cwd, ['.']);
    assert.deepEqual(result.lines, [
      'linked-folder: skipped: a symbolic link (a folder search does not follow links; name it to check what it points to)',
      'linked.trace.json: skipped: a symbolic link (a folder search does not follow links; name it to check what it points to)',
      '1 file checked, 2 symbolic links skipped: 0 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    assert.equal(result.code, 0);
    writeFileSync(join(cwd, 'rules.gr'), 'raise "hi" if:\n    (m: Message)\n    m.content == "hi"\n');
    const evaluated = spawnSync(process.execPath, [cli, 'eval', 'rules.gr', '.'], { cwd, encoding: 'utf8' });
    assert.deepEqual(evaluated.stderr.trim().split('\n'), [
      'agent-traces eval: linked-folder: skipped: a symbolic link (a folder search does not follow links; name it to check what it points to)',
      'agent-traces eval: linked.trace.json: skipped: a symbolic link (a folder search does not follow links; name it to check what it points to)',
    ]);
  });

  it('fixes a named symbolic link in its target inside the folder, and the link stays a link', () => {
    const cwd = folder('link-in');
    mkdirSync(join(cwd, 'data'));
    writeFileSync(join(cwd, 'data', 'real.trace.json'), '[{"role": "user", "content": "hi",}]\n');
    symlinkSync(join('data', 'real.trace.json'), join(cwd, 'link.trace.json'));
    const result = check(cwd, ['--fix', 'link.trace.json']);
    assert.deepEqual(result.lines, [
      'link.trace.json:1:34 fixed json/trailing-comma: Remove the trailing comma',
      'link.trace.json: the fixes were written to the file the link points to, data/real.trace.json',
      '1 file checked: 0 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    assert.equal(readFileSync(join(cwd, 'data', 'real.trace.json'), 'utf8'), '[{"role": "user", "content": "hi"}]\n');
    assert.ok(lstatSync(join(cwd, 'link.trace.json')).isSymbolicLink());
    assert.equal(readlinkSync(join(cwd, 'link.trace.json')), join('data', 'real.trace.json'));
  });

  it('never writes through a named symbolic link to a file outside the folder: it says so and leaves the file', () => {
    const cwd = folder('link-out');
    const outside = folder('link-out-target');
    const target = join(outside, 'shared.trace.json');
    writeFileSync(target, '[{"role": "user", "content": "hi",}]\n');
    symlinkSync(target, join(cwd, 'shared.trace.json'));
    const result = check(cwd, ['--fix', 'shared.trace.json']);
    assert.deepEqual(result.lines, [
      `shared.trace.json: error: fixes not written: it is a symbolic link to ${target}, outside the current folder; name that file to fix it there`,
      'shared.trace.json:1:34 error json/trailing-comma Trailing comma: remove it (JSON allows no comma before \'}\')',
      '1 file checked, 1 not fixed: 1 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    assert.equal(result.code, 4);
    assert.equal(readFileSync(target, 'utf8'), '[{"role": "user", "content": "hi",}]\n');
    const named = check(outside, ['--fix', 'shared.trace.json']);
    assert.equal(named.code, 0, 'named directly, the file itself is fixed');
    assert.equal(readFileSync(target, 'utf8'), '[{"role": "user", "content": "hi"}]\n');
  });
});
