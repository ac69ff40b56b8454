import type { Span } from '../common/types';
import type { RuleModel } from '../guardrail/model';
import { evaluateLoadedRules, type EvaluationOptions, type EvaluationResult } from '../guardrail/evaluate';
import { Cancelled } from '../guardrail/evaluate/context';
import type { RuleOnTrace, StoppedRule } from './evaluateOnTrace';
import { ErrorPlacer, firstLineOf, tracesInText, type ResumePoint, type TraceText } from './tracesInText';
import type { TraceLayout } from '../traceFormats';
import type { ComparedViolation, Comparison, TraceFlip } from './comparison';

export { addComparison, type ComparedViolation, type Comparison, type TraceFlip } from './comparison';

/**
 * What a change of a rule file flips: both versions evaluated on the same traces (a trace file, or each trace line
 * of a dataset), and for each trace whose violations differ, the violations only the new version finds (added) and
 * those only the old one found (removed). A violation is the same in both when its message, the trace elements its
 * variables were bound to and the place it marks are: moving or adding other rules changes none of these.
 */

export interface CompareOptions extends Pick<EvaluationOptions, 'parameters' | 'budget' | 'timeLimitMs' | 'isCancelled'> {
  /** Where an earlier attempt stopped (the evaluation worker's resume), and the rules it had to end. */
  from?: ResumePoint;
  stopped?: readonly StoppedRule[];
  /** Told where the evaluation is (rule file 0 is the old version, 1 the new one). */
  watch?: (unit: RuleOnTrace) => void;
  /** Hands over the comparison so far every `everyMs`, and goes on with an empty one. */
  flush?: { everyMs: number; part(comparison: Comparison, next: ResumePoint): void };
}

/** `layout` and `path`: how the text holds traces, as tracesInText reads them. */
export function compareOnText(
  oldRules: RuleModel, newRules: RuleModel, text: string, layout: TraceLayout, options: CompareOptions = {}, path = '',
): Comparison {
  let comparison: Comparison = { traces: 0, flips: [], unreadable: [] };
  let traces = options.from?.traces ?? 0;
  let flushedAt = performance.now();
  for (const found of tracesInText(text, layout, path, options.from)) {
    if (options.isCancelled?.()) throw new Cancelled();
    traces++;
    if (found.problem) {
      comparison.unreadable.push({ ...(found.line !== undefined ? { line: found.line } : {}), reason: found.problem.kind === 'not-json' ? `not valid JSON: ${found.problem.detail}` : 'it holds no trace' });
    } else {
      comparison.traces++;
      const flip = compareOnTrace(oldRules, newRules, text, found, options);
      if (flip) comparison.flips.push(flip);
    }
    if (options.flush && performance.now() - flushedAt >= options.flush.everyMs) {
      options.flush.part(comparison, { offset: found.next, line: (found.line ?? 0) + 1, traces });
      comparison = { traces: 0, flips: [], unreadable: [] };
      flushedAt = performance.now();
    }
  }
  return comparison;
}


function compareOnTrace(oldRules: RuleModel, newRules: RuleModel, text: string, found: TraceText, options: CompareOptions): TraceFlip | undefined {
  const placer = new ErrorPlacer(text, found);
  const traceSpan = firstLineOf(text, found);
  const evaluate = (rules: RuleModel, ruleFile: number): EvaluationResult | string => {
    const stopped = options.stopped?.filter((unit) => unit.trace === found.start && unit.ruleFile === ruleFile) ?? [];
    if (stopped.some((unit) => unit.rule === -1)) return 'reading this trace took more memory than rules may use';
    const watch = options.watch && ((rule: number | null) => options.watch!({ trace: found.start, ruleFile, rule: rule ?? -1 }));
    const result = evaluateLoadedRules(rules, found.trace, {
      parameters: options.parameters, budget: options.budget, timeLimitMs: options.timeLimitMs, isCancelled: options.isCancelled,
      stopped: new Map(stopped.map((unit) => [unit.rule, unit.reason])), watch,
    });
    if (result.cancelled) throw new Cancelled();
    return result;
  };
  const oldResult = evaluate(oldRules, 0);
  const newResult = evaluate(newRules, 1);
  const before = typeof oldResult === 'string' ? oldResult : violationsOf(oldRules, oldResult, placer, traceSpan);
  const after = typeof newResult === 'string' ? newResult : violationsOf(newRules, newResult, placer, traceSpan);
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
