/**
 * A file's committed version (`HEAD`), as VS Code's own "Open Changes" reads it: through the git extension's API
 * when it knows the file's repository, else with `git show` in the file's folder. Also the URI that version opens
 * under (the git extension's `git:` URI), so that a click on it in the compare view shows it.
 */
import * as vscode from 'vscode';
import { committedWithGitCommand, noGitCommand } from './gitCommand';

interface GitRepository {
  show(ref: string, path: string): Promise<string>;
}

interface GitApi {
  getRepository(uri: vscode.Uri): GitRepository | null;
  toGitUri(uri: vscode.Uri, ref: string): vscode.Uri;
}

export type CommittedVersion = { ok: true; text: string; uri: vscode.Uri } | { ok: false; reason: string };

async function gitApi(): Promise<GitApi | undefined> {
  const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
  if (!extension) return undefined;
  try {
    const exports = extension.isActive ? extension.exports : await extension.activate();
    return exports?.getAPI(1);
  } catch {
    return undefined;
  }
}

/** The file's text at HEAD; `maxBytes` bounds what is read (agentTraces.files.maxSizeMB). */
export async function committedVersion(uri: vscode.Uri, maxBytes: number): Promise<CommittedVersion> {
  if (uri.scheme !== 'file') {
    return { ok: false, reason: noGitCommand ? `it has no committed version here (${noGitCommand}, and VS Code's git extension reads only files on disk)` : 'only files on disk have a committed version' };
  }
  const api = await gitApi();
  const gitUri = api?.toGitUri(uri, 'HEAD') ?? vscode.Uri.from({ scheme: 'git', path: uri.path, query: JSON.stringify({ path: uri.fsPath, ref: 'HEAD' }) });
  const repository = api?.getRepository(uri);
  if (repository) {
    try {
      return { ok: true, text: await repository.show('HEAD', uri.fsPath), uri: gitUri };
    } catch {
      // The extension's repository may not have the file at HEAD, or not be ready yet: git itself says which.
    }
  }
  const read = await committedWithGitCommand(uri.fsPath, maxBytes);
  return read.ok ? { ok: true, text: read.text, uri: gitUri } : read;
}
