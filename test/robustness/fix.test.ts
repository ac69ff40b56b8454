import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { temporaryFolder } from './harness';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');
/** The time `check --fix` may take on a 2 MB file of 40,000 fixes (it took 50-65 s when each fix copied the text). */
const boundMs = 10_000;

describe('check --fix on a file with tens of thousands of fixes', () => {
  const folder = temporaryFolder('many-fixes');
  after(() => folder.remove());

  it('40,000 trailing commas in a 2 MB trace are fixed in one run, in time', () => {
    const events = Array.from({ length: 40_000 }, (_, i) => `  {"role": "user", "content": "message number ${String(i).padStart(6, '0')}",}`);
    const text = `[\n${events.join(',\n')}\n]\n`;
    assert.ok(text.length > 2_000_000);
    const path = join(folder.path, 'many.trace.json');
    writeFileSync(path, text);
    const started = Date.now();
    const result = spawnSync(process.execPath, [cli, 'check', '--fix', '--quiet', 'many.trace.json'], { cwd: folder.path, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 * 1024 * 1024 });
    const took = Date.now() - started;
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout.split('\n').filter((line) => line.includes(' fixed json/trailing-comma')).length, 40_000);
    assert.equal(readFileSync(path, 'utf8'), text.replaceAll(',}', '}'));
    assert.ok(took < boundMs, `took ${took} ms, over ${boundMs} ms`);
  });
});
