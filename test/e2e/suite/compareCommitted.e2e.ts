import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { closeAllEditors, compareTabs, EXTENSION_ID, renderCompareAfter, workspaceFile } from './helpers';

// Apart from compare.e2e.ts, which the web tier runs too: this one makes a repository with git, a Node program.
describe('compare views of a committed version', () => {
  before(async () => {
    await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  });
  beforeEach(closeAllEditors);
  after(closeAllEditors);

  it('"Compare with Committed Version" compares the working copy with HEAD', async function () {
    try {
      execFileSync('git', ['--version']);
    } catch {
      this.skip();
    }
    // A repository of its own outside the workspace: the git extension keeps watching a repository once it found
    // it, so the workspace's copy stays free of one. (Left in the temporary folder: removing it under the
    // extension's watch makes its next operations fail.)
    const folder = mkdtempSync(join(tmpdir(), 'agent-traces-git-'));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Tests', '-c', 'user.email=tests@example.com', ...args], { cwd: folder, encoding: 'utf8' });
    const committed = (await vscode.workspace.fs.readFile(workspaceFile('runs', 'booking-before.trace.json'))).toString();
    const path = join(folder, 'booking.trace.json');
    writeFileSync(path, committed);
    git('init', '-q');
    git('add', 'booking.trace.json');
    git('commit', '-q', '-m', 'the first run');
    writeFileSync(path, committed.replace('"seat\\": \\"12A\\"', '"seat\\": \\"3F\\"'));
    const file = vscode.Uri.file(path);
    await vscode.window.showTextDocument(file);
    const drawn = await renderCompareAfter(() => vscode.commands.executeCommand('agentTraces.compareWithCommitted'), 'the working copy compared with HEAD');
    assert.deepEqual([drawn.left, drawn.right], [file.toString(), file.toString()]);
    assert.deepEqual([drawn.counts.changed, drawn.counts.added, drawn.counts.removed], [1, 0, 0]);
    assert.deepEqual(compareTabs().map((tab) => tab.label), ['booking.trace.json (HEAD) ↔ booking.trace.json (working copy)']);
  });
});
