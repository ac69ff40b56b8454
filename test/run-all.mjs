// `npm test`: every tier, in order — build, type check, service/CLI/protocol/webview tests (node:test), then the
// extension-host tests in a real VS Code, in its Node host (e2e) and in its browser's web worker (web). Ends with
// one closing line: `N passed, N failed, N skipped`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
process.chdir(root);
const only = process.argv.slice(2); // e.g. `npm test -- unit protocol`
const wants = (tier) => only.length === 0 || only.includes(tier);

function run(title, command, args, options = {}) {
  console.log(`\n=== ${title}: ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function findTests(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? findTests(path) : name.endsWith('.test.js') ? [path] : [];
  });
}

const totals = { passed: 0, failed: 0, skipped: 0 };

if (run('build', process.execPath, ['esbuild.mjs']) !== 0) process.exit(1);
if (run('type check', process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', '.']) !== 0) process.exit(1);

const tiers = ['unit', 'cli', 'protocol', 'webview', 'robustness', 'install'].filter(wants);
const files = tiers.flatMap((tier) => findTests(join('out', 'test', tier)));
if (files.length > 0) {
  mkdirSync('test-results', { recursive: true });
  const tapFile = join('test-results', 'node-test.tap');
  run(`node tests (${tiers.join(', ')})`, process.execPath, [
    '--test', '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...files,
  ]);
  const tap = readFileSync(tapFile, 'utf8');
  const count = (name) => Number(tap.match(new RegExp(`^# ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  totals.passed += count('pass');
  totals.failed += count('fail') + count('cancelled');
  totals.skipped += count('skipped') + count('todo');
}

// The examples' rule tests, run as CI runs a project's own: `agent-traces test` with its JUnit report.
if (wants('examples')) {
  mkdirSync('test-results', { recursive: true });
  const args = ['dist/cli.js', 'test', 'examples', '--junit', join('test-results', 'examples.junit.xml')];
  console.log(`\n=== rule tests of the examples: node ${args.join(' ')}`);
  const examples = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  process.stdout.write(examples.stdout ?? '');
  const closing = (examples.stdout ?? '').match(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m);
  totals.passed += Number(closing?.[1] ?? 0);
  totals.failed += Number(closing?.[2] ?? 0);
  totals.skipped += Number(closing?.[3] ?? 0);
  if (examples.status !== 0 && (!closing || Number(closing[2]) === 0)) totals.failed += 1; // it could not run them all
}

/** Runs a tier whose runner prints `N passed, N failed[, N skipped]` last, and adds its counts to the totals. */
function runCountedTier(title, script) {
  const tier = spawnSync(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  console.log(`\n=== ${title}: node ${script}`);
  process.stdout.write(tier.stdout ?? '');
  const closing = [...(tier.stdout ?? '').matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)].pop();
  if (closing) {
    totals.passed += Number(closing[1]);
    totals.failed += Number(closing[2]);
    totals.skipped += Number(closing[3] ?? 0);
  }
  if (tier.status !== 0 && (!closing || Number(closing[2]) === 0)) totals.failed += 1; // the runner itself failed
}

if (wants('e2e')) runCountedTier('extension host (real VS Code)', 'test/e2e/run.mjs');
if (wants('web')) runCountedTier('web-worker extension host (VS Code for the Web)', 'test/web/run.mjs');

console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 || totals.passed === 0 ? 1 : 0);
