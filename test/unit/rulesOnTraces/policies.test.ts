import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
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
});
