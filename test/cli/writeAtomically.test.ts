import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeFileAtomically } from '../../server/src/cli/replaceFile';

describe('a file written in pieces, in one step', () => {
  it('holds the pieces in order once renamed into place, over what was there', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pieces-'));
    try {
      const path = join(folder, 'out.trace.jsonl');
      writeFileSync(path, 'an older conversion\n');
      const lines = Array.from({ length: 300 }, (_, i) => `${JSON.stringify([{ role: 'user', content: `é ${i} ${'x'.repeat(i * 37)}` }])}\n`);
      assert.deepEqual(await writeFileAtomically(path, (function* () { yield* lines; yield Buffer.from('bytes too\n'); })()), { ok: true });
      assert.equal(readFileSync(path, 'utf8'), `${lines.join('')}bytes too\n`);
      assert.deepEqual(readdirSync(folder), ['out.trace.jsonl']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('leaves what was there, and no temporary file, when making a piece fails: the failure is thrown again', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'pieces-'));
    try {
      const path = join(folder, 'out.trace.jsonl');
      writeFileSync(path, 'an older conversion\n');
      const failure = new Error('the third trace does not convert');
      const pieces = function* () {
        yield '[{"role": "user", "content": "one"}]\n';
        yield '[{"role": "user", "content": "two"}]\n';
        throw failure;
      };
      await assert.rejects(writeFileAtomically(path, pieces()), (thrown) => thrown === failure);
      assert.equal(readFileSync(path, 'utf8'), 'an older conversion\n');
      assert.deepEqual(readdirSync(folder), ['out.trace.jsonl']);
      const fresh = join(folder, 'new.trace.jsonl');
      await assert.rejects(writeFileAtomically(fresh, pieces()));
      assert.equal(existsSync(fresh), false);
      assert.deepEqual(readdirSync(folder), ['out.trace.jsonl']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
