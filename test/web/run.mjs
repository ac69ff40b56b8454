// The web tier: the extension's tests in code-server's web-worker extension host (the browser entry, as on
// vscode.dev and github.dev), driven by VS Code's smoke-test hooks in headless Chromium, on a copy of examples/.
//
// Usage: node test/web/run.mjs
//   E2E=required      fail instead of skipping when code-server is not installed (npm run setup)
//   WEB_TIMEOUT_MS    overall limit (default 240000); on timeout a screenshot goes to test-results/web-timeout.png
//   E2E_GREP=<text>   run only the tests whose full title contains the text
//   E2E_VERBOSE=1     also print the workbench's offline noise and code-server's log
//
// Exit code 0 when every test passed; prints `N passed, N failed, N skipped` as its last line.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { installedTools, repoRoot } from '../e2e/install.mjs';
import { buildIfStale, copyExamples } from '../e2e/prepare.mjs';
import { runnerLifecycle } from '../e2e/lifecycle.mjs';
import { launchBrowser } from '../e2e/workbench.mjs';
import { browserEntry, hasBrowserEntry, manifest, runInHost, startHost } from './webHost.mjs';

const required = process.env.E2E === 'required';
const timeoutMs = Number(process.env.WEB_TIMEOUT_MS ?? 240_000);
const verbose = process.env.E2E_VERBOSE === '1';
const resultsDir = join(repoRoot, 'test-results');
const webSuiteModule = join(repoRoot, 'out', 'test', 'web', 'suite', 'index.js');

const startedAt = Date.now();
let currentPage;
const { onEnd, track, finish } = runnerLifecycle('web', (_code, counts) => {
  if (!counts) return;
  log(`run time ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
});

function log(line) {
  console.log(`[web] ${line}`);
}

function skipOrFail(reason) {
  if (required) {
    console.error(`[web] FAILED (E2E=required): ${reason}`);
    return finish(1, { passed: 0, failed: 1, skipped: 0 });
  }
  console.log(`[web] skipped: ${reason} (set E2E=required to make this an error)`);
  return finish(0);
}

async function main() {
  if (!manifest.browser) return skipOrFail('no browser entry in package.json');
  try {
    buildIfStale();
    if (!hasBrowserEntry() || !existsSync(webSuiteModule)) {
      log('building (node esbuild.mjs): the browser entry or the web test bundle is missing');
      if (spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repoRoot, stdio: 'inherit' }).status !== 0) throw new Error('the build failed (node esbuild.mjs)');
    }
    if (!hasBrowserEntry()) throw new Error(`${relative(repoRoot, browserEntry())} (package.json "browser") is missing after the build`);
  } catch (error) {
    console.error(`[web] ${error.message}`);
    return finish(1, { passed: 0, failed: 1, skipped: 0 });
  }

  const tools = installedTools();
  if (!tools) return skipOrFail('code-server is not installed (npm run setup)');
  try {
    await import('playwright-core');
  } catch {
    return skipOrFail('playwright-core is not installed (npm install)');
  }

  const runDir = mkdtempSync(join(tmpdir(), 'agent-traces-web-'));
  onEnd(() => rmSync(runDir, { recursive: true, force: true, maxRetries: 3 }));
  const folder = copyExamples(join(runDir, 'workspace'));
  // What a test in the browser cannot write itself (it has no zlib): an Inspect AI .eval archive.
  createRequire(import.meta.url)(join(repoRoot, 'out', 'test', 'e2e', 'suite', 'fixtures.js')).writeInspectArchive(folder);
  // A multi-root workspace of that one folder: a test adds a second folder served by a file system of its own (as
  // github.dev's is) and removes it, which in a single-folder window would reload the window.
  const workspace = join(runDir, 'web.code-workspace');
  writeFileSync(workspace, JSON.stringify({ folders: [{ path: 'workspace' }] }));
  // Read by the suite (test/web/suite/index.ts), which has no environment of its own.
  writeFileSync(join(runDir, 'web-tests.json'), JSON.stringify({ grep: process.env.E2E_GREP || undefined }));
  mkdirSync(resultsDir, { recursive: true });

  const overall = setTimeout(onTimeout, timeoutMs);
  overall.unref();

  const server = await startHost(tools, 'web', { runDir: join(runDir, 'code-server'), verbose });
  track(server.process.pid);
  onEnd(() => server.stop());
  log(`code-server listening on ${server.origin}, workspace ${workspace}`);

  const browser = await launchBrowser(tools.chromium);
  track(browser.process?.pid);
  onEnd(() => browser.close());

  log(`suite: ${relative(repoRoot, webSuiteModule)} in the web-worker extension host`);
  const { exitCode, reported } = await runInHost(browser.context, server, 'web', workspace, webSuiteModule, {
    verbose,
    onPage: (page) => (currentPage = page),
  });
  clearTimeout(overall);
  log(`suite finished with exit code ${exitCode}`);
  const counts = reported.E2E_RESULT;
  if (!counts) {
    console.error('[web] the suite exited without reporting its results (see the log above)');
    return finish(exitCode || 1, { passed: 0, failed: 1, skipped: 0 });
  }
  const closing = { passed: counts.passed, failed: counts.failed, skipped: counts.pending };
  if (counts.passed === 0) {
    console.error('[web] no test passed');
    closing.failed += 1;
  }
  return finish(exitCode !== 0 || closing.failed > 0 ? exitCode || 1 : 0, closing);
}

async function onTimeout() {
  console.error(`[web] timed out after ${timeoutMs / 1000} s`);
  if (currentPage) {
    const shot = join(resultsDir, 'web-timeout.png');
    try {
      await currentPage.screenshot({ path: shot, timeout: 10_000 });
      console.error(`[web] screenshot: ${relative(repoRoot, shot)}`);
    } catch (error) {
      console.error(`[web] no screenshot: ${error.message}`);
    }
  }
  finish(1, { passed: 0, failed: 1, skipped: 0 });
}

main().catch((error) => {
  console.error(`[web] ${error.stack ?? error}`);
  finish(1, { passed: 0, failed: 1, skipped: 0 });
});
