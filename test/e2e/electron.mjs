// The same extension-host suite in VS Code desktop, through @vscode/test-electron, for machines that can
// download VS Code: first the oldest version package.json's engines.vscode allows, then 'stable'.
//
// Usage: npm run test:e2e:electron      (node test/e2e/electron.mjs [version ...])
//   E2E=required   fail instead of skipping when VS Code cannot be downloaded
// Prints `N passed, N failed` (all versions together) as its last line.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './install.mjs';
import { buildIfStale, copyExamples, suiteModule } from './prepare.mjs';

const required = process.env.E2E === 'required';
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const minimum = /(\d+\.\d+\.\d+)/.exec(manifest.engines.vscode)?.[1];
const versions = process.argv.slice(2).length > 0 ? process.argv.slice(2) : [minimum, 'stable'];

try {
  buildIfStale();
} catch (error) {
  console.error(`[e2e:electron] ${error.message}`);
  process.exit(1);
}

const { runTests, downloadAndUnzipVSCode } = await import('@vscode/test-electron');
const totals = { passed: 0, failed: 0 };
let exitCode = 0;
const started = Date.now();

for (const version of versions) {
  let executable;
  try {
    executable = await downloadAndUnzipVSCode({ version, cachePath: join(repoRoot, '.vscode-test') });
  } catch (error) {
    const reason = `VS Code ${version} could not be downloaded (${String(error.message ?? error).split('\n')[0]}); use npm run test:e2e (code-server) on machines without access to VS Code's downloads`;
    if (required) {
      console.error(`[e2e:electron] FAILED (E2E=required): ${reason}`);
      console.log(`${totals.passed} passed, ${totals.failed + 1} failed`);
      process.exit(1);
    }
    console.log(`[e2e:electron] skipped: ${reason}`);
    process.exit(exitCode);
  }
  const runDir = mkdtempSync(join(tmpdir(), 'agent-traces-electron-'));
  const workspace = copyExamples(join(runDir, 'workspace'));
  const resultFile = join(runDir, 'result.json');
  console.log(`[e2e:electron] VS Code ${version}`);
  let code;
  try {
    code = await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: suiteModule,
      extensionTestsEnv: { E2E_RESULT_FILE: resultFile },
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir', join(runDir, 'user-data'),
        '--extensions-dir', join(runDir, 'extensions'),
      ],
    });
  } catch (error) {
    code = typeof error === 'number' ? error : 1;
    console.error(`[e2e:electron] VS Code ${version}: ${error?.message ?? `exit ${error}`}`);
  }
  if (existsSync(resultFile)) {
    const result = JSON.parse(readFileSync(resultFile, 'utf8'));
    totals.passed += result.passed;
    totals.failed += result.failed;
  } else {
    totals.failed++;
    console.error(`[e2e:electron] VS Code ${version}: the suite reported no results`);
  }
  if (code !== 0) exitCode = 1;
  rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
}

console.log(`[e2e:electron] run time ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(exitCode || (totals.failed > 0 ? 1 : 0));
