import { fileStamp, readFileHead } from './files';

/** What a look at a file's head found, kept while the file keeps its size and modification time. */
interface Look {
  size: number;
  mtimeMs: number;
  holds: boolean;
}

/**
 * Whether files hold traces by their first `headBytes` (a `.json` file, whose name says nothing of what it holds),
 * each head read once while its file stays unchanged: the workspace's walks (the tool index, the rule files' lenses,
 * the comparison of a rule change) run again on every change of a rule file or setting. At most `maxRemembered`
 * files are remembered (the oldest looks are forgotten first).
 */
export class FileHeads {
  private readonly looks = new Map<string, Look>();
  /** Heads read from disk so far (looks answered from memory not counted). */
  reads = 0;

  constructor(
    private readonly holdsTraces: (head: string) => boolean,
    private readonly headBytes: number,
    private readonly maxRemembered = 20_000,
  ) {}

  async holds(path: string): Promise<boolean> {
    const stamp = await fileStamp(path);
    const known = stamp && this.looks.get(path);
    if (stamp && known && known.size === stamp.size && known.mtimeMs === stamp.mtimeMs) return known.holds;
    this.reads++;
    const holds = this.holdsTraces(await readFileHead(path, this.headBytes));
    // Without a stamp (a file system that gives none), nothing tells a change: the look is not kept.
    if (!stamp) return holds;
    this.looks.delete(path);
    if (this.looks.size >= this.maxRemembered) this.looks.delete(this.looks.keys().next().value!);
    this.looks.set(path, { size: stamp.size, mtimeMs: stamp.mtimeMs, holds });
    return holds;
  }
}
