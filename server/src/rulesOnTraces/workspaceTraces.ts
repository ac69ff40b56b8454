import { LineStarts } from '../common/lineIndex';
import { linkNotFollowed, readTextFile, uriOfPath } from '../disk/files';
import { newTraceWalkReport, traceFilesBelow, type TraceWalk } from '../disk/traceWalk';
import { workspaceTraceWalk } from '../languages';
import { traceLayoutOfFile, type TraceLayout } from '../traceFormats';
import { nextTurn } from '../common/steps';
import type { RuleFile, RulesOnTraceResult } from './evaluateOnTrace';

/** The line starts of a file without violations: nothing is placed in it. */
const noPositions = new LineStarts('');

/**
 * The rule files' verdicts on the workspace's trace files that are not open, for the rule files' code lenses: a
 * rule file opened beside traces, or bound to every trace with `agentTraces.guardrails.policies`, counts its
 * violations over the whole workspace, not only over the traces open in editors. Files are read one at a time
 * through the bounded disk reader, up to `maxTraces` files (agentTraces.guardrails.maxLensTraces); the lens says so
 * when that limit left files out.
 */
export interface WorkspaceTraceLimits {
  /** Trace files evaluated at most (open ones excluded). */
  maxTraces: number;
  /** Larger files are not read (agentTraces.workspace.maxFileSizeMB, as for the tool index). */
  maxBytes: number;
  /** Workspace folder paths: the files are looked for below them and must lie inside them. */
  folders: string[];
  /** `.json` files whose head is looked at, at most (agentTraces.workspace.maxJsonFiles; default 2000). */
  maxJsonHeads?: number;
  /** How trace files are found (tests give their own looks at heads). */
  walk?: TraceWalk;
}

const defaultMaxJsonHeads = 2000;

/** Evaluates the rule files on one file's text (on the evaluation worker); undefined when it was stopped. */
/** The rule files on a file's text, laid out as `layout` says (`path`: the file's, which may decide how it is read). */
export type EvaluateText = (rules: RuleFile[], text: string, layout: TraceLayout, path: string) => Promise<RulesOnTraceResult | undefined>;

export interface WorkspaceTraceEntry {
  result: RulesOnTraceResult;
  positions: LineStarts;
}

export interface WorkspaceTraces {
  /** Per trace file URI. */
  entries: Map<string, WorkspaceTraceEntry>;
  /** Set when the limit left trace files out, naming the setting. */
  limitNotice?: string;
  /** Files that could not be read, with why (logged by the server). */
  problems: string[];
}

export async function evaluateWorkspaceTraces(
  rules: RuleFile[],
  open: ReadonlySet<string>,
  limits: WorkspaceTraceLimits,
  evaluate: EvaluateText,
  /** True when a newer evaluation superseded this one: it stops between files and returns undefined. */
  isStale: () => boolean = () => false,
): Promise<WorkspaceTraces | undefined> {
  const found: WorkspaceTraces = { entries: new Map(), problems: [] };
  if (rules.length === 0 || limits.maxTraces <= 0) return found;
  for await (const file of traceFilesOnDisk(open, limits, found, 'agentTraces.guardrails.maxLensTraces', 'counted')) {
    if (isStale()) return undefined;
    const result = await evaluate(rules, file.text, file.layout, file.path);
    if (!result || isStale()) return undefined;
    // Only what the lenses read is kept: the counts, and the places of violations with the file's line starts (a
    // file without violations has no place to convert).
    const positions = result.violations.length > 0 ? new LineStarts(file.text) : noPositions;
    found.entries.set(file.uri, { result: { ...result, notices: [] }, positions });
    await nextTurn();
  }
  return isStale() ? undefined : found;
}

/** A trace file of the workspace read from disk, and how its traces are laid out. */
export interface TraceFileOnDisk {
  uri: string;
  path: string;
  text: string;
  layout: TraceLayout;
}

/**
 * The workspace's trace files that are not open (by name, and `.json` files by their head: traceFiles.ts), read one
 * at a time through the bounded disk reader, up to `maxTraces` files; `report` gathers the files not read and, when a
 * limit left files out, the notice naming its setting. Files that hold no traces (traceFormats.ts decides) are
 * passed over.
 */
export async function* traceFilesOnDisk(
  open: ReadonlySet<string>,
  limits: WorkspaceTraceLimits,
  report: { problems: string[]; limitNotice?: string },
  setting: string,
  verb: string,
): AsyncGenerator<TraceFileOnDisk> {
  const seen = new Set<string>();
  let read = 0;
  const walk = limits.walk ?? workspaceTraceWalk(limits.maxJsonHeads ?? defaultMaxJsonHeads);
  const looks = newTraceWalkReport();
  const onLink = (path: string) => report.problems.push(`${path}: ${linkNotFollowed}`);
  for (const folder of limits.folders) {
    for await (const path of traceFilesBelow(folder, walk, looks, onLink)) {
      const uri = uriOfPath(path);
      if (open.has(uri) || seen.has(uri)) continue;
      seen.add(uri);
      if (read >= limits.maxTraces) {
        report.limitNotice = `more than ${limits.maxTraces} trace files in the workspace: the first ${limits.maxTraces} ${verb} (${setting})`;
        return;
      }
      const file = await readTextFile(path, { maxBytes: limits.maxBytes, folders: limits.folders, setting: 'agentTraces.workspace.maxFileSizeMB' });
      if (!file.ok) {
        report.problems.push(`${path}: ${file.reason}`);
        continue;
      }
      const layout = traceLayoutOfFile(file.path, file.text);
      if (!layout) continue;
      read++;
      yield { uri, path: file.path, text: file.text, layout };
    }
  }
  if (looks.headsLeftOut > 0) {
    report.limitNotice = `${looks.headsLeftOut} .json files not looked at: the beginnings of the first ${walk.maxHeads} were read to find conversations and logs (agentTraces.workspace.maxJsonFiles)`;
  }
}
