import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, brokenFixtureDiagnostics, closeAllEditors, openFile, waitFor, waitForDiagnostics, withTimeout } from './helpers';

describe('language server restart', () => {
  after(closeAllEditors);

  it('restarts the server after it is killed and publishes the diagnostics again', async () => {
    const { document } = await openFile('broken-fixture.trace.json');
    const api = await activeApi();
    const expected = brokenFixtureDiagnostics(document);
    await waitForDiagnostics(document.uri, expected, 'diagnostics before the kill');
    const before = await api.serverInfo();

    let publishedAfterKill = 0;
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (event.uris.some((uri) => uri.toString() === document.uri.toString())) publishedAfterKill++;
    });
    try {
      process.kill(before.pid, 'SIGKILL');
      const after = await waitFor(
        async () => {
          const info = await withTimeout(api.serverInfo(), 2_000, 'serverInfo');
          return info.pid !== before.pid ? info : undefined;
        },
        30_000,
        `a new server process (the killed one was ${before.pid})`,
        { pollMs: 250 },
      );
      assert.notEqual(after.pid, before.pid);
      await waitFor(() => publishedAfterKill > 0, 20_000, 'the restarted server to publish diagnostics');
      await waitForDiagnostics(document.uri, expected, 'the same diagnostics from the restarted server');
    } finally {
      subscription.dispose();
    }
  });

  it('restarts on the agentTraces.restartServer command', async () => {
    const { document } = await openFile('broken-fixture.trace.json');
    const api = await activeApi();
    const before = await api.serverInfo();
    await vscode.commands.executeCommand('agentTraces.restartServer');
    const after = await waitFor(
      async () => {
        const info = await withTimeout(api.serverInfo(), 2_000, 'serverInfo');
        return info.pid !== before.pid ? info : undefined;
      },
      30_000,
      'a new server process after agentTraces.restartServer',
      { pollMs: 250 },
    );
    assert.notEqual(after.pid, before.pid);
    await waitForDiagnostics(document.uri, brokenFixtureDiagnostics(document), 'diagnostics after the restart command');
  });
});
