// Runs the extension-host test suite (test/e2e/suite) inside a real VS Code: code-server's workbench in headless
// Chromium, on a copy of examples/. Then drives the same workbench as a user would (test/e2e/ui.mjs). Last, the
// suite's *.untrusted.e2e.ts files run in a second code-server with Workspace Trust on, in an untrusted folder.
//
// Usage: npm run test:e2e            (node test/e2e/run.mjs)
//   E2E=required     fail instead of skipping when the tools cannot be installed
//   E2E_PHASE=suite|ui|untrusted   run one phase only (default: all three)
//   E2E_TIMEOUT_MS   overall limit (default 300000)
//   E2E_VERBOSE=1    also print the workbench's log lines that are filtered out as offline noise
//
// Exit code: the suite's (0 when every test passed); prints `N passed, N failed` as its last line.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { startCodeServer } from './codeServer.mjs';
import { runnerLifecycle } from './lifecycle.mjs';
import { ensureTools, repoRoot, ToolsUnavailableError } from './install.mjs';
import { buildIfStale, copyExamples, suiteModule } from './prepare.mjs';
import { workbenchUrl, launchBrowser, runExtensionTests } from './workbench.mjs';

const required = process.env.E2E === 'required';
const phase = process.env.E2E_PHASE ?? 'all';
const timeoutMs = Number(process.env.E2E_TIMEOUT_MS ?? 300_000);
const verbose = process.env.E2E_VERBOSE === '1';
const resultsDir = join(repoRoot, 'test-results');
const startedAt = Date.now();

const { onEnd, track, finish } = runnerLifecycle('e2e', (_code, counts) => {
  if (counts && !counts.skipped) {
    log(`run time ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    console.log(`${counts.passed} passed, ${counts.failed} failed`);
  }
});

function log(line) {
  console.log(`[e2e] ${line}`);
}

function skipOrFail(reason) {
  if (required) {
    console.error(`[e2e] FAILED (E2E=required): ${reason}`);
    finish(1, { passed: 0, failed: 1 });
  } else {
    console.log(`[e2e] skipped: ${reason} (set E2E=required to make this an error)`);
    finish(0, { skipped: true });
  }
}

async function main() {
  try {
    buildIfStale();
  } catch (error) {
    console.error(`[e2e] ${error.message}`);
    return finish(1, { passed: 0, failed: 1 });
  }

  let tools;
  try {
    tools = await ensureTools({ log: (line) => console.log(line) });
  } catch (error) {
    if (error instanceof ToolsUnavailableError) return skipOrFail(`cannot install code-server and Node 24: ${error.message}`);
    throw error;
  }
  try {
    await import('playwright-core');
  } catch {
    return skipOrFail('playwright-core is not installed (npm install)');
  }

  const runDir = mkdtempSync(join(tmpdir(), 'agent-traces-e2e-'));
  onEnd(() => rmSync(runDir, { recursive: true, force: true, maxRetries: 3 }));
  const workspace = join(runDir, 'workspace');
  copyExamples(workspace);
  mkdirSync(resultsDir, { recursive: true });

  const trusted = phase === 'all' || phase === 'suite' || phase === 'ui';
  const server = trusted ? await startCodeServer(tools, {
    runDir: join(runDir, 'code-server'),
    onLog: (line) => {
      if (verbose) console.log(`[code-server] ${line}`);
    },
  }) : undefined;
  if (server) {
    track(server.process.pid);
    onEnd(() => server.stop());
    log(`code-server (VS Code ${codeServerVersion(tools)}) listening on ${server.origin}, workspace ${workspace}`);
  }

  const browser = await launchBrowser(tools.chromium);
  track(browser.process?.pid);
  onEnd(() => browser.close());

  const overall = setTimeout(() => onTimeout(browser), timeoutMs);
  overall.unref();

  const counts = { passed: 0, failed: 0 };
  let exitCode = 0;

  if (phase === 'all' || phase === 'suite') {
    const suite = await runSuite(browser.context, server, workspace);
    counts.passed += suite.passed;
    counts.failed += suite.failed;
    if (suite.exitCode !== 0) exitCode = suite.exitCode;
  }
  if (phase === 'all' || phase === 'ui') {
    const { runUiSmoke } = await import('./ui.mjs');
    const ui = await runUiSmoke({
      context: browser.context, server, workspace, extensionPath: repoRoot, resultsDir, log, verbose,
      onPage: (page) => (currentPage = page),
    });
    counts.passed += ui.passed;
    counts.failed += ui.failed;
    if (ui.failed > 0 && exitCode === 0) exitCode = 1;
  }
  if (phase === 'all' || phase === 'untrusted') {
    const untrusted = await runUntrustedSuite(tools, browser.context, runDir);
    counts.passed += untrusted.passed;
    counts.failed += untrusted.failed;
    if (untrusted.exitCode !== 0 && exitCode === 0) exitCode = untrusted.exitCode;
  }
  clearTimeout(overall);
  if (exitCode === 0 && counts.failed > 0) exitCode = 1;
  if (exitCode === 0 && counts.passed === 0) {
    console.error('[e2e] no test ran');
    exitCode = 1;
  }
  await finish(exitCode, counts);
}

let currentPage;

/**
 * The suite's *.untrusted.e2e.js files (index.ts picks them by E2E_WORKSPACE_TRUST) in a code-server that keeps
 * Workspace Trust on, on a fresh copy of examples/ that VS Code has never trusted. Its workspace settings set the
 * restricted settings, which VS Code must not hand to the extension there.
 */
async function runUntrustedSuite(tools, context, runDir) {
  const workspace = join(runDir, 'untrusted-workspace');
  copyExamples(workspace);
  mkdirSync(join(workspace, '.vscode'), { recursive: true });
  writeFileSync(join(workspace, '.vscode', 'settings.json'), JSON.stringify({
    'agentTraces.guardrails.policies': ['rules/*.gr'],
    'agentTraces.guardrails.pythonPaths': ['/'],
    'agentTraces.guardrails.severity': 'information',
  }, null, 2) + '\n');
  const server = await startCodeServer(tools, {
    runDir: join(runDir, 'code-server-untrusted'),
    workspaceTrust: true,
    env: { E2E_WORKSPACE_TRUST: 'untrusted' },
    onLog: (line) => {
      if (verbose) console.log(`[code-server] ${line}`);
    },
  });
  track(server.process.pid);
  onEnd(() => server.stop());
  log(`untrusted: a second code-server with Workspace Trust on, listening on ${server.origin}, workspace ${workspace}`);
  try {
    return await runSuite(context, server, workspace);
  } finally {
    await server.stop();
  }
}

async function runSuite(context, server, workspace) {
  const url = workbenchUrl(server, workspace, [
    ['extensionDevelopmentPath', repoRoot],
    ['extensionTestsPath', suiteModule],
  ]);
  log(`suite: ${relative(repoRoot, suiteModule)} in ${url.split('?')[0]}`);
  const { exitCode, reported } = await runExtensionTests(context, url, { verbose, onPage: (page) => (currentPage = page) });
  log(`suite finished with exit code ${exitCode}`);
  const counts = reported.E2E_RESULT;
  if (!counts) {
    console.error('[e2e] the suite exited without reporting its results (see the log above)');
    return { passed: 0, failed: 1, exitCode: exitCode || 1 };
  }
  return { passed: counts.passed, failed: counts.failed, exitCode };
}

async function onTimeout(browser) {
  console.error(`[e2e] timed out after ${timeoutMs / 1000} s`);
  const shot = join(resultsDir, 'e2e-timeout.png');
  const page = currentPage ?? browser.context.pages().at(-1);
  if (page) {
    try {
      await page.screenshot({ path: shot, timeout: 10_000 });
      console.error(`[e2e] screenshot: ${relative(repoRoot, shot)}`);
    } catch (error) {
      console.error(`[e2e] no screenshot: ${error.message}`);
    }
  }
  finish(1, { passed: 0, failed: 1 });
}

function codeServerVersion(tools) {
  try {
    const manifest = JSON.parse(
      readFileSync(join(tools.codeServerEntry, '..', '..', '..', 'lib', 'vscode', 'package.json'), 'utf8'),
    );
    return manifest.version;
  } catch {
    return 'unknown';
  }
}

main().catch((error) => {
  console.error(`[e2e] ${error.stack ?? error}`);
  finish(1, { passed: 0, failed: 1 });
});

