/**
 * Writing a fixed file in one step: the new bytes go to a temporary file beside it, which takes the file's mode and
 * owner and is renamed over it only while the file still holds what was read. A write that fails (a full disk, a
 * file-size limit) or a file changed meanwhile leaves the file as it was; no reader ever sees half of it.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs, type Stats } from 'node:fs';
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
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let step = 'write the fixed file beside it';
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
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
 * temporary file beside it, which is renamed into place once written; a failed write leaves what was there.
 */
export async function writeFileAtomically(path: string, contents: Uint8Array): Promise<Replaced> {
  const existing = await fs.lstat(path).catch(() => undefined);
  if (existing && !existing.isFile()) return { ok: false, reason: existing.isSymbolicLink() ? 'it is a symbolic link (name the file it points to)' : 'it is not a regular file' };
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let handle: fs.FileHandle | undefined;
  try {
    // The mode a new file gets (0666 less the umask), or the mode of the file it replaces.
    handle = await fs.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
    await handle.writeFile(contents);
    if (existing) await handle.chmod(existing.mode & 0o7777);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temporary, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    return { ok: false, reason: `cannot write it (${errorCode(error)})` };
  }
  await syncFolder(dirname(path));
  return { ok: true };
}
