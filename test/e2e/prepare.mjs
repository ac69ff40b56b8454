// Build freshness and the throw-away workspace, shared by run.mjs, electron.mjs and start.mjs.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from './install.mjs';

export const suiteModule = join(repoRoot, 'out', 'test', 'e2e', 'suite', 'index.js');
export const examplesDir = join(repoRoot, 'examples');
const buildStamp = join(repoRoot, '.cache', 'e2e', 'last-build');

const BUILD_OUTPUTS = ['dist/client.js', 'dist/server.js', 'dist/evaluationWorker.js', 'dist/media/preview.js', 'out/test/e2e/suite/index.js'];
const BUILD_INPUTS = ['client', 'server', join('test', 'e2e', 'suite')];

function newestMtime(dir, suffixes) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) newest = Math.max(newest, newestMtime(path, suffixes));
    else if (suffixes.some((suffix) => name.endsWith(suffix))) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/** Runs `node esbuild.mjs` when an output is missing or older than a source. Throws when the build fails. */
export function buildIfStale(log = (line) => console.log(line)) {
  const oldestOutput = Math.min(...BUILD_OUTPUTS.map((p) => join(repoRoot, p)).map((p) => (existsSync(p) ? statSync(p).mtimeMs : 0)));
  const newestSource = Math.max(
    ...BUILD_INPUTS.map((dir) => newestMtime(join(repoRoot, dir), ['.ts', '.css', '.html'])),
    statSync(join(repoRoot, 'esbuild.mjs')).mtimeMs,
    statSync(join(repoRoot, 'package.json')).mtimeMs,
  );
  // esbuild leaves unchanged outputs untouched, so a stamp records when this script last built.
  const stamp = existsSync(buildStamp) ? statSync(buildStamp).mtimeMs : 0;
  if (Math.max(oldestOutput, oldestOutput > 0 ? stamp : 0) >= newestSource) return false;
  log('[e2e] building (node esbuild.mjs): dist/ or out/ is older than the sources');
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed (node esbuild.mjs)');
  for (const output of ['dist/client.js', 'dist/server.js', 'out/test/e2e/suite/index.js']) {
    if (!existsSync(join(repoRoot, output))) throw new Error(`${output} is missing after the build`);
  }
  mkdirSync(dirname(buildStamp), { recursive: true });
  writeFileSync(buildStamp, new Date().toISOString() + '\n');
  return true;
}

/** Copies examples/ to `target`, so that tests may write files and edit without touching the repository. */
export function copyExamples(target) {
  cpSync(examplesDir, target, { recursive: true });
  return target;
}
