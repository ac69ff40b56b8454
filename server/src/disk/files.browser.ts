/**
 * disk/files.ts for the browser build (esbuild.mjs puts this module in its place): a language server in a web worker
 * has no disk, so it asks the client, which reads through VS Code's file system (`workspace.fs`; on
 * github.dev a virtual one). A "path" here is the file's URI. The same bounds as on Node: a size cap per read, only
 * inside the workspace folders, text only, and a cap on the files a walk lists.
 */
import type * as NodeFiles from './files';
import type { ListFilesResult, ReadFileResult } from '../../../shared/requests';

export type { DiskReadOptions, DiskRead, UnreadableFolder, SkippedLink } from './files';

/** What the client answers (transport/browserConnection.ts sends the requests of shared/requests.ts). */
export interface ClientFiles {
  readFile(uri: string, maxBytes: number): Promise<ReadFileResult>;
  listFiles(folder: string, skippedFolders: string[], maxFiles: number): Promise<ListFilesResult>;
  fileKind(uri: string): Promise<'file' | 'other' | 'missing'>;
}

let client: ClientFiles | undefined;

/** Connects the reads to the client; before that (and without a client) every read says why it cannot be done. */
export function useClientFiles(files: ClientFiles | undefined): void {
  client = files;
}

/** A walk lists at most this many files of a folder (the first in name order; the walk says it was cut). */
export const maxListedFiles = 20_000;

export const bytesPerMB = 1024 * 1024;

export const formatMB: typeof NodeFiles.formatMB = (bytes) => `${(bytes / bytesPerMB).toFixed(bytes < 10 * bytesPerMB ? 1 : 0)} MB`;

/**
 * A URI with an absolute path (`file:`, `vscode-vfs:`, `vscode-remote:`, and `vscode-userdata:/User/…` where the
 * extension's storage is): the URI itself; undefined for `untitled:Untitled-1` and the like.
 */
export const pathOfUri: typeof NodeFiles.pathOfUri = (uri) => (/^[a-zA-Z][\w+.-]*:(?:\/\/[^/]*)?\//.test(uri) ? uri : undefined);

export const uriOfPath: typeof NodeFiles.uriOfPath = (path) => path;

/** No home folder in a browser: redaction hides secrets, and no user's home path can be in a browser's traces. */
export const homeFolder: typeof NodeFiles.homeFolder = () => undefined;

export const isPathInside: typeof NodeFiles.isPathInside = (folder, path) => {
  const base = folder.endsWith('/') ? folder : `${folder}/`;
  return path === folder || path.startsWith(base);
};

export const isInsideFolders: typeof NodeFiles.isInsideFolders = async (path, folders) => folders.some((folder) => isPathInside(folder, path));

const noClient = 'cannot read: the editor does not serve files to this language server';

export const readTextFile: typeof NodeFiles.readTextFile = async (path, options) => {
  if (options.folders && !(await isInsideFolders(path, options.folders))) {
    return { ok: false, reason: 'refused: the file is outside the workspace folders' };
  }
  if (!client) return { ok: false, reason: noClient };
  let read: ReadFileResult;
  try {
    read = await client.readFile(path, options.maxBytes);
  } catch (error) {
    return { ok: false, reason: `cannot read: ${errorCode(error)}` };
  }
  if (read.ok) return { ok: true, path, text: read.text };
  if (read.tooLarge !== undefined) {
    return {
      ok: false,
      reason: `refused: the file is ${formatMB(read.tooLarge)}, over the ${formatMB(options.maxBytes)} limit${options.setting ? ` (setting ${options.setting})` : ''}`,
    };
  }
  return { ok: false, reason: read.reason };
};

export const fileKind: typeof NodeFiles.fileKind = async (path, folders) => {
  if (!(await isInsideFolders(path, folders))) return 'outside';
  if (!client) return 'missing';
  return client.fileKind(path).catch(() => 'missing' as const);
};

export const skippedFolders: typeof NodeFiles.skippedFolders = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'out', '.cache', '.vscode-test']);

export const linkNotFollowed: typeof NodeFiles.linkNotFollowed = 'a symbolic link, not followed (a folder search does not follow links)';

export const isReportedLink: typeof NodeFiles.isReportedLink = (item, takes): item is NodeFiles.SkippedLink =>
  typeof item !== 'string' && 'to' in item && (item.to === 'folder' || takes(item.path));

/** The files below folder in name order, as the client lists them (links are not followed). */
export const walkFiles: typeof NodeFiles.walkFiles = async function* (folder) {
  if (!client) {
    yield { path: folder, reason: noClient };
    return;
  }
  let listed: ListFilesResult;
  try {
    listed = await client.listFiles(folder, [...skippedFolders], maxListedFiles);
  } catch (error) {
    yield { path: folder, reason: `cannot read this folder: ${errorCode(error)}` };
    return;
  }
  if (listed.problem) yield { path: folder, reason: `cannot read this folder: ${listed.problem}` };
  for (const uri of listed.uris) yield uri;
  if (listed.truncated) yield { path: folder, reason: `more than ${maxListedFiles} files (or folders): the first ${maxListedFiles} in name order were read` };
};

export const errorCode: typeof NodeFiles.errorCode = (error) => (error instanceof Error ? error.message : String(error));

/** No stamp through the client: a look at a file's head is not remembered, and is asked for again. */
export const fileStamp: typeof NodeFiles.fileStamp = async () => undefined;

/** Files read whole at most to look at their head: the client reads a file whole or not at all. */
const maxHeadSourceBytes = 16 * bytesPerMB;

/** The first `maxBytes` of a file, from the client's reading of it (the whole file, up to 16 MB); '' when it cannot be read. */
export const readFileHead: typeof NodeFiles.readFileHead = async (path, maxBytes) => {
  if (!client) return '';
  for (const cap of [maxBytes, maxHeadSourceBytes]) {
    const read = await client.readFile(path, cap).catch(() => undefined);
    if (read?.ok) return read.text.slice(0, maxBytes);
    if (read?.tooLarge === undefined) return '';
  }
  return '';
};
