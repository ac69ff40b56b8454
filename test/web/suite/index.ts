// The extension tests of the web-worker extension host (test/web/run.mjs loads this bundle through
// `extensionTestsPath`): the tests of that host itself, then extension-host test files shared with the Node host's
// suite (test/e2e/suite), unchanged. The bundle is built for the browser (esbuild.mjs), so a test that needs Node
// fails the build instead of passing in the wrong host.
import './globals';
import './webHost.web';
import { runRegistered } from './bdd';

/** Shared tests of what the browser build does not do yet, by full title (or its beginning), with the reason. */
const NOT_IN_THE_BROWSER: { [title: string]: string } = {};

export async function run(): Promise<void> {
  const counts = await runRegistered({ timeoutMs: 60_000, skip: NOT_IN_THE_BROWSER });
  if (counts.failed > 0) throw new Error(`${counts.failed} web extension test(s) failed`);
  if (counts.passed === 0) throw new Error('no web extension test passed');
}
