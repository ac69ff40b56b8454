import { bytesPerMB, fileKind, formatMB, linkNotFollowed, pathOfUri, readTextFile, uriOfPath } from '../disk/files';
import { newTraceWalkReport, traceFilesBelow, type TraceWalk } from '../disk/traceWalk';
import { afterEvents } from '../common/steps';
import { utf8Length } from '../common/text';
import type { ToolUsage, WorkspaceTools } from '../common/types';
import { holdsTracesByContent, languageForFile, serviceFor, workspaceTraceWalk } from '../languages';
import { inspectLogHead } from '../../../shared/requests';

export interface IndexLimits {
  maxFiles: number;
  /** Larger files are left out: reading them would cost more than the names are worth. */
  maxFileBytes: number;
  /** The index stops after reading this many bytes in all. */
  maxTotalBytes: number;
  /** JSON Lines files are read up to this many lines. */
  maxLines: number;
  /** Folder paths files must lie in (symlinks resolved); empty: the folders being indexed. */
  folders: string[];
  /** `.json` files whose head is looked at (to tell a conversation or a log from other JSON), at most. */
  maxJsonHeads: number;
}

const defaultIndexLimits: IndexLimits = {
  maxFiles: 2000, maxFileBytes: 10 * bytesPerMB, maxTotalBytes: 200 * bytesPerMB, maxLines: 250_000, folders: [], maxJsonHeads: 2000,
};

/**
 * Which tools the workspace's trace files call, for `tool:name` hover and completion in rule files.
 * Built in the background, file by file, yielding between files so that requests are never held up; open
 * documents replace their file's entry as they change. Every file is read through the disk limits.
 */
export class WorkspaceToolIndex implements WorkspaceTools {
  private readonly byFile = new Map<string, Map<string, number>>();
  truncated = false;
  private generation = 0;
  private readBytes = 0;

  constructor(
    private readonly log: (message: string) => void,
    private readonly limits: () => IndexLimits = () => defaultIndexLimits,
    /** How trace files are found (tests give their own looks at heads). */
    private readonly walk: (maxJsonHeads: number) => TraceWalk = workspaceTraceWalk,
  ) {}

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

  async rebuild(folderUris: string[], maxFiles = this.limits().maxFiles): Promise<void> {
    const generation = ++this.generation;
    this.truncated = false;
    this.readBytes = 0;
    const roots = folderUris.map(pathOfUri).filter((path): path is string => path !== undefined);
    let seen = 0;
    const walk = this.walk(this.limits().maxJsonHeads);
    const report = newTraceWalkReport();
    const onLink = (path: string) => this.log(`Tool index: left out ${path}: ${linkNotFollowed}`);
    walking: for (const root of roots) {
      for await (const path of traceFilesBelow(root, walk, report, onLink)) {
        if (generation !== this.generation) return;
        if (seen >= maxFiles) {
          this.truncated = true;
          this.log(`Tool index: stopped at ${maxFiles} trace files (setting agentTraces.workspace.maxTraceFiles).`);
          return;
        }
        seen++;
        if (!(await this.indexFile(path, roots))) break walking;
        await new Promise<void>((resolve) => afterEvents(resolve));
      }
    }
    if (report.headsLeftOut > 0) {
      this.truncated = true;
      this.log(`Tool index: ${report.headsLeftOut} .json files left out: the beginnings of ${walk.maxHeads} were read to find conversations and logs (setting agentTraces.workspace.maxJsonFiles).`);
    }
    if (roots.length > 0) this.log(`Tool index: done, ${seen} trace files seen, ${formatMB(this.readBytes)} read.`);
  }

  /**
   * A file changed on disk (open documents are kept up to date by their own validation instead). A `.json` file is
   * read only when its head says it holds traces. Answers whether the file holds traces or held them before, that is
   * whether what the workspace's traces call may have changed.
   */
  async refreshFile(uri: string): Promise<boolean> {
    const path = pathOfUri(uri);
    if (!path) return false;
    const held = this.byFile.has(uri);
    const walk = this.walk(1);
    if (!walk.byName(path)) {
      if (!walk.byHead(path)) return held;
      // Outside the workspace or no regular file: nothing is read, and the read below says why in the log.
      if ((await fileKind(path, this.limits().folders)) !== 'file') {
        await this.indexFile(path, []);
        return held;
      }
      if (!(await walk.heads.holds(path))) {
        this.remove(uri);
        return held;
      }
    }
    await this.indexFile(path, []);
    return true;
  }

  /** False when the total limit was reached and the walk must stop. */
  private async indexFile(path: string, roots: string[]): Promise<boolean> {
    const limits = this.limits();
    if (this.readBytes >= limits.maxTotalBytes) {
      this.truncated = true;
      this.log(`Tool index: stopped after reading ${formatMB(this.readBytes)} of trace files (setting agentTraces.workspace.maxTotalSizeMB).`);
      return false;
    }
    const folders = limits.folders.length > 0 ? limits.folders : roots;
    if (folders.length === 0) return true; // a watched file with no workspace folder to hold it
    const read = await readTextFile(path, {
      maxBytes: Math.min(limits.maxFileBytes, limits.maxTotalBytes - this.readBytes),
      folders,
      setting: 'agentTraces.workspace.maxFileSizeMB',
    });
    if (!read.ok) {
      this.log(`Tool index: left out ${path}: ${read.reason}`);
      return true;
    }
    this.readBytes += utf8Length(read.text);
    try {
      const uri = uriOfPath(path);
      // A `.json` file found by its head, or named in a watched-file event: other JSON (no longer) holds traces.
      const walk = this.walk(1);
      if (!walk.byName(path) && !(walk.byHead(path) && holdsTracesByContent(read.text.slice(0, inspectLogHead)))) {
        this.remove(uri);
        return true;
      }
      const languageId = languageForFile(read.path, read.text);
      const service = languageId && serviceFor(languageId);
      if (!languageId || !service || languageId === 'guardrail') return true;
      this.update(uri, languageId, service.parse({ uri, version: -1, text: read.text, maxLines: limits.maxLines }));
    } catch (error) {
      this.log(`Tool index: could not read ${path}: ${(error as Error).message}`);
    }
    return true;
  }
}
