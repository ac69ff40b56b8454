// code-server set up to run the extension in a chosen extension host, and the extension tests run there: shared by
// the web tier (test/web/run.mjs) and the cold-start benchmark (bench/web.bench.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCodeServer } from '../e2e/codeServer.mjs';
import { repoRoot } from '../e2e/install.mjs';
import { runExtensionTests, workbenchUrl } from '../e2e/workbench.mjs';

export const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
export const extensionId = `${manifest.publisher}.${manifest.name}`;

/** The browser entry's bundle, or undefined when package.json declares none. */
export function browserEntry() {
  return manifest.browser ? join(repoRoot, manifest.browser.endsWith('.js') ? manifest.browser : `${manifest.browser}.js`) : undefined;
}

export function hasBrowserEntry() {
  const entry = browserEntry();
  return entry !== undefined && existsSync(entry);
}

/**
 * A code-server whose user settings send the extension to `kind`'s extension host: 'web' is the browser's web
 * worker (the browser entry; code-server runs the Node entry of an extension that has both unless the user's
 * `remote.extensionKind` asks for the web), 'node' the Node host beside the workspace (the main entry).
 */
export function startHost(tools, kind, { runDir, verbose = false } = {}) {
  return startCodeServer(tools, {
    runDir,
    settings: kind === 'web' ? { 'remote.extensionKind': { [extensionId]: ['web'] } } : {},
    onLog: (line) => {
      if (verbose) console.log(`[code-server] ${line}`);
    },
  });
}

/**
 * Opens `workspace` in the workbench with the extension under development and runs the extension tests of
 * `testsModule` (a CommonJS module inside the extension's folder: the repository, or `options.extensionPath`) in `kind`'s host; resolves with their exit code and the
 * JSON of the marker lines they logged.
 */
export function runInHost(context, server, kind, workspace, testsModule, options = {}) {
  const url = workbenchUrl(
    server,
    workspace,
    [['extensionDevelopmentPath', options.extensionPath ?? repoRoot], ['extensionTestsPath', testsModule]],
    kind === 'web' ? [['extensionDevelopmentKind', 'web']] : [],
  );
  return runExtensionTests(context, url, options);
}
