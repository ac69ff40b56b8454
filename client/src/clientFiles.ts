/**
 * The client's answers to a language server that cannot read files itself (VS Code for the Web: the server runs in a
 * web worker): reads and folder listings through VS Code's file system (`workspace.fs`), with the caps the server
 * sends. (Not `findFiles`: a host without a search provider for the workspace's scheme, as code-server's web worker
 * host, waits for one forever.)
 * Written over a small interface of what it needs from VS Code, so that its bounds are tested without an editor.
 */
import type { ListFilesParams, ListFilesResult, ReadFileParams, ReadFileResult } from '../../shared/requests';

/** What the answers need from VS Code (`workspace.fs`). */
export interface EditorFiles {
  /** The entry's kind and size; rejects when there is none. */
  stat(uri: string): Promise<{ isFile: boolean; size: number }>;
  readFile(uri: string): Promise<Uint8Array>;
  /** A folder's entries: each one's URI, name and kind (a symbolic link is 'link', whatever it points to). */
  readDirectory(uri: string): Promise<{ uri: string; name: string; kind: 'file' | 'folder' | 'link' | 'other' }[]>;
}

/** How far into a file a NUL byte makes it binary, as the Node server's reads look (disk/files.ts). */
const binaryProbeBytes = 8192;

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code !== '' && code !== 'Unknown' ? code : error instanceof Error ? error.message : String(error);
}

export async function answerReadFile(files: EditorFiles, params: ReadFileParams): Promise<ReadFileResult> {
  let stat;
  try {
    stat = await files.stat(params.uri);
  } catch (error) {
    return { ok: false, reason: `cannot read: ${reasonOf(error)}` };
  }
  if (!stat.isFile) return { ok: false, reason: 'refused: not a regular file' };
  if (stat.size > params.maxBytes) return { ok: false, reason: 'refused: too large', tooLarge: stat.size };
  let bytes: Uint8Array;
  try {
    bytes = await files.readFile(params.uri);
  } catch (error) {
    return { ok: false, reason: `cannot read: ${reasonOf(error)}` };
  }
  // The file may have grown since its size was read.
  if (bytes.length > params.maxBytes) return { ok: false, reason: 'refused: too large', tooLarge: bytes.length };
  if (bytes.subarray(0, binaryProbeBytes).includes(0)) return { ok: false, reason: 'refused: a binary file (NUL bytes), not text' };
  return { ok: true, text: new TextDecoder().decode(bytes) };
}

/** Folders a listing may read even when it may list fewer files. */
export const minFoldersRead = 100;

/**
 * The files below a folder in name order, depth first, as the Node server's walk lists them (disk/files.ts): the
 * skipped folders left out, symbolic links not followed, at most `maxFiles` files, and as many folders read (at least
 * minFoldersRead): a tree of empty folders ends too.
 */
export function answerListFiles(files: EditorFiles, params: ListFilesParams): Promise<ListFilesResult> {
  return walkFolder(files, params.folder, { skippedFolders: params.skippedFolders, maxFiles: params.maxFiles, maxFolders: Math.max(params.maxFiles, minFoldersRead) });
}

export interface WalkLimits {
  /** Folder names never entered (node_modules, .git). */
  skippedFolders: readonly string[];
  /** Files listed at most (of those `accept` takes). */
  maxFiles: number;
  /** Folders read at most. */
  maxFolders: number;
  /** Which files to list, by name (all when absent). */
  accept?: (name: string) => boolean;
}

/** A bounded walk of a folder through VS Code's file system: `truncated` when a limit ended it. */
export async function walkFolder(files: EditorFiles, folder: string, limits: WalkLimits): Promise<ListFilesResult> {
  const skipped = new Set(limits.skippedFolders);
  const uris: string[] = [];
  let foldersLeft = limits.maxFolders;
  let problem: string | undefined;
  const walk = async (folder: string): Promise<boolean> => {
    if (foldersLeft-- <= 0) return false;
    let entries;
    try {
      entries = await files.readDirectory(folder);
    } catch (error) {
      problem ??= `${folder}: ${reasonOf(error)}`;
      return true;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.kind === 'folder') {
        if (!skipped.has(entry.name) && !(await walk(entry.uri))) return false;
      } else if (entry.kind === 'file' && (!limits.accept || limits.accept(entry.name))) {
        if (uris.length >= limits.maxFiles) return false;
        uris.push(entry.uri);
      }
    }
    return true;
  };
  const complete = await walk(folder);
  return problem ? { uris, truncated: !complete, problem } : { uris, truncated: !complete };
}

export async function answerFileKind(files: EditorFiles, uri: string): Promise<'file' | 'other' | 'missing'> {
  try {
    return (await files.stat(uri)).isFile ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}
