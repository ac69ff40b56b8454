/**
 * Python module files in the folders named by `agentTraces.guardrails.pythonPaths`, read from disk for the server
 * and the CLI. Reads are bounded: regular files only, never outside the configured folders (symbolic links are
 * resolved first), at most `limit` bytes, and cached by modification time.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isPathInside } from './files';
import { pathToFileURL } from 'node:url';
import type { PythonModuleFile, PythonModules } from '../common/types';

interface Root {
  /** The folder's real path. */
  real: string;
  /** Shown paths are relative to this folder (the workspace folder, or the folder itself). */
  base: string;
}

const MODULE_NAME = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;
const MAX_CACHED = 64;

export class FolderPythonModules implements PythonModules {
  private readonly roots: Root[] = [];
  private readonly cache = new Map<string, { mtimeMs: number; size: number; file: PythonModuleFile }>();

  /**
   * @param folders the setting's entries as written; relative ones are resolved against each of `bases` (the
   *   workspace folders, or the current folder for the CLI)
   * @param _loaded for the browser's modules, read ahead (pythonModules.browser.ts); here they are read when looked up
   */
  constructor(readonly folders: readonly string[], bases: readonly string[], private readonly limit: number, _loaded?: () => void) {
    for (const folder of folders) {
      const candidates = isAbsolute(folder) ? [{ dir: folder, base: folder }] : bases.map((base) => ({ dir: resolve(base, folder), base }));
      for (const { dir, base } of candidates) {
        try {
          if (statSync(dir).isDirectory()) this.roots.push({ real: realpathSync(dir), base: realpathSync(base) });
        } catch {
          // a folder that does not exist is searched as an empty one
        }
      }
    }
  }

  find(module: string): PythonModuleFile | undefined {
    if (!MODULE_NAME.test(module)) return undefined;
    const parts = module.split('.');
    for (const root of this.roots) {
      const found = this.read(root, join(root.real, ...parts) + '.py') ?? this.read(root, join(root.real, ...parts, '__init__.py'));
      if (found) return found;
    }
    return undefined;
  }

  private read(root: Root, path: string): PythonModuleFile | undefined {
    let real: string;
    let stat;
    try {
      real = realpathSync(path);
      stat = statSync(real);
    } catch {
      return undefined;
    }
    if (!stat.isFile() || !isPathInside(root.real, real)) return undefined;
    const cached = this.cache.get(real);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.file;
    const file: PythonModuleFile = { uri: pathToFileURL(real).toString(), path: relative(root.base, path) || path, size: stat.size, limit: this.limit };
    if (stat.size <= this.limit) {
      try {
        file.text = readFileSync(real, 'utf8');
      } catch {
        return undefined;
      }
    }
    this.cache.delete(real);
    this.cache.set(real, { mtimeMs: stat.mtimeMs, size: stat.size, file });
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return file;
  }
}
