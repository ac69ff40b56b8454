import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, testItemIds, waitFor, withTimeout, workspaceFile } from '../../e2e/suite/helpers';

const scheme = 'agent-traces-memory';
const root = vscode.Uri.from({ scheme, path: '/virtual' });

/** A file system held in memory, with no search provider: VS Code's `findFiles` waits for one forever there. */
class MemoryFiles implements vscode.FileSystemProvider {
  readonly files = new Map<string, Uint8Array>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const file = this.files.get(uri.path);
    if (file) return { type: vscode.FileType.File, ctime: 0, mtime: 0, size: file.length };
    if ([...this.files.keys()].some((path) => path.startsWith(`${uri.path}/`))) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const entries = new Map<string, vscode.FileType>();
    for (const path of this.files.keys()) {
      if (!path.startsWith(`${uri.path}/`)) continue;
      const [name, ...below] = path.slice(uri.path.length + 1).split('/');
      entries.set(name, below.length > 0 ? vscode.FileType.Directory : vscode.FileType.File);
    }
    return [...entries];
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const file = this.files.get(uri.path);
    if (!file) throw vscode.FileSystemError.FileNotFound(uri);
    return file;
  }

  writeFile(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }

  createDirectory(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }

  delete(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }

  rename(): void {
    throw vscode.FileSystemError.NoPermissions('read-only');
  }
}

async function changeFolders(change: () => boolean, done: (event: vscode.WorkspaceFoldersChangeEvent) => boolean, description: string): Promise<void> {
  let subscription: vscode.Disposable | undefined;
  const changed = new Promise<void>((resolve) => {
    subscription = vscode.workspace.onDidChangeWorkspaceFolders((event) => done(event) && resolve());
  });
  try {
    assert.ok(change(), `VS Code took the change: ${description}`);
    await withTimeout(changed, 20_000, description);
  } finally {
    subscription?.dispose();
  }
}

describe('a workspace folder VS Code cannot search (a file system an extension provides)', () => {
  const memory = new MemoryFiles();
  let registration: vscode.Disposable | undefined;
  const isOurs = (folder: vscode.WorkspaceFolder) => folder.uri.scheme === scheme;

  before(async () => {
    // The workspace's rules folder (the refunds rule, its manifest and fixtures), copied.
    const copy = async (from: vscode.Uri, to: string): Promise<void> => {
      for (const [name, type] of await vscode.workspace.fs.readDirectory(from)) {
        if (type === vscode.FileType.Directory) await copy(vscode.Uri.joinPath(from, name), `${to}/${name}`);
        else if (type === vscode.FileType.File) memory.files.set(`${to}/${name}`, await vscode.workspace.fs.readFile(vscode.Uri.joinPath(from, name)));
      }
    };
    await copy(workspaceFile('rules'), `${root.path}/rules`);
    registration = vscode.workspace.registerFileSystemProvider(scheme, memory, { isReadonly: true });
  });

  after(async () => {
    await closeAllEditors();
    const index = vscode.workspace.workspaceFolders?.findIndex(isOurs) ?? -1;
    if (index >= 0) {
      await changeFolders(() => vscode.workspace.updateWorkspaceFolders(index, 1), (event) => event.removed.some(isOurs), 'the memory folder to be removed');
    }
    registration?.dispose();
  });

  it('lists its rule-test manifests in the Test Explorer, by walking the folder, and runs them', async () => {
    // The premise: VS Code's search does not answer for this scheme.
    const cancellation = new vscode.CancellationTokenSource();
    const search = await withTimeout(vscode.workspace.findFiles(new vscode.RelativePattern(root, '**/*'), null, 10, cancellation.token), 1_000, 'a search')
      .then(() => 'answered', () => 'no answer');
    cancellation.cancel();
    assert.equal(search, 'no answer', 'findFiles waits for a search provider for the scheme');

    const api = await activeApi();
    await changeFolders(
      () => vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders?.length ?? 0, 0, { uri: root, name: 'virtual' }),
      (event) => event.added.some(isOurs), 'the memory folder to be added',
    );
    const manifest = vscode.Uri.joinPath(root, 'rules', 'refunds.tests.json');
    const rules = vscode.Uri.joinPath(root, 'rules', 'refunds.gr');
    const ruleItem = await waitFor(() => api.ruleTests.controller.items.get(`rules:${rules.toString()}`), 30_000, 'the rule file of the memory folder in the Test Explorer');
    const manifestItem = ruleItem.children.get(`manifest:${manifest.toString()}`);
    assert.ok(manifestItem, 'its manifest under it');
    assert.equal(manifestItem.children.size, 4);
    // The workspace's own manifest is still listed beside it.
    assert.ok(api.ruleTests.controller.items.get(`rules:${workspaceFile('rules', 'refunds.gr').toString()}`), 'the first folder\'s rule file too');

    const report = await withTimeout(api.ruleTests.runManifest(manifest), 60_000, 'the memory folder\'s rule tests to run');
    assert.deepEqual(report.cases.map((c) => [c.label, c.state]), [
      ['a refund over the limit without approval is caught', 'passed'],
      ['an approved refund passes', 'passed'],
      ['a refund above the order total is caught, below the limit', 'passed'],
      ['a lower limit catches a small refund', 'passed'],
    ]);

    // Removed, the folder's tests leave the Test Explorer.
    const index = vscode.workspace.workspaceFolders!.findIndex(isOurs);
    await changeFolders(() => vscode.workspace.updateWorkspaceFolders(index, 1), (event) => event.removed.some(isOurs), 'the memory folder to be removed');
    await waitFor(() => !testItemIds(api.ruleTests.controller.items).some((id) => id.includes(`${scheme}:`)), 30_000, 'the memory folder\'s tests to leave the Test Explorer');
  });
});
