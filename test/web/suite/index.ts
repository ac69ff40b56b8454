// The extension tests of the web-worker extension host (test/web/run.mjs loads this bundle through
// `extensionTestsPath`): the tests of that host itself, then extension-host test files shared with the Node host's
// suite (test/e2e/suite), unchanged. The bundle is built for the browser (esbuild.mjs), so a test that needs Node
// fails the build instead of passing in the wrong host.
import './globals';
import './webHost.web';
import '../../e2e/suite/activation.e2e';
import '../../e2e/suite/trace.e2e';
import '../../e2e/suite/guardrail.e2e';
import '../../e2e/suite/rulesOnTraces.e2e';
import '../../e2e/suite/preview.e2e';
import '../../e2e/suite/sessions.e2e';
import '../../e2e/suite/anthropic.e2e';
import '../../e2e/suite/codexResponses.e2e';
import '../../e2e/suite/spans.e2e';
import '../../e2e/suite/editing.e2e';
import '../../e2e/suite/examples.e2e';
import '../../e2e/suite/lenses.e2e';
import '../../e2e/suite/ruleTests.e2e';
import '../../e2e/suite/whyNotHere.e2e';
import '../../e2e/suite/compare.e2e';
import '../../e2e/suite/inspect.e2e';
import './inspectArchive.web';
import '../../e2e/suite/ruleTimeLimit.e2e';
import './virtualFolder.web';
import './restart.web';
import * as vscode from 'vscode';
import { runRegistered } from './bdd';

/** Shared tests of what the browser build does not do yet, by full title (or its beginning), with the reason. */
const NOT_IN_THE_BROWSER: { [title: string]: string } = {
  'activation and languages activates on a .trace.json file and exposes its API':
    'the language server is a web worker there, which has no process id for serverInfo(); the activation is checked above',
};

/** The runner's options beside the workspace folder (the host has no environment variables): `{ "grep": "…" }`. */
async function runnerOptions(): Promise<{ grep?: string }> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!folder) return {};
  try {
    return JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, '..', 'web-tests.json'))));
  } catch {
    return {};
  }
}

export async function run(): Promise<void> {
  const { grep } = await runnerOptions();
  const counts = await runRegistered({ timeoutMs: 60_000, skip: NOT_IN_THE_BROWSER, grep });
  if (counts.failed > 0) throw new Error(`${counts.failed} web extension test(s) failed`);
  if (counts.passed === 0) throw new Error('no web extension test passed');
}
