import { execFile } from 'node:child_process';
import { dirname, relative } from 'node:path';

/** Why no git command can read a committed version on this platform (none on Node: the command is tried). */
export const noGitCommand: string | undefined = undefined;

function git(args: string[], cwd: string, maxBuffer: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, encoding: 'utf8', maxBuffer, windowsHide: true }, (error, stdout, stderr) => {
      if (error) reject(new Error((stderr || error.message).trim().split('\n')[0]));
      else resolve(stdout);
    });
  });
}

/** A file's text at HEAD with `git show` in its folder, when the git extension does not know its repository. */
export async function committedWithGitCommand(path: string, maxBytes: number): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  const folder = dirname(path);
  try {
    const root = (await git(['rev-parse', '--show-toplevel'], folder, 1 << 16)).trim();
    const inRepository = relative(root, path).split('\\').join('/');
    return { ok: true, text: await git(['show', `HEAD:${inRepository}`], root, maxBytes) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: /maxBuffer/i.test(reason) ? 'its committed version is larger than agentTraces.files.maxSizeMB' : `it has no committed version (${reason})` };
  }
}
