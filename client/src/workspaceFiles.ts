/**
 * The workspace's files of a kind (rule-test manifests, rule files, traces) for the client's pickers and the Test
 * Explorer. VS Code's search (`findFiles`) finds them where a search provider serves the workspace folder's scheme;
 * where none does (a file system an extension provides, in VS Code for the Web), findFiles waits for one forever, so
 * a search that has not answered in time is cancelled and the folder is walked through `workspace.fs` instead, within
 * limits, as the browser's language server lists files (clientFiles.ts).
 */
import * as vscode from 'vscode';
import { walkFolder, type EditorFiles } from './clientFiles';

/** VS Code's file system, whatever provides it (github.dev's is virtual). */
export const editorFiles: EditorFiles = {
  stat: async (uri) => {
    const stat = await vscode.workspace.fs.stat(vscode.Uri.parse(uri, true));
    return { isFile: (stat.type & vscode.FileType.File) !== 0, size: stat.size };
  },
  readFile: (uri) => Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.parse(uri, true))),
  readDirectory: async (uri) => {
    const folder = vscode.Uri.parse(uri, true);
    return (await vscode.workspace.fs.readDirectory(folder)).map(([name, type]) => ({
      uri: vscode.Uri.joinPath(folder, name).toString(),
      name,
      kind: type & vscode.FileType.SymbolicLink ? 'link' : type & vscode.FileType.Directory ? 'folder' : type & vscode.FileType.File ? 'file' : 'other',
    }));
  },
};

/** How long VS Code's search may take to answer for a workspace folder before the folder is walked instead. */
const searchAnswerMs = 3_000;
/** Folders a walk reads at most, per workspace folder. */
const maxFoldersWalked = 2_000;
/**
 * Schemes whose last search had not answered in time: their folders are walked until that search answers (a search
 * provider that registers late, as a remote's does while its extension host starts) or gives up. Not `file:`, whose
 * search VS Code always serves (a slow search of a huge folder is walked this time only).
 */
const unsearchedSchemes = new Set<string>();
/** How long a search that has not answered in time is left to answer before it is cancelled. */
const lateAnswerMs = 60_000;

export interface FileQuery {
  /** The files, as a glob relative to a workspace folder (`**\/*.gr`). */
  glob: string;
  /** The same files, by name, for a walk. */
  nameMatches: (name: string) => boolean;
  /** Folder names left out (node_modules). */
  skippedFolders: readonly string[];
  maxFiles: number;
}

export interface FoundFiles {
  uris: vscode.Uri[];
  /** A limit ended the search (maxFiles, or the folders a walk reads). */
  truncated: boolean;
}

export async function findWorkspaceFiles(query: FileQuery): Promise<FoundFiles> {
  const uris: vscode.Uri[] = [];
  let truncated = false;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (uris.length >= query.maxFiles) {
      truncated = true;
      break;
    }
    const found = await findInFolder(folder, query, query.maxFiles - uris.length);
    uris.push(...found.uris);
    truncated ||= found.truncated;
  }
  return { uris, truncated };
}

async function findInFolder(folder: vscode.WorkspaceFolder, query: FileQuery, maxFiles: number): Promise<FoundFiles> {
  const scheme = folder.uri.scheme;
  if (!unsearchedSchemes.has(scheme)) {
    const found = await searchWithin(folder, query, maxFiles, (answered) => {
      if (answered) unsearchedSchemes.delete(scheme);
    });
    if (Array.isArray(found)) return { uris: found.slice(0, maxFiles), truncated: found.length > maxFiles };
    if (found === 'no answer' && scheme !== 'file') unsearchedSchemes.add(scheme);
  }
  const walked = await walkFolder(editorFiles, folder.uri.toString(), {
    skippedFolders: query.skippedFolders, maxFiles, maxFolders: maxFoldersWalked, accept: query.nameMatches,
  });
  return { uris: walked.uris.map((uri) => vscode.Uri.parse(uri, true)), truncated: walked.truncated };
}

/** VS Code's search in a folder, or 'no answer' in time (`late` says whether it answered afterwards), or 'failed'. */
async function searchWithin(
  folder: vscode.WorkspaceFolder, query: FileQuery, maxFiles: number, late: (answered: boolean) => void,
): Promise<vscode.Uri[] | 'no answer' | 'failed'> {
  const cancellation = new vscode.CancellationTokenSource();
  const exclude = query.skippedFolders.length > 0 ? `**/{${query.skippedFolders.join(',')}}/**` : null;
  const search = Promise.resolve(vscode.workspace.findFiles(new vscode.RelativePattern(folder, query.glob), exclude, maxFiles + 1, cancellation.token));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = await Promise.race([
    search.then((uris) => uris, () => 'failed' as const),
    new Promise<'no answer'>((resolve) => {
      timer = setTimeout(() => resolve('no answer'), searchAnswerMs);
    }),
  ]);
  clearTimeout(timer);
  if (answer !== 'no answer') {
    cancellation.dispose();
    return answer;
  }
  const giveUp = setTimeout(() => cancellation.cancel(), lateAnswerMs);
  search.then((uris) => late(!cancellation.token.isCancellationRequested && Array.isArray(uris)), () => late(false)).finally(() => {
    clearTimeout(giveUp);
    cancellation.dispose();
  });
  return answer;
}
