import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const dist = resolve(__dirname, '..', '..', '..', '..', 'dist');

/** The scripts of dist/ and dist/web/ (the build made them before the tests ran). */
function bundles(): string[] {
  return ['', 'web'].flatMap((folder) => {
    const dir = join(dist, folder);
    return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.js')).map((name) => join(dir, name)) : [];
  });
}

describe('bundles', () => {
  it('hold no character beyond Latin-1, so V8 keeps their source one byte per character', () => {
    const found = bundles();
    assert.ok(found.some((path) => path.endsWith(join('dist', 'server.js'))), `no server bundle in ${dist}: build first (node esbuild.mjs)`);
    for (const path of found) {
      const text = readFileSync(path, 'utf8');
      const at = text.search(/[^\u0000-\u00ff]/);
      assert.equal(at, -1, `${path}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))} holds a character beyond Latin-1`);
    }
  });
});
