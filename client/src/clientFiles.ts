/**
 * The client's answers to a language server that cannot read files itself (VS Code for the Web: the server runs in a
 * web worker): reads through VS Code's file system, listings through its file search, with the caps the server sends.
 * Written over a small interface of what it needs from VS Code, so that its bounds are tested without an editor.
 */
import type { ListFilesParams, ListFilesResult, ReadFileParams, ReadFileResult } from '../../shared/requests';

/** What the answers need from VS Code (`workspace.fs`, `workspace.findFiles`). */
export interface EditorFiles {
  /** The entry's kind and size; rejects when there is none. */
  stat(uri: string): Promise<{ isFile: boolean; size: number }>;
  readFile(uri: string): Promise<Uint8Array>;
  /** Files below `folder`, leaving out `exclude`, at most `maxResults`, as URI strings. */
  findFiles(folder: string, exclude: string, maxResults: number): Promise<string[]>;
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

export async function answerListFiles(files: EditorFiles, params: ListFilesParams): Promise<ListFilesResult> {
  const exclude = params.skippedFolders.length > 0 ? `**/{${params.skippedFolders.join(',')}}/**` : '';
  let uris: string[];
  try {
    uris = await files.findFiles(params.folder, exclude, params.maxFiles + 1);
  } catch (error) {
    return { uris: [], truncated: false, problem: reasonOf(error) };
  }
  uris.sort();
  const truncated = uris.length > params.maxFiles;
  return { uris: truncated ? uris.slice(0, params.maxFiles) : uris, truncated };
}

export async function answerFileKind(files: EditorFiles, uri: string): Promise<'file' | 'other' | 'missing'> {
  try {
    return (await files.stat(uri)).isFile ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}
