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
 * Schemes whose search did not answer in time: their folders are walked from then on. Not `file:`, whose search VS
 * Code always serves (a slow search of a huge folder is walked this time only).
 */
const unsearchedSchemes = new Set<string>();

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
  if (!unsearchedSchemes.has(folder.uri.scheme)) {
    const found = await searchWithin(folder, query, maxFiles);
    if (Array.isArray(found)) return { uris: found.slice(0, maxFiles), truncated: found.length > maxFiles };
    if (found === 'no answer' && folder.uri.scheme !== 'file') unsearchedSchemes.add(folder.uri.scheme);
  }
  const walked = await walkFolder(editorFiles, folder.uri.toString(), {
    skippedFolders: query.skippedFolders, maxFiles, maxFolders: maxFoldersWalked, accept: query.nameMatches,
  });
  return { uris: walked.uris.map((uri) => vscode.Uri.parse(uri, true)), truncated: walked.truncated };
}

async function searchWithin(folder: vscode.WorkspaceFolder, query: FileQuery, maxFiles: number): Promise<vscode.Uri[] | 'no answer' | 'failed'> {
  const cancellation = new vscode.CancellationTokenSource();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const exclude = query.skippedFolders.length > 0 ? `**/{${query.skippedFolders.join(',')}}/**` : null;
  try {
    return await Promise.race([
      Promise.resolve(vscode.workspace.findFiles(new vscode.RelativePattern(folder, query.glob), exclude, maxFiles + 1, cancellation.token))
        .then((uris) => uris, () => 'failed' as const),
      new Promise<'no answer'>((resolve) => {
        timer = setTimeout(() => resolve('no answer'), searchAnswerMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    cancellation.cancel();
    cancellation.dispose();
  }
}
