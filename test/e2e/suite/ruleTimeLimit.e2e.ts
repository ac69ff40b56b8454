import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, diagnosticCode, waitFor, workspaceFile } from './helpers';

// The time limit on a rule holds in both hosts: in the browser the rule runs in a nested web worker (from a blob: URL),
// which the server ends when the rule runs past the limit, as it ends a worker thread on Node.
describe('a rule\'s time limit (agentTraces.guardrails.timeout)', () => {
  const trace = workspaceFile('backtracks.trace.json');
  const rule = workspaceFile('rules', 'backtracks.gr');
  const settings = () => vscode.workspace.getConfiguration('agentTraces.guardrails');

  before(async () => {
    await activeApi();
    await settings().update('timeout', 300, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.fs.writeFile(trace, new TextEncoder().encode(JSON.stringify([{ role: 'user', content: `${'a'.repeat(30)}!` }], null, 2)));
    await vscode.workspace.fs.writeFile(rule, new TextEncoder().encode('raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n'));
  });

  after(async () => {
    await closeAllEditors();
    await settings().update('timeout', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.fs.delete(trace);
    await vscode.workspace.fs.delete(rule);
  });

  it('stops a rule stuck in one regular expression at the limit, and says so on the trace', async () => {
    await vscode.window.showTextDocument(trace, { preview: false });
    await vscode.window.showTextDocument(rule, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    const stopped = await waitFor(
      () => vscode.languages.getDiagnostics(trace).find((d) => diagnosticCode(d) === 'guardrails/timeout'),
      60_000, 'the time limit\'s notice on the trace',
    );
    assert.equal(stopped.message, 'backtracks.gr: Rule 1 stopped after running 300 ms on this trace (the time limit); its violations are not reported (setting agentTraces.guardrails.timeout)');
  });
});
