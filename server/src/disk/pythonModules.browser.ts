/**
 * disk/pythonModules.ts for the browser build. A rule file's check looks modules up synchronously, which a language
 * server in a web worker cannot do through the client; so the `.py` files of the configured folders inside the
 * workspace are read ahead, through the client and under the same limits, and `loaded` is told when they are in
 * (the server then checks the open rule files again). A folder outside the workspace cannot be read at all.
 */
import { isAbsolute, join, relative } from './path.browser';
import { isPathInside, readTextFile, walkFiles } from './files.browser';
import type { PythonModuleFile, PythonModules } from '../common/types';
import type * as NodeModules from './pythonModules';

const MODULE_NAME = /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*$/;

/** Module files read ahead per server (a folder of more is cut: its other modules are not found). */
export const maxPythonFiles = 500;

interface Root {
  /** The folder's URI. */
  folder: string;
  /** Shown paths are relative to this (the workspace folder). */
  base: string;
}

export class FolderPythonModules implements PythonModules {
  private readonly roots: Root[] = [];
  private readonly files = new Map<string, PythonModuleFile>();
  readonly unavailable: string | undefined;

  constructor(readonly folders: readonly string[], bases: readonly string[], private readonly limit: number, loaded: () => void = () => undefined) {
    const outside = folders.filter((folder) => isAbsolute(folder) && !bases.some((base) => isPathInside(base, folder)));
    for (const folder of folders) {
      if (outside.includes(folder)) continue;
      for (const base of bases) this.roots.push({ folder: isAbsolute(folder) ? folder : join(base, folder), base });
    }
    if (outside.length > 0) {
      this.unavailable = `VS Code for the Web reads Python modules only from folders inside the workspace (not ${outside.join(', ')})`;
    }
    if (this.roots.length > 0) void this.readAhead().then(loaded, () => undefined);
  }

  private async readAhead(): Promise<void> {
    let read = 0;
    for (const root of this.roots) {
      for await (const item of walkFiles(root.folder)) {
        if (typeof item !== 'string' || !item.endsWith('.py')) continue;
        if (read++ >= maxPythonFiles) return;
        const file: PythonModuleFile = { uri: item, path: relative(root.base, item) || item, size: 0, limit: this.limit };
        const text = await readTextFile(item, { maxBytes: this.limit, folders: [root.folder] });
        if (text.ok) {
          file.text = text.text;
          file.size = text.text.length;
        } else {
          file.size = this.limit + 1; // over the limit, or unreadable: found, but not read
        }
        this.files.set(`${root.folder}\u0000${relative(root.folder, item)}`, file);
      }
    }
  }

  find(module: string): PythonModuleFile | undefined {
    if (!MODULE_NAME.test(module)) return undefined;
    const path = module.split('.').join('/');
    for (const root of this.roots) {
      const found = this.files.get(`${root.folder}\u0000${path}.py`) ?? this.files.get(`${root.folder}\u0000${path}/__init__.py`);
      if (found) return found;
    }
    return undefined;
  }
}

// The same arguments as the Node class's constructor.
FolderPythonModules satisfies new (...args: ConstructorParameters<typeof NodeModules.FolderPythonModules>) => PythonModules;
