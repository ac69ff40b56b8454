import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { TestContext } from 'node:test';

// Bundled into each test (out/test/unit/<folder>/<name>.test.js): __dirname is that test's folder.
const repoRoot = path.resolve(__dirname, '../../../..');
/** The shared corpus, read in place beside the repository. */
export const corpus = path.resolve(repoRoot, '../shared/corpus');

/** The corpus is read in place; without it the tests skip with one line, except on CI where that is a failure. */
export function corpusOrSkip(t: TestContext): boolean {
  if (existsSync(corpus)) return true;
  if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
  t.skip(`corpus not found at ${corpus}`);
  return false;
}
