import { promises as fs } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineIndex } from '../common/lineIndex';
import type { Problem, PythonModules } from '../common/types';
import { isCheckedByDefault, languageForFile, serviceFor } from '../languages';
import { defaultServerSettings } from '../settings';
import { globBase, globToRegExp, hasGlobMagic } from './glob';

export interface FileReport {
  path: string;
  problems: { line: number; column: number; problem: Problem }[];
  /** Set when the file could not be checked at all (unreadable, unknown kind). */
  failure?: string;
}

export interface CheckOptions {
  maxProblems: number;
  /** Python module files for the imports of rule files (`--python-path`). */
  pythonModules?: PythonModules;
}

const skippedFolders = new Set(['node_modules', '.git', 'dist', 'out', '.cache']);

async function* walk(folder: string): AsyncGenerator<string> {
  const entries = await fs.readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) yield* walk(path);
    } else if (entry.isFile()) {
      yield path;
    }
  }
}

/** Expands files, folders and globs into the list of files to check, in a stable order, without repeats. */
export async function expandArguments(patterns: string[], cwd: string): Promise<{ files: string[]; unmatched: string[] }> {
  const files = new Set<string>();
  const unmatched: string[] = [];
  for (const pattern of patterns) {
    const before = files.size;
    const normalized = pattern.split(sep).join('/');
    if (hasGlobMagic(normalized)) {
      const base = resolve(cwd, globBase(normalized));
      const matcher = globToRegExp(resolve(cwd, normalized).split(sep).join('/'));
      try {
        for await (const path of walk(base)) if (matcher.test(path.split(sep).join('/'))) files.add(path);
      } catch {
        // a base folder that does not exist matches nothing
      }
    } else {
      const path = resolve(cwd, pattern);
      const stat = await fs.stat(path).catch(() => undefined);
      if (stat?.isDirectory()) {
        for await (const file of walk(path)) if (isCheckedByDefault(file)) files.add(file);
      } else if (stat?.isFile()) {
        files.add(path);
      }
    }
    if (files.size === before) unmatched.push(pattern);
  }
  return { files: [...files], unmatched };
}

export async function checkFile(path: string, options: CheckOptions, cwd: string): Promise<FileReport> {
  const shownPath = relative(cwd, path) || path;
  let text: string;
  try {
    text = await fs.readFile(path, 'utf8');
  } catch (error) {
    return { path: shownPath, problems: [], failure: `cannot read: ${(error as Error).message}` };
  }
  const languageId = languageForFile(path, text);
  const service = languageId && serviceFor(languageId);
  if (!service) return { path: shownPath, problems: [], failure: 'not a trace or rule file (by name or first line)' };
  const uri = pathToFileURL(path).toString();
  const model = service.parse({ uri, version: 0, text });
  const settings = { ...defaultServerSettings, maxProblems: options.maxProblems };
  const lines = new LineIndex(text);
  const problems = service.validate(model, { settings, pythonModules: options.pythonModules }).map((problem) => {
    const position = lines.positionAt(problem.span.start);
    return { line: position.line + 1, column: position.character + 1, problem };
  });
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { path: shownPath, problems };
}
