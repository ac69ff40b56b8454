import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, openFile, positionIn, waitFor, withTimeout, workspaceFile, type RuleTestsRunReport } from './helpers';

const manifestPath = ['rules', 'refunds.tests.json'];

/** Runs a Test Explorer command as the user does, and resolves with the report of the run it starts. */
async function runWith(command: string, ...args: unknown[]): Promise<RuleTestsRunReport> {
  const api = await activeApi();
  let subscription: vscode.Disposable | undefined;
  const finished = new Promise<RuleTestsRunReport>((resolve) => {
    subscription = api.ruleTests.onDidFinishRun(resolve);
  });
  try {
    await vscode.commands.executeCommand(command, ...args);
    return await withTimeout(finished, 60_000, `a run of the rule tests after ${command}`);
  } finally {
    subscription?.dispose();
  }
}

function states(report: RuleTestsRunReport): [string, string][] {
  return report.cases.map((c) => [c.label, c.state]);
}

describe('rule tests in the Test Explorer', () => {
  let original: string | undefined;
  beforeEach(closeAllEditors);
  after(async () => {
    if (original !== undefined) await vscode.workspace.fs.writeFile(workspaceFile(...manifestPath), new TextEncoder().encode(original));
    await closeAllEditors();
  });

  it('lists a manifest under its rule file, with a test item per case in the manifest\'s gutter', async () => {
    const api = await activeApi();
    await withTimeout(api.ruleTests.discovered(), 30_000, 'the rule-test manifests to be listed');
    const rulesUri = workspaceFile('rules', 'refunds.gr').toString();
    const ruleItem = await waitFor(() => api.ruleTests.controller.items.get(`rules:${rulesUri}`), 20_000, 'the test item of refunds.gr');
    // In the rule file's gutter: the item has the rule file's place.
    assert.equal(ruleItem.uri?.toString(), rulesUri);
    assert.ok(ruleItem.range, 'the rule file item has a range (its gutter icon)');
    const manifest = ruleItem.children.get(`manifest:${workspaceFile(...manifestPath).toString()}`);
    assert.ok(manifest, 'the manifest is a child of its rule file');
    const cases: [string, number][] = [];
    manifest.children.forEach((item) => cases.push([item.label, item.range!.start.line]));
    assert.deepEqual(cases, [
      ['a refund over the limit without approval is caught', 5],
      ['an approved refund passes', 10],
      ['a refund above the order total is caught, below the limit', 15],
      ['a lower limit catches a small refund', 20],
    ]);
  });

  it('runs every case, and shows a failure with the difference at the trace\'s place', async () => {
    const passing = await runWith('testing.runAll');
    assert.deepEqual(states(passing), [
      ['a refund over the limit without approval is caught', 'passed'],
      ['an approved refund passes', 'passed'],
      ['a refund above the order total is caught, below the limit', 'passed'],
      ['a lower limit catches a small refund', 'passed'],
    ]);

    // The approved refund now expects a violation it does not raise: a missing violation.
    const { document, editor } = await openFile(...manifestPath);
    original = document.getText();
    const empty = document.getText().indexOf('"expect": []');
    assert.ok(empty > 0);
    await editor.edit((edit) => edit.replace(
      new vscode.Range(document.positionAt(empty), document.positionAt(empty + '"expect": []'.length)),
      '"expect": [ { "message": "refund needs approval" } ]',
    ));
    await document.save();
    await waitFor(() => !document.isDirty, 10_000, 'the manifest to be saved');

    const report = await runWith('testing.runAll');
    assert.deepEqual(states(report), [
      ['a refund over the limit without approval is caught', 'passed'],
      ['an approved refund passes', 'failed'],
      ['a refund above the order total is caught, below the limit', 'passed'],
      ['a lower limit catches a small refund', 'passed'],
    ]);
    const [failure] = report.cases[1].messages;
    assert.equal(failure.text, 'missing "refund needs approval"');
    // The difference the Test Explorer shows: what was expected against what the rules found.
    assert.equal(failure.expected, '"refund needs approval"\n');
    assert.equal(failure.actual, '(no violations)\n');
    assert.equal(failure.uri, workspaceFile('rules', 'fixtures', 'approved.trace.json').toString(), 'the failure opens the case\'s trace');
  });

  it('runs the case at the cursor in the manifest (its gutter), and only that case', async () => {
    const { editor, document } = await openFile(...manifestPath);
    const position = positionIn(document, 'a lower limit catches a small refund');
    editor.selection = new vscode.Selection(position, position);
    const report = await runWith('testing.runAtCursor');
    assert.deepEqual(states(report), [['a lower limit catches a small refund', 'passed']]);
  });

  it('a coverage run counts the rules the cases fired', async () => {
    const report = await runWith('testing.coverageAll');
    assert.deepEqual(report.coverage.map((c) => [c.uri, c.covered, c.total]), [[workspaceFile('rules', 'refunds.gr').toString(), 2, 3]]);
  });
});
