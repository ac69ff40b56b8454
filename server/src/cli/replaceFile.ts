/**
 * Writing a fixed file in one step: the new bytes go to a temporary file beside it, which takes the file's mode and
 * owner and is renamed over it only while the file still holds what was read. A write that fails (a full disk, a
 * file-size limit) or a file changed meanwhile leaves the file as it was; no reader ever sees half of it.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, promises as fs, rmSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { errorCode } from '../disk/files';

export type Replaced = { ok: true } | { ok: false; reason: string };

/** `path` is the file's real path (no symbolic link: renaming over a link would replace the link, not its file). */
export async function replaceFile(path: string, expected: Uint8Array, contents: Uint8Array): Promise<Replaced> {
  let before: Stats;
  try {
    before = await fs.lstat(path);
  } catch (error) {
    return { ok: false, reason: `cannot read it again (${errorCode(error)})` };
  }
  if (!before.isFile()) return { ok: false, reason: 'it is no longer a regular file' };
  if (before.nlink > 1) return { ok: false, reason: `it has ${before.nlink} hard links, which writing a new file in its place would separate` };
  const temporary = temporaryBeside(path);
  let step = 'write the fixed file beside it';
  let handle: fs.FileHandle | undefined;
  try {
    handle = await openTemporary(temporary, 0o600);
    await handle.writeFile(contents);
    const made = await handle.stat();
    if (made.uid !== before.uid || made.gid !== before.gid) {
      step = "give the fixed file the file's owner";
      await handle.chown(before.uid, before.gid);
    }
    step = "give the fixed file the file's mode";
    await handle.chmod(before.mode & 0o7777);
    step = 'write the fixed file beside it';
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (!(await stillHolds(path, before, expected))) {
      await fs.rm(temporary, { force: true });
      return { ok: false, reason: 'the file changed on disk while it was checked; run again to fix what it holds now' };
    }
    step = 'rename the fixed file over it';
    await fs.rename(temporary, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    return { ok: false, reason: `cannot ${step} (${errorCode(error)}); the file is unchanged` };
  } finally {
    temporaries.delete(temporary);
  }
  await syncFolder(dirname(path));
  return { ok: true };
}

/** The same file (not one put in its place) with the same bytes. */
async function stillHolds(path: string, before: Stats, expected: Uint8Array): Promise<boolean> {
  const now = await fs.lstat(path).catch(() => undefined);
  if (!now || now.ino !== before.ino || now.dev !== before.dev || now.size !== expected.length) return false;
  const handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    // One byte more than expected: a file that grew after the size was read is changed too.
    const buffer = Buffer.allocUnsafe(expected.length + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    return length === expected.length && buffer.subarray(0, length).equals(expected);
  } finally {
    await handle.close();
  }
}

/** The rename is on disk once the folder is: best effort (some file systems refuse to sync a folder). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, constants.O_RDONLY).catch(() => undefined);
  await handle?.sync().catch(() => undefined);
  await handle?.close().catch(() => undefined);
}

/**
 * Writes a new file (or a new version of one, such as a conversion run again) in one step: the bytes go to a
 * temporary file beside it, which is renamed into place once written; a failed write leaves what was there. The
 * contents may come in pieces, each written as it comes (a conversion writes a trace at a time); an error thrown
 * while the pieces are made removes the temporary file and is thrown again.
 */
export async function writeFileAtomically(path: string, contents: Uint8Array | Iterable<string | Uint8Array>): Promise<Replaced> {
  const existing = await fs.lstat(path).catch(() => undefined);
  if (existing && !existing.isFile()) return { ok: false, reason: existing.isSymbolicLink() ? 'it is a symbolic link (name the file it points to)' : 'it is not a regular file' };
  const temporary = temporaryBeside(path);
  let handle: fs.FileHandle | undefined;
  let madeFailed = false;
  try {
    // The mode a new file gets (0666 less the umask), or the mode of the file it replaces.
    handle = await openTemporary(temporary, 0o666);
    if (contents instanceof Uint8Array) await handle.writeFile(contents);
    else {
      const pieces = contents[Symbol.iterator]();
      for (;;) {
        let piece: IteratorResult<string | Uint8Array>;
        try {
          piece = pieces.next();
        } catch (failure) {
          madeFailed = true;
          throw failure;
        }
        if (piece.done) break;
        await handle.writeFile(piece.value);
      }
    }
    if (existing) await handle.chmod(existing.mode & 0o7777);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temporary, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    if (madeFailed) throw error;
    return { ok: false, reason: `cannot write it (${errorCode(error)})` };
  } finally {
    temporaries.delete(temporary);
  }
  await syncFolder(dirname(path));
  return { ok: true };
}

/**
 * Creates the temporary file (it must not exist) before anything else can run, then opens it for writing: an
 * interruption then finds either no file or one it knows to remove, never one a pending open is about to create.
 */
async function openTemporary(temporary: string, mode: number): Promise<fs.FileHandle> {
  closeSync(openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode));
  return fs.open(temporary, constants.O_WRONLY);
}

/** Temporary files being written: an interrupted run removes them (removeTemporariesOnInterrupt). */
const temporaries = new Set<string>();

function temporaryBeside(path: string): string {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  temporaries.add(temporary);
  return temporary;
}

/**
 * Ctrl-C (SIGINT) or SIGTERM during a run that writes files: the temporary files being written are removed before
 * the process ends, so that an interrupted write leaves the file as it was and nothing beside it. The process ends
 * as a signal ends it (exit status 128 + the signal's number).
 */
export function removeTemporariesOnInterrupt(): void {
  for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15]] as const) {
    process.once(signal, () => {
      for (const temporary of temporaries) rmSync(temporary, { force: true });
      process.exit(128 + number);
    });
  }
}
