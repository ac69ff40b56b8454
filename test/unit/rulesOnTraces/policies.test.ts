import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { readPolicyFiles } from '../../../server/src/rulesOnTraces/policies';

describe('agentTraces.guardrails.policies', () => {
  it('reads the rule files its globs match below each workspace folder, refusing those over the size limit', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'policies-'));
    try {
      mkdirSync(join(folder, 'rules', 'team'), { recursive: true });
      mkdirSync(join(folder, 'node_modules', 'x'), { recursive: true });
      writeFileSync(join(folder, 'rules', 'a.gr'), 'raise "a" if:\n    (m: Message)\n');
      writeFileSync(join(folder, 'rules', 'team', 'b.gr'), 'raise "b" if:\n    (m: Message)\n');
      writeFileSync(join(folder, 'rules', 'big.gr'), `# ${'x'.repeat(200)}\n`);
      writeFileSync(join(folder, 'rules', 'notes.txt'), 'not a rule file');
      writeFileSync(join(folder, 'node_modules', 'x', 'c.gr'), 'raise "c" if:\n    (m: Message)\n');
      const read = await readPolicyFiles(['rules/**/*.gr', '**/c.gr'], [folder], { maxFiles: 10, maxBytes: 100 });
      assert.deepEqual(read.files.map((f) => f.uri), [pathToFileURL(join(folder, 'rules', 'a.gr')).toString(), pathToFileURL(join(folder, 'rules', 'team', 'b.gr')).toString()]);
      assert.equal(read.files[0].text, 'raise "a" if:\n    (m: Message)\n');
      assert.equal(read.problems.length, 1);
      assert.match(read.problems[0], /^rules\/big\.gr: refused: the file is .* over the .* limit \(setting agentTraces\.files\.maxSizeMB\)$/);

      const capped = await readPolicyFiles(['rules/*.gr'], [folder], { maxFiles: 1, maxBytes: 1000 });
      assert.equal(capped.files.length, 1);
      assert.deepEqual(capped.problems, ['agentTraces.guardrails.policies matches more than 1 rule files; the first 1 are used']);
      assert.deepEqual(await readPolicyFiles([], [folder], { maxFiles: 1, maxBytes: 1000 }), { files: [], problems: [] });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('says which symbolic links it did not follow: to a matching rule file, or to a folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'policies-links-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'policies-elsewhere-'));
    try {
      mkdirSync(join(folder, 'rules'));
      writeFileSync(join(elsewhere, 'shared.gr'), 'raise "s" if:\n    (m: Message)\n');
      writeFileSync(join(folder, 'rules', 'a.gr'), 'raise "a" if:\n    (m: Message)\n');
      symlinkSync(join(elsewhere, 'shared.gr'), join(folder, 'rules', 'shared.gr'));
      symlinkSync(elsewhere, join(folder, 'rules', 'more'));
      symlinkSync(join(elsewhere, 'shared.gr'), join(folder, 'other.gr')); // not matched by the glob: not reported
      const read = await readPolicyFiles(['rules/**/*.gr'], [folder], { maxFiles: 10, maxBytes: 1000 });
      assert.deepEqual(read.files.map((f) => f.uri), [pathToFileURL(join(folder, 'rules', 'a.gr')).toString()]);
      assert.deepEqual(read.problems, [
        'rules/more: a symbolic link, not followed (a folder search does not follow links)',
        'rules/shared.gr: a symbolic link, not followed (a folder search does not follow links)',
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
