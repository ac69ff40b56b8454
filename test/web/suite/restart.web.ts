import * as vscode from 'vscode';
import { brokenFixtureDiagnostics, closeAllEditors, openFile, waitFor, waitForDiagnostics, withTimeout } from '../../e2e/suite/helpers';

// Last in the suite: a restart lists the Test Explorer's items again, which the tests before it count.
describe('the web worker server restarting', () => {
  after(closeAllEditors);

  it('starts again on agentTraces.restartServer, twice, from the bundle read once, and publishes the diagnostics again', async () => {
    const { document } = await openFile('broken-fixture.trace.json');
    const expected = brokenFixtureDiagnostics(document);
    await waitForDiagnostics(document.uri, expected, 'diagnostics before the restart');
    for (const round of [1, 2]) {
      let published = 0;
      const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
        if (event.uris.some((uri) => uri.toString() === document.uri.toString())) published++;
      });
      try {
        await withTimeout(Promise.resolve(vscode.commands.executeCommand('agentTraces.restartServer')), 30_000, `restart ${round}`);
        await waitFor(() => published > 0, 20_000, `the restarted server (round ${round}) to publish diagnostics`);
        await waitForDiagnostics(document.uri, expected, `the same diagnostics from the server restarted (round ${round})`);
      } finally {
        subscription.dispose();
      }
    }
  });
});
