import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, withTimeout, workspaceFile } from './helpers';

interface RuleCompareResult {
  traces: number;
  files: number;
  flips: { uri: string; line?: number; added: unknown[]; removed: { message: string; rule: number; location: { uri: string; range: { start: { line: number } } } }[] }[];
  limitNotice?: string;
  problem?: string;
}

const committed = 'raise "refund issued" if:\n    (call: ToolCall)\n    call is tool:issue_refund\n';

describe('what a rule change flips, in the editor', () => {
  after(closeAllEditors);

  it('"Compare with the Committed Version over the Workspace\'s Traces" lists the traces whose verdict the working copy flips', async function () {
    try {
      execFileSync('git', ['--version']);
    } catch {
      this.skip();
    }
    await activeApi();
    // The rule file in a repository of its own outside the workspace (see compare.e2e.ts); the traces are the workspace's.
    const folder = mkdtempSync(join(tmpdir(), 'agent-traces-rules-git-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Tests', '-c', 'user.email=tests@example.com', ...args], { cwd: folder, encoding: 'utf8' });
    const path = join(folder, 'refunds.gr');
    writeFileSync(path, committed);
    git('init', '-q');
    git('add', 'refunds.gr');
    git('commit', '-q', '-m', 'every refund is reported');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const editor = await vscode.window.showTextDocument(document);
    // The working copy, not saved: only refunds above 100 are reported now.
    await editor.edit((edit) => edit.insert(document.positionAt(document.getText().length), '    call.function.arguments.amount > 100\n'));

    let result: RuleCompareResult | undefined;
    try {
      result = await withTimeout(
        vscode.commands.executeCommand<RuleCompareResult>('agentTraces.compareRulesWithCommitted'),
        60_000, 'the comparison of the working copy with HEAD',
      );
    } finally {
      // The list of flips stays open until closed, and an unsaved rule file would ask to be saved when the
      // editors close: both are put away for the tests after this one.
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.ok(result, 'the command answers with the comparison');
    assert.equal(result.problem, undefined);
    assert.ok(result.traces >= 3, `traces compared: ${result.traces}`);
    const overpaid = workspaceFile('rules', 'fixtures', 'overpaid.trace.json').toString();
    const flip = result.flips.find((f) => f.uri === overpaid);
    assert.ok(flip, `the 80 EUR refund flips: ${JSON.stringify(result.flips.map((f) => f.uri))}`);
    assert.deepEqual(flip.added, []);
    assert.deepEqual(flip.removed.map((v) => [v.message, v.rule]), [['refund issued', 1]]);
    const approved = workspaceFile('rules', 'fixtures', 'approved.trace.json').toString();
    assert.equal(result.flips.some((f) => f.uri === approved), false, 'the 240 EUR refund is reported by both versions');
    assert.ok(result.flips.every((f) => f.added.length === 0), 'the change only removes violations');
  });
});
