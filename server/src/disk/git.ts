import { execFile } from 'node:child_process';

/**
 * A file as a git revision holds it (`git show REV:path`), for comparing a rule file with its committed version.
 * Bounded like every read: at most `maxBytes` of output and `timeoutMs` of waiting; git's own message when it
 * refuses (no repository, an unknown revision, a path the revision does not have).
 */
export function readAtRevision(revision: string, path: string, cwd: string, maxBytes: number, timeoutMs = 10_000): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    if (revision.startsWith('-')) {
      resolve({ ok: false, reason: `not a revision: ${revision}` });
      return;
    }
    execFile('git', ['show', `${revision}:${path}`], { cwd, maxBuffer: maxBytes, timeout: timeoutMs, encoding: 'utf8', windowsHide: true }, (error, stdout, stderr) => {
      if (!error) resolve({ ok: true, text: stdout });
      else if ((error as NodeJS.ErrnoException).code === 'ENOENT') resolve({ ok: false, reason: 'git is not installed (or not on the PATH)' });
      else if ((error as { killed?: boolean }).killed) resolve({ ok: false, reason: `git did not answer within ${timeoutMs} ms` });
      else if (/maxBuffer/i.test(error.message)) resolve({ ok: false, reason: `the file is larger than ${maxBytes} bytes at ${revision}` });
      else resolve({ ok: false, reason: (stderr || error.message).trim().split('\n')[0] });
    });
  });
}

/** `git:REV:path` names a file at a git revision: its revision and path, or undefined for a plain path. */
export function parseRevisionPath(spec: string): { revision: string; path: string } | undefined {
  const match = /^git:([^:]+):(.+)$/s.exec(spec);
  return match ? { revision: match[1], path: match[2] } : undefined;
}
