import { guardrailService } from '../guardrail';
import type { RuleModel } from '../guardrail/model';
import { loadFailure } from '../guardrail/evaluate';
import { nextTurn } from '../common/steps';
import type { TraceLayout } from '../traceFormats';
import { compareOnText, type CompareOptions, type Comparison } from './compare';
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

/** Both versions of a rule file parsed, or why one does not load (nothing is compared then). */
export function loadVersions(uri: string, oldText: string, newText: string): { oldRules: RuleModel; newRules: RuleModel } | string {
  const versions: RuleModel[] = [];
  for (const [name, text] of [['the committed version', oldText], ['the working copy', newText]] as const) {
    const model = guardrailService.parse({ uri, version: 0, text }) as RuleModel;
    const failure = loadFailure(model);
    if (failure) return `${name} does not load (line ${model.lines.positionAt(failure.start).line + 1}: ${failure.message})`;
    versions.push(model);
  }
  return { oldRules: versions[0], newRules: versions[1] };
}

export async function compareOverWorkspace(
  oldRules: RuleModel,
  newRules: RuleModel,
  open: TraceDocument[],
  limits: WorkspaceTraceLimits & { workBudget: number; timeLimitMs: number },
  isCancelled: () => boolean,
): Promise<WorkspaceComparison | undefined> {
  const found: WorkspaceComparison = { files: [], traces: 0, filesCompared: 0, problems: [], notEvaluated: { traces: 0 } };
  // In the server's thread, each version's evaluation of a trace bounded by the work budget and the rules' time limit.
  const options: CompareOptions = { budget: limits.workBudget, timeLimitMs: limits.timeLimitMs };
  const compare = (document: TraceDocument) => {
    const comparison = compareOnText(oldRules, newRules, document.text, document.layout, options, document.path);
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
    compare(document);
    await nextTurn();
  }
  const openUris = new Set(open.map((document) => document.uri));
  for await (const file of traceFilesOnDisk(openUris, limits, found, 'agentTraces.guardrails.maxLensTraces', 'compared')) {
    if (isCancelled()) return undefined;
    compare(file);
    // One file at a time: other requests get through between them.
    await nextTurn();
  }
  return isCancelled() ? undefined : found;
}
