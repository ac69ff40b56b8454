import { constants, promises as fs } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { homedir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Every read of a trace or rule file from disk goes through here (the preview of files too large to open, the
 * workspace tool index, watched-file events, the command-line checker): regular files only, never more than a
 * byte cap, and for the server only inside the workspace folders, with symlinks resolved before the check.
 */
export interface DiskReadOptions {
  /** Files larger than this are refused (not read in part: a cut trace would report false errors). */
  maxBytes: number;
  /** Folder paths (not URIs) the file must lie in after resolving symlinks; undefined: anywhere (the CLI). */
  folders?: string[];
  /** The setting that sets maxBytes, named in the refusal. */
  setting?: string;
  /** Read a binary file too (an archive): no refusal for NUL bytes. */
  binary?: boolean;
}

export type DiskRead = { ok: true; path: string; text: string } | { ok: false; reason: string };

/** A file's bytes as read; `path` is its real path (symlinks resolved). */
export type DiskBytes = { ok: true; path: string; bytes: Buffer } | { ok: false; reason: string };

export const bytesPerMB = 1024 * 1024;

export function formatMB(bytes: number): string {
  return `${(bytes / bytesPerMB).toFixed(bytes < 10 * bytesPerMB ? 1 : 0)} MB`;
}

/** The file path of a file: URI, or undefined for any other URI (untitled, virtual workspaces). */
export function pathOfUri(uri: string): string | undefined {
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** The file: URI of a path. */
export function uriOfPath(path: string): string {
  return pathToFileURL(path).toString();
}

/** The user's home folder, which redaction hides in converted traces. */
export function homeFolder(): string | undefined {
  return homedir();
}

/**
 * Whether a path names a regular file: 'outside' when it lies outside the folders (after resolving links), where
 * nothing is said about it.
 */
export async function fileKind(path: string, folders: string[]): Promise<'file' | 'other' | 'missing' | 'outside'> {
  const stat = await fs.stat(path).catch(() => undefined);
  if (!stat) return 'missing';
  const real = await fs.realpath(path).catch(() => path);
  if (!(await isInsideFolders(real, folders))) return 'outside';
  return stat.isFile() ? 'file' : 'other';
}

/** True when path is folder or lies below it (both already resolved: no links, no `..`). */
export function isPathInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** True when path (already resolved) lies in one of the folders (resolved here). */
export async function isInsideFolders(path: string, folders: string[]): Promise<boolean> {
  for (const folder of folders) {
    const real = await fs.realpath(folder).catch(() => undefined);
    if (real && isPathInside(real, path)) return true;
  }
  return false;
}

export async function readTextFile(path: string, options: DiskReadOptions): Promise<DiskRead> {
  const read = await readTextFileBytes(path, options);
  return read.ok ? { ok: true, path: read.path, text: read.bytes.toString('utf8') } : read;
}

/** The bytes of a text file under the same checks as readTextFile (for a writer that must keep every byte it does not change). */
export async function readTextFileBytes(path: string, options: DiskReadOptions): Promise<DiskBytes> {
  let real: string;
  try {
    real = await fs.realpath(path);
  } catch (error) {
    return { ok: false, reason: `cannot read: ${errorCode(error)}` };
  }
  if (options.folders && !(await isInsideFolders(real, options.folders))) {
    return { ok: false, reason: 'refused: the file is outside the workspace folders' };
  }
  const tooLarge = (size: number) => ({
    ok: false as const,
    reason: `refused: the file is ${formatMB(size)}, over the ${formatMB(options.maxBytes)} limit${options.setting ? ` (setting ${options.setting})` : ''}`,
  });
  let handle: fs.FileHandle | undefined;
  try {
    const before = await fs.stat(real);
    if (!before.isFile()) return { ok: false, reason: 'refused: not a regular file' };
    if (before.size > options.maxBytes) return tooLarge(before.size);
    // O_NONBLOCK: a FIFO swapped in after the check must not hold one of Node's I/O threads forever.
    handle = await fs.open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    const opened = await handle.stat();
    if (!opened.isFile()) return { ok: false, reason: 'refused: not a regular file' };
    if (opened.size > options.maxBytes) return tooLarge(opened.size);
    // Read at most one byte past the cap, whatever the size said (the file may grow while it is read).
    const buffer = Buffer.allocUnsafe(Math.min(opened.size, options.maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > options.maxBytes) return tooLarge(length);
    if (!options.binary && buffer.subarray(0, Math.min(length, 8192)).includes(0)) return { ok: false, reason: 'refused: a binary file (NUL bytes), not text' };
    return { ok: true, path: real, bytes: buffer.subarray(0, length) };
  } catch (error) {
    return { ok: false, reason: `cannot read: ${errorCode(error)}` };
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Folders no walk goes into: dependencies, version control, build output and caches. */
export const skippedFolders: ReadonlySet<string> = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'out', '.cache', '.vscode-test']);

export interface UnreadableFolder {
  path: string;
  reason: string;
}

/** A symbolic link a walk did not follow (it could lead out of the folder, or around in a loop), for walks that report them. */
export interface SkippedLink {
  path: string;
  /** What it points to: a folder, or anything else (a file, nothing, a device). */
  to: 'folder' | 'other';
}

/** Why a walk left a link out, in its report. */
export const linkNotFollowed = 'a symbolic link, not followed (a folder search does not follow links)';

/** A link worth reporting: one to a folder (it may hold such files), or one named like a file the walk takes. */
export function isReportedLink(item: string | UnreadableFolder | SkippedLink, takes: (path: string) => boolean): item is SkippedLink {
  return typeof item !== 'string' && 'to' in item && (item.to === 'folder' || takes(item.path));
}

/**
 * Files below folder in name order, leaving out skippedFolders; a folder that cannot be read is yielded as an
 * UnreadableFolder, a symbolic link as a SkippedLink, and the walk goes on.
 */
export async function* walkFiles(folder: string): AsyncGenerator<string | UnreadableFolder | SkippedLink> {
  let entries;
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch (error) {
    yield { path: folder, reason: `cannot read this folder: ${errorCode(error)}` };
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) yield* walkFiles(path);
    } else if (entry.isFile()) {
      yield path;
    } else if (entry.isSymbolicLink()) {
      const target = await fs.stat(path).catch(() => undefined);
      yield { path, to: target?.isDirectory() ? 'folder' : 'other' };
    }
  }
}

export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/** A regular file's size and modification time (what says it changed), or undefined for anything else. */
export async function fileStamp(path: string): Promise<{ size: number; mtimeMs: number } | undefined> {
  const stat = await fs.stat(path).catch(() => undefined);
  return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
}

/**
 * The first `maxBytes` of a regular file as text (a file that cannot be read, or is no regular file, gives ''): what
 * a look at its head needs.
 */
export async function readFileHead(path: string, maxBytes: number): Promise<string> {
  let handle: fs.FileHandle | undefined;
  try {
    // O_NONBLOCK: a FIFO named like a file must not hold one of Node's I/O threads.
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!(await handle.stat()).isFile()) return '';
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } catch {
    return '';
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
