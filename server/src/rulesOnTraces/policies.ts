import { relative, sep } from 'node:path';
import { globToRegExp } from '../common/glob';
import { isReportedLink, linkNotFollowed, readTextFile, uriOfPath, walkFiles } from '../disk/files';

export interface PolicyFile {
  uri: string;
  text: string;
}

export interface PolicyFiles {
  files: PolicyFile[];
  /** Files that matched but could not be read, and the limit when it was hit: logged and shown by the server. */
  problems: string[];
}

/**
 * The rule files that `agentTraces.guardrails.policies` binds to every open trace: globs relative to each workspace
 * folder, matched against `.gr` files below it, read through the disk limits.
 */
export async function readPolicyFiles(globs: string[], folders: string[], limits: { maxFiles: number; maxBytes: number }): Promise<PolicyFiles> {
  const result: PolicyFiles = { files: [], problems: [] };
  if (globs.length === 0) return result;
  const matchers = globs.map((glob) => globToRegExp(glob.replace(/^\.\//, '').replace(/\\/g, '/')));
  const seen = new Set<string>();
  for (const folder of folders) {
    for await (const path of walkFiles(folder)) {
      const named = (file: string) => matchers.some((matcher) => matcher.test(relative(folder, file).split(sep).join('/')));
      if (isReportedLink(path, (file) => file.toLowerCase().endsWith('.gr') && named(file))) {
        result.problems.push(`${relative(folder, path.path).split(sep).join('/')}: ${linkNotFollowed}`);
      }
      if (typeof path !== 'string' || !path.toLowerCase().endsWith('.gr')) continue;
      const name = relative(folder, path).split(sep).join('/');
      if (!matchers.some((matcher) => matcher.test(name)) || seen.has(path)) continue;
      seen.add(path);
      if (result.files.length >= limits.maxFiles) {
        result.problems.push(`agentTraces.guardrails.policies matches more than ${limits.maxFiles} rule files; the first ${limits.maxFiles} are used`);
        return result;
      }
      const read = await readTextFile(path, { maxBytes: limits.maxBytes, folders, setting: 'agentTraces.files.maxSizeMB' });
      if (read.ok) result.files.push({ uri: uriOfPath(path), text: read.text });
      else result.problems.push(`${name}: ${read.reason}`);
    }
  }
  return result;
}
