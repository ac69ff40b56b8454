/**
 * How the command line reads a file it was given: as text, except an Inspect `.eval` archive, which is read as the
 * JSON log it holds (inspect/evalArchive.ts), under the same size limit applied to that log once inflated. Every
 * command that reads traces (check, eval, convert) reads through here, so an archive is the same log to each.
 */
import { readTextFile, readTextFileBytes, type DiskRead, type DiskReadOptions } from '../disk/files';
import { zipCodec } from '../archive/codec';
import { defaultEvalArchiveLimits, inspectLogOfArchive } from '../inspect/evalArchive';

export function isEvalArchivePath(path: string): boolean {
  return path.toLowerCase().endsWith('.eval');
}

export async function readInputText(path: string, options: DiskReadOptions): Promise<DiskRead> {
  if (!isEvalArchivePath(path)) return readTextFile(path, options);
  const read = await readTextFileBytes(path, { ...options, binary: true });
  if (!read.ok) return read;
  const log = await inspectLogOfArchive(read.bytes, zipCodec, { maxEntries: defaultEvalArchiveLimits.maxEntries, maxBytes: options.maxBytes, setting: options.setting });
  return log.ok ? { ok: true, path: read.path, text: log.text } : { ok: false, reason: log.reason };
}
