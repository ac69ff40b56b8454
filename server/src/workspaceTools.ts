import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ToolUsage, WorkspaceTools } from './common/types';
import { isCheckedByDefault, languageForFile, serviceFor } from './languages';

const skippedFolders = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', 'out', '.cache', '.vscode-test']);
/** Trace files larger than this are left out of the index: reading them would cost more than the names are worth. */
const maxIndexedFileBytes = 20 * 1024 * 1024;

/**
 * Which tools the workspace's trace files call, for `tool:name` hover and completion in rule files.
 * Built in the background, file by file, yielding between files so that requests are never held up; open
 * documents replace their file's entry as they change.
 */
export class WorkspaceToolIndex implements WorkspaceTools {
  private readonly byFile = new Map<string, Map<string, number>>();
  truncated = false;
  private generation = 0;

  constructor(private readonly log: (message: string) => void) {}

  tools(): ToolUsage[] {
    const usage = new Map<string, ToolUsage>();
    for (const [uri, counts] of this.byFile) {
      for (const [name, count] of counts) {
        let entry = usage.get(name);
        if (!entry) usage.set(name, (entry = { name, files: [] }));
        entry.files.push({ uri, count });
      }
    }
    for (const entry of usage.values()) entry.files.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    return [...usage.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Records the tools called by one file's current text. */
  update(uri: string, languageId: string, model: unknown): void {
    const service = serviceFor(languageId);
    if (!service?.calledTools) return;
    this.byFile.set(uri, service.calledTools(model));
  }

  remove(uri: string): void {
    this.byFile.delete(uri);
  }

  async rebuild(folderUris: string[], maxFiles: number): Promise<void> {
    const generation = ++this.generation;
    this.truncated = false;
    let seen = 0;
    for (const folderUri of folderUris) {
      let root: string;
      try {
        root = fileURLToPath(folderUri);
      } catch {
        continue; // not a file: URI (e.g. a virtual workspace); nothing to read from disk
      }
      for await (const path of walk(root)) {
        if (generation !== this.generation) return;
        if (seen >= maxFiles) {
          this.truncated = true;
          this.log(`Tool index: stopped at ${maxFiles} trace files (setting agentTraces.workspace.maxTraceFiles).`);
          return;
        }
        seen++;
        await this.indexFile(path);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /** A trace file changed on disk (open documents are kept up to date by their own validation instead). */
  async refreshFile(uri: string): Promise<void> {
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return;
    }
    await this.indexFile(path);
  }

  private async indexFile(path: string): Promise<void> {
    try {
      const stat = await fs.stat(path);
      if (stat.size > maxIndexedFileBytes) return;
      const text = await fs.readFile(path, 'utf8');
      const languageId = languageForFile(path, text);
      const service = languageId && serviceFor(languageId);
      if (!languageId || !service || languageId === 'guardrail') return;
      const uri = pathToFileURL(path).toString();
      this.update(uri, languageId, service.parse({ uri, version: -1, text }));
    } catch (error) {
      this.log(`Tool index: could not read ${path}: ${(error as Error).message}`);
    }
  }
}

async function* walk(folder: string): AsyncGenerator<string> {
  let entries;
  try {
    entries = await fs.readdir(folder, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) yield* walk(path);
    } else if (entry.isFile() && isCheckedByDefault(path) && !path.endsWith('.gr')) {
      yield path;
    }
  }
}
