import { promises as fs } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineIndex } from '../common/lineIndex';
import { errorCode, readTextFile, walkFiles } from '../disk/files';
import type { Problem, PythonModules } from '../common/types';
import { fixFile, type AppliedFix } from './fix';
import { isCheckedByDefault, languageForFile, serviceFor } from '../languages';
import { defaultServerSettings } from '../settings';
import { globBase, globToRegExp, hasGlobMagic } from '../common/glob';

export interface FileReport {
  path: string;
  problems: { line: number; column: number; problem: Problem }[];
  /** Set when the file could not be checked at all (unreadable, unknown kind). */
  failure?: string;
  /** With --fix: the fixes written to the file (positions in the text each pass fixed). */
  fixed?: AppliedFix[];
  /** With --fix: why the file was left as it was although it has problems a fix could repair. */
  notFixed?: string;
}

export interface CheckOptions {
  maxProblems: number;
  /** Larger files are not read; they are reported as not checked. */
  maxBytes: number;
  /** Python module files for the imports of rule files (`--python-path`). */
  pythonModules?: PythonModules;
  /** Apply every fix that is safe without a choice and write the file when that changed it. */
  fix?: boolean;
}

/** A file or folder named or found that could not be checked, and why. */
export interface InputError {
  path: string;
  reason: string;
}

/**
 * Expands files, folders and globs into the list of files to check, in a stable order, without repeats. Folders
 * that cannot be read, and named paths that are neither files nor folders, are returned as errors.
 */
export async function expandArguments(
  patterns: string[], cwd: string,
): Promise<{ files: string[]; unmatched: string[]; errors: InputError[] }> {
  const files = new Set<string>();
  const unmatched: string[] = [];
  const errors: InputError[] = [];
  const relativePath = (path: string) => relative(cwd, path) || path;
  const collect = async (walker: AsyncGenerator<string | InputError>, accept: (path: string) => boolean) => {
    for await (const item of walker) {
      if (typeof item !== 'string') errors.push({ path: relativePath(item.path), reason: item.reason });
      else if (accept(item)) files.add(item);
    }
  };
  for (const pattern of patterns) {
    const before = files.size;
    const errorsBefore = errors.length;
    const normalized = pattern.split(sep).join('/');
    if (hasGlobMagic(normalized)) {
      const base = resolve(cwd, globBase(normalized));
      const matcher = globToRegExp(resolve(cwd, normalized).split(sep).join('/'));
      const baseStat = await fs.stat(base).catch(() => undefined);
      // A base folder that does not exist matches nothing; one that cannot be read is an error.
      if (baseStat) await collect(walkFiles(base), (path) => matcher.test(path.split(sep).join('/')));
    } else {
      const path = resolve(cwd, pattern);
      const stat = await fs.stat(path).catch((error) => (errorCode(error) === 'ENOENT' ? undefined : error));
      if (stat instanceof Error) errors.push({ path: pattern, reason: `cannot read: ${errorCode(stat)}` });
      else if (stat?.isDirectory()) await collect(walkFiles(path), isCheckedByDefault);
      else if (stat?.isFile()) files.add(path);
      else if (stat) errors.push({ path: pattern, reason: 'not a regular file or folder' });
    }
    if (files.size === before && errors.length === errorsBefore) unmatched.push(pattern);
  }
  return { files: [...files], unmatched, errors };
}

export async function checkFile(path: string, options: CheckOptions, cwd: string): Promise<FileReport> {
  const shownPath = relative(cwd, path) || path;
  const read = await readTextFile(path, { maxBytes: options.maxBytes, setting: '--max-file-size' });
  if (!read.ok) return { path: shownPath, problems: [], failure: read.reason };
  const text = read.text;
  const languageId = languageForFile(path, text);
  const service = languageId && serviceFor(languageId);
  if (!service) return { path: shownPath, problems: [], failure: 'not checked: not a trace or rule file (by its name, or for .jsonl by its first line)' };
  const uri = pathToFileURL(path).toString();
  const settings = { ...defaultServerSettings, maxProblems: options.maxProblems };
  let found: Problem[];
  let fixes: Pick<FileReport, 'fixed' | 'notFixed'> = {};
  let checkedText = text;
  try {
    let model: unknown;
    if (options.fix) {
      const result = fixFile(service, uri, text, { settings, pythonModules: options.pythonModules });
      fixes = { fixed: result.fixed, notFixed: result.notFixed };
      model = result.model;
      if (result.text !== text) {
        await fs.writeFile(path, result.text, 'utf8');
        checkedText = result.text;
      }
    }
    model ??= service.parse({ uri, version: 0, text: checkedText });
    found = service.validate(model, { settings, pythonModules: options.pythonModules });
  } catch (error) {
    return { path: shownPath, problems: [], failure: `not checked: the checker failed on this file (${(error as Error).message})` };
  }
  return report(shownPath, checkedText, found, fixes);
}

function report(path: string, text: string, found: Problem[], fixes: Pick<FileReport, 'fixed' | 'notFixed'>): FileReport {
  const lines = new LineIndex(text);
  const problems = found.map((problem) => {
    const position = lines.positionAt(problem.span.start);
    return { line: position.line + 1, column: position.character + 1, problem };
  });
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { path, problems, ...fixes };
}
