import type { Span } from '../common/types';
import type { RuleModel } from '../guardrail/model';
import { evaluateLoadedRules, type EvaluationOptions, type EvaluationResult, type VariableBinding } from '../guardrail/evaluate';
import { ErrorPlacer, firstLineOf, tracesInText, type TraceText } from './tracesInText';
import type { TraceLayout } from '../traceFormats';

/**
 * What a change of a rule file flips: both versions evaluated on the same traces (a trace file, or each trace line
 * of a dataset), and for each trace whose violations differ, the violations only the new version finds (added) and
 * those only the old one found (removed). A violation is the same in both when its message, the trace elements its
 * variables were bound to and the place it marks are: moving or adding other rules changes none of these.
 */

export interface ComparedViolation {
  message: string;
  /** 1-based line of the rule's `raise` in its version of the rule file. */
  rule: number;
  /** Where it is in the document. */
  span: Span;
  ranges: string[];
  bindings: VariableBinding[];
}

export interface TraceFlip {
  /** The trace's place in the document (its first line, for a dataset its line). */
  trace: Span;
  /** 1-based line of a dataset line; absent for a trace file. */
  line?: number;
  added: ComparedViolation[];
  removed: ComparedViolation[];
  /** Why a version could not be evaluated on this trace (its verdict there is not known). */
  oldFailure?: string;
  newFailure?: string;
}

export interface Comparison {
  /** Traces of the document that were evaluated by both versions. */
  traces: number;
  /** Only the traces whose verdict differs, or that a version could not evaluate. */
  flips: TraceFlip[];
  /** The document holds no trace, or a line is not JSON: what was not evaluated. */
  unreadable: { line?: number; reason: string }[];
}

export function compareOnText(oldRules: RuleModel, newRules: RuleModel, text: string, layout: TraceLayout, options: EvaluationOptions = {}, path = ''): Comparison {
  const comparison: Comparison = { traces: 0, flips: [], unreadable: [] };
  for (const found of tracesInText(text, layout, path)) {
    if (found.problem) {
      comparison.unreadable.push({ ...(found.line !== undefined ? { line: found.line } : {}), reason: found.problem.kind === 'not-json' ? `not valid JSON: ${found.problem.detail}` : 'it holds no trace' });
      continue;
    }
    comparison.traces++;
    const flip = compareOnTrace(oldRules, newRules, text, found, options);
    if (flip) comparison.flips.push(flip);
  }
  return comparison;
}

function compareOnTrace(oldRules: RuleModel, newRules: RuleModel, text: string, found: TraceText, options: EvaluationOptions): TraceFlip | undefined {
  const placer = new ErrorPlacer(text, found);
  const traceSpan = firstLineOf(text, found);
  const before = violationsOf(oldRules, evaluateLoadedRules(oldRules, found.trace, options), placer, traceSpan);
  const after = violationsOf(newRules, evaluateLoadedRules(newRules, found.trace, options), placer, traceSpan);
  const flip: TraceFlip = { trace: traceSpan, ...(found.line !== undefined ? { line: found.line } : {}), added: [], removed: [] };
  if (typeof before === 'string') flip.oldFailure = before;
  if (typeof after === 'string') flip.newFailure = after;
  if (typeof before !== 'string' && typeof after !== 'string') {
    flip.added = unmatched(after, before);
    flip.removed = unmatched(before, after);
  }
  return flip.added.length > 0 || flip.removed.length > 0 || flip.oldFailure || flip.newFailure ? flip : undefined;
}

/** The violations of `list` that `other` has no counterpart for (each counterpart used once). */
function unmatched(list: ComparedViolation[], other: ComparedViolation[]): ComparedViolation[] {
  const counts = new Map<string, number>();
  for (const v of other) counts.set(identity(v), (counts.get(identity(v)) ?? 0) + 1);
  return list.filter((v) => {
    const left = counts.get(identity(v)) ?? 0;
    if (left === 0) return true;
    counts.set(identity(v), left - 1);
    return false;
  });
}

function identity(v: ComparedViolation): string {
  return JSON.stringify([v.message, v.bindings, v.span.start, v.span.end]);
}

/** The placed violations of one version, or why it could not be evaluated on the trace. */
function violationsOf(rules: RuleModel, result: EvaluationResult, placer: ErrorPlacer, fallback: Span): ComparedViolation[] | string {
  if (result.failure) return result.failure.message;
  const stopped = result.notices.find((n) => n.kind === 'budget' || n.kind === 'timeout');
  if (stopped) return stopped.message;
  return result.errors.map((e) => ({
    message: e.message ?? String(e.args[0] ?? e.key),
    rule: rules.lines.positionAt(e.raiseStart).line + 1,
    span: placer.place(e, fallback),
    ranges: e.placeRanges(),
    bindings: e.bindings,
  }));
}
