import { isReportedLink, walkFiles } from './files';
import type { FileHeads } from './fileHeads';

/** Which files of a folder a walk for trace files takes: by name, or by a look at the head of the files it names. */
export interface TraceWalk {
  /** Files taken by their name alone (`*.trace.json`, `*.jsonl`, …). */
  byName(path: string): boolean;
  /** Files whose head decides (`.json`). */
  byHead(path: string): boolean;
  heads: FileHeads;
  /** Heads looked at in one walk at most; the files past it are passed over and counted. */
  maxHeads: number;
}

/** What one walk did beside the files it gave. */
export interface TraceWalkReport {
  /** Heads looked at. */
  headsLooked: number;
  /** Files whose head would have been looked at, past the limit. */
  headsLeftOut: number;
}

export function newTraceWalkReport(): TraceWalkReport {
  return { headsLooked: 0, headsLeftOut: 0 };
}

/**
 * The trace files below a folder in name order (dependency and build folders left out): those the walk takes by
 * name, and those whose head says they hold traces, up to `maxHeads` looks. Unreadable folders are passed over;
 * symbolic links are not followed, and those to folders or named like a file the walk takes by name go to `onLink`.
 */
export async function* traceFilesBelow(folder: string, walk: TraceWalk, report: TraceWalkReport, onLink: (path: string) => void): AsyncGenerator<string> {
  for await (const item of walkFiles(folder)) {
    if (typeof item !== 'string') {
      if (isReportedLink(item, walk.byName)) onLink(item.path);
      continue;
    }
    if (walk.byName(item)) {
      yield item;
    } else if (walk.byHead(item)) {
      if (report.headsLooked >= walk.maxHeads) {
        report.headsLeftOut++;
        continue;
      }
      report.headsLooked++;
      if (await walk.heads.holds(item)) yield item;
    }
  }
}
