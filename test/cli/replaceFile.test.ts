import assert from 'node:assert/strict';
import { linkSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { replaceFile } from '../../server/src/cli/replaceFile';

describe('replacing a fixed file', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-replace-'));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the new bytes in one step, keeping the mode, and leaves no temporary file', async () => {
    const path = join(dir, 'a.trace.json');
    writeFileSync(path, 'old');
    chmodSync(path, 0o604);
    const inode = statSync(path).ino;
    assert.deepEqual(await replaceFile(path, Buffer.from('old'), Buffer.from('new')), { ok: true });
    assert.equal(readFileSync(path, 'utf8'), 'new');
    assert.equal(statSync(path).mode & 0o7777, 0o604);
    assert.notEqual(statSync(path).ino, inode, 'a new file renamed over the old one, not a write in place');
    assert.deepEqual(readdirSync(dir), ['a.trace.json']);
  });

  it('leaves a file that changed since it was read, and says so', async () => {
    const path = join(dir, 'b.trace.json');
    writeFileSync(path, 'saved by another program meanwhile');
    const result = await replaceFile(path, Buffer.from('what was read'), Buffer.from('fixed'));
    assert.deepEqual(result, { ok: false, reason: 'the file changed on disk while it was checked; run again to fix what it holds now' });
    assert.equal(readFileSync(path, 'utf8'), 'saved by another program meanwhile');
    const sameSize = await replaceFile(path, Buffer.from('saved by another program MEANWHILE'), Buffer.from('fixed'));
    assert.equal(sameSize.ok, false, 'same size, other bytes');
    assert.deepEqual(readdirSync(dir).sort(), ['a.trace.json', 'b.trace.json']);
  });

  it('leaves a file with other hard links: a new file in its place would separate them', async () => {
    const path = join(dir, 'c.trace.json');
    writeFileSync(path, 'x');
    linkSync(path, join(dir, 'c-link.trace.json'));
    const result = await replaceFile(path, Buffer.from('x'), Buffer.from('y'));
    assert.deepEqual(result, { ok: false, reason: 'it has 2 hard links, which writing a new file in its place would separate' });
    assert.equal(readFileSync(join(dir, 'c-link.trace.json'), 'utf8'), 'x');
  });
});
