import type { TraceLayout } from '../traceFormats';
import type { Comparison } from './comparison';
import { traceFilesOnDisk, type WorkspaceTraceLimits } from './workspaceTraces';

/**
 * What a change of a rule file flips over the workspace's traces (the editor's "compare with the committed
 * version"): both versions evaluated, as `agent-traces eval --compare` does (rulesOnTraces/compare.ts), on the open
 * traces (their text in the editor) and on the workspace's trace files on disk, up to the same number of files
 * the rule files' lenses count.
 */

export interface TraceDocument {
  uri: string;
  /** Its path on disk, or its URI: it may decide how the text is read. */
  path: string;
  text: string;
  layout: TraceLayout;
}

export interface ComparedFile extends TraceDocument {
  comparison: Comparison;
}

export interface WorkspaceComparison {
  /** Every file compared (those whose verdicts flip, and those with traces or lines not read). */
  files: ComparedFile[];
  /** Traces evaluated by both versions, and the files they are in. */
  traces: number;
  filesCompared: number;
  /** Set when the limit left trace files out, naming the setting. */
  limitNotice?: string;
  /** Files that could not be read, with why. */
  problems: string[];
  /** Traces neither version could evaluate, for the same reason (not a flip: the verdict is unknown on both sides). */
  notEvaluated: { traces: number; reason?: string };
}

/**
 * `compareText` compares both versions on one document (on the rule evaluation workers, bounded by the rules' time
 * limit; undefined when cancelled).
 */
export async function compareOverWorkspace(
  open: TraceDocument[],
  limits: WorkspaceTraceLimits,
  compareText: (document: TraceDocument) => Promise<Comparison | undefined>,
  isCancelled: () => boolean,
): Promise<WorkspaceComparison | undefined> {
  const found: WorkspaceComparison = { files: [], traces: 0, filesCompared: 0, problems: [], notEvaluated: { traces: 0 } };
  const compare = async (document: TraceDocument): Promise<void> => {
    const comparison = await compareText(document);
    if (!comparison) return;
    comparison.flips = comparison.flips.filter((flip) => {
      const same = flip.oldFailure !== undefined && flip.oldFailure === flip.newFailure && flip.added.length === 0 && flip.removed.length === 0;
      if (same) {
        found.notEvaluated.traces++;
        found.notEvaluated.reason ??= flip.oldFailure;
      }
      return !same;
    });
    found.traces += comparison.traces;
    found.filesCompared++;
    if (comparison.flips.length > 0 || comparison.unreadable.length > 0) found.files.push({ ...document, comparison });
  };
  for (const document of open) {
    if (isCancelled()) return undefined;
    await compare(document);
  }
  const openUris = new Set(open.map((document) => document.uri));
  for await (const file of traceFilesOnDisk(openUris, limits, found, 'agentTraces.guardrails.maxLensTraces', 'compared')) {
    if (isCancelled()) return undefined;
    await compare(file);
  }
  return isCancelled() ? undefined : found;
}
