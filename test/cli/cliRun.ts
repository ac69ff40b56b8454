import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TestContext } from 'node:test';

/** The bundled command line, from the tests' bundle folder (out/test/cli/). */
export const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

/** `agent-traces …args` in `cwd`: its exit code and output (up to 64 MB). */
export function runCli(cwd: string, ...args: string[]) {
  const ran = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

/** Whether the corpus folder is there; without it the test skips with one line, and fails when CI is set. */
export function corpusOrSkip(t: TestContext, corpus: string): boolean {
  if (existsSync(corpus)) return true;
  if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
  t.skip(`corpus not found at ${corpus}`);
  return false;
}
