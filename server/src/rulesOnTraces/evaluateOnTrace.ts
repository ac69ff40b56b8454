import type { Span } from '../common/types';
import { fileNameOfUri } from '../common/uri';
import { checkBudget, spentBy, type Budget } from '../common/budget';
import type { RuleModel } from '../guardrail/model';
import { evaluateLoadedRulesStepwise, loadFailure, type EvaluationResult } from '../guardrail/evaluate';
import { ErrorPlacer, firstLineOf, noTraceMessage, tracesInText, type TraceText } from './tracesInText';
import { runSteps, runStepsInSlices } from '../common/steps';
import type { TraceLayout } from '../traceFormats';

/**
 * Runs rule files on one trace document (a `.trace.json`, each trace line of a dataset, or the traces another
 * format converts to) and places every
 * violation on the exact characters of its most precise range. Free of LSP types: the server converts the result,
 * the tests read it as it is.
 */

export interface RuleFile {
  uri: string;
  model: RuleModel;
}

export interface TraceViolation {
  ruleUri: string;
  ruleIndex: number;
  /** Which trace of the document (0 for a trace file; the count of trace lines before it in a dataset). */
  trace: number;
  /** In the trace document (UTF-16 offsets). */
  span: Span;
  message: string;
  /** `guardrails/<rule file name>:<line of the raise>`. */
  code: string;
  /** The rule's `raise … if:` header in the rule file. */
  raise: Span;
  /** Which trace element each variable of the rule was bound to: its official address and its characters here. */
  bindings: { variable: string; address: string; span: Span }[];
}

/** Something the user must know once per trace document and rule: a rule not evaluated, a failure, a budget hit. */
export interface TraceNotice {
  ruleUri: string;
  /** -1 when the whole rule file is concerned (a failure before any rule ran, a trace that is not JSON). */
  ruleIndex: number;
  span: Span;
  message: string;
  /** Where in the rule file it comes from. */
  ruleSpan: Span;
  /** The diagnostic code's last part: `guardrails/<kind>`. */
  kind: 'not-evaluated' | 'work-budget' | 'violation-limit' | 'failed' | 'not-json';
}

/** Per rule file and rule: how the rule fared on this document (for the rule file's code lenses). */
export interface RuleOutcome {
  violations: number;
  /** Why the rule (or the whole file, ruleIndex -1) was not evaluated on this document, if it was not. */
  reason?: string;
  /** The rule stopped at the violation limit: it has more than `violations`. */
  limited?: boolean;
}

export interface RulesOnTraceResult {
  violations: TraceViolation[];
  notices: TraceNotice[];
  /** ruleUri → ruleIndex → outcome (ruleIndex -1: the whole file). */
  outcomes: Map<string, Map<number, RuleOutcome>>;
  /** Traces evaluated (one for a trace file, one per trace line of a dataset). */
  traces: number;
}

export interface RulesOnTraceOptions {
  /** Rule-body evaluations allowed per rule and trace (agentTraces.guardrails.workBudget). */
  workBudget: number;
  /** Violations per rule and trace before the rule stops with a notice (agentTraces.maxProblems); default none. */
  maxViolations?: number;
  /** When the evaluation should stop (a newer version, a closed file): it then throws BudgetExceeded. */
  budget?: Budget;
  /** Also stops it (a newer count of the workspace): the result then holds what was found so far. */
  isCancelled?: () => boolean;
  /** The document's path or URI, which may decide how a converted format reads it (a conversation as JSON Lines). */
  path?: string;
}

export const ruleFileName = fileNameOfUri;

/** `layout`: how the text holds traces (traceFormats.ts): one trace, one per line, or those of another format's conversion. */
export function evaluateRulesOnTrace(rules: RuleFile[], text: string, layout: TraceLayout, options: RulesOnTraceOptions): RulesOnTraceResult {
  return runSteps(evaluationSteps(rules, text, layout, options));
}

/**
 * The same evaluation in slices of about `sliceMs`, each followed by `pause()` (a turn of the event loop for other
 * requests), with the budget checked between slices. A slice ends at one of the evaluation's steps (see
 * evaluationSteps): one rule's evaluation on one trace runs whole (bounded by the work budget).
 */
export async function evaluateRulesOnTraceInSlices(
  rules: RuleFile[], text: string, layout: TraceLayout, options: RulesOnTraceOptions, pause: () => Promise<void>, sliceMs: number,
): Promise<RulesOnTraceResult> {
  return runStepsInSlices(evaluationSteps(rules, text, layout, options), pause, sliceMs, () => checkBudget(options.budget));
}

/**
 * Evaluates, pausing (yield) after parsing a trace, between the evaluator's own steps (see evaluateRulesStepwise),
 * around locating ranges in the text and between traces; throws BudgetExceeded when the budget is spent.
 */
function* evaluationSteps(rules: RuleFile[], text: string, layout: TraceLayout, options: RulesOnTraceOptions): Generator<void, RulesOnTraceResult, void> {
  const { budget } = options;
  const isCancelled = () => spentBy(budget) !== undefined || (options.isCancelled?.() ?? false);
  const result: RulesOnTraceResult = { violations: [], notices: [], outcomes: new Map(), traces: 0 };
  const noticed = new Set<string>();
  const notice = (rule: RuleFile, ruleIndex: number, span: Span, message: string, ruleSpan: Span, kind: TraceNotice['kind']): void => {
    const key = `${rule.uri}\u0000${ruleIndex}\u0000${message}`;
    if (kind !== 'violation-limit') outcome(result, rule.uri, ruleIndex).reason ??= message;
    if (noticed.has(key)) return;
    noticed.add(key);
    result.notices.push({ ruleUri: rule.uri, ruleIndex, span, message, ruleSpan, kind });
  };
  // A rule file that does not parse or load fails the same way on every trace: decided once, here. It already shows
  // why on itself; its code lenses say so (from the first trace evaluated), not every trace.
  const unloadable = new Map<RuleFile, string>();
  const names = new Map(rules.map((rule) => [rule, ruleFileName(rule.uri)]));
  for (const rule of rules) {
    const failure = loadFailure(rule.model);
    if (failure) unloadable.set(rule, failure.message);
  }
  for (const found of tracesInText(text, layout, options.path)) {
    checkBudget(budget);
    if ((yield* evaluateTrace(found)) === 'cancelled' || options.isCancelled?.()) break;
    yield;
  }
  return result;

  function* evaluateTrace(found: TraceText): Generator<void, 'cancelled' | undefined, void> {
    const lineNumber = found.line;
    const noticeSpan = firstLineOf(text, found);
    const where = lineNumber === undefined ? 'the trace' : `line ${lineNumber}`;
    if (found.problem?.kind === 'not-json') {
      for (const rule of rules) notice(rule, -1, noticeSpan, `Guardrails from ${names.get(rule)} not evaluated on ${where}: it is not valid JSON (fix the syntax errors first)`, { start: 0, end: 0 }, 'not-json');
      return;
    }
    if (found.problem?.kind === 'no-trace') {
      for (const rule of rules) notice(rule, -1, noticeSpan, `Guardrails from ${names.get(rule)} not evaluated on ${where}: ${noTraceMessage}`, { start: 0, end: 0 }, 'failed');
      return;
    }
    yield;
    const traceNumber = result.traces++;
    const placer = new ErrorPlacer(text, found);
    for (const rule of rules) {
      const name = names.get(rule)!;
      if (!result.outcomes.has(rule.uri)) result.outcomes.set(rule.uri, new Map()); // evaluated here, even if clean
      const notLoaded = unloadable.get(rule);
      if (notLoaded !== undefined) {
        outcome(result, rule.uri, -1).reason ??= notLoaded;
        continue;
      }
      let evaluation: EvaluationResult;
      try {
        evaluation = yield* evaluateLoadedRulesStepwise(rule.model, found.trace, { budget: options.workBudget, maxErrors: options.maxViolations, isCancelled });
      } catch (error) {
        // A fault of the evaluator must cost this rule file its verdict on this trace, never the trace its diagnostics.
        const message = error instanceof Error ? error.message : String(error);
        notice(rule, -1, noticeSpan, `Guardrails from ${name} could not be evaluated${lineNumber === undefined ? '' : ` on line ${lineNumber}`}: the evaluator failed (${message})`, { start: 0, end: 0 }, 'failed');
        continue;
      }
      if (evaluation.cancelled) {
        checkBudget(budget);
        return 'cancelled';
      }
      if (evaluation.failure) {
        const failure = evaluation.failure;
        if (failure.ruleIndex < 0) { // the trace itself cannot be evaluated (read as the analyzer reads it, or too deep)
          notice(rule, -1, noticeSpan, `Guardrails from ${name} not evaluated${lineNumber === undefined ? '' : ` on line ${lineNumber}`}: ${failure.message}`, { start: 0, end: 0 }, 'failed');
          continue;
        }
        const line = rule.model.lines.positionAt(failure.start).line + 1;
        notice(rule, failure.ruleIndex, noticeSpan, `Guardrails from ${name} could not be evaluated${lineNumber === undefined ? '' : ` on line ${lineNumber}`}: ${failure.message} (${name}:${line})`, { start: failure.start, end: failure.end }, 'failed');
        outcome(result, rule.uri, -1).reason ??= failure.message; // the rules after it were not reached either
        continue;
      }
      for (const n of evaluation.notices) {
        if (n.kind === 'error-limit') {
          outcome(result, rule.uri, n.ruleIndex).limited = true;
          notice(rule, n.ruleIndex, noticeSpan, `${name}: ${n.message} (setting agentTraces.maxProblems)`, { start: n.start, end: n.end }, 'violation-limit');
          continue;
        }
        const kind = n.kind === 'budget' ? 'work-budget' : 'not-evaluated';
        const hint = n.kind === 'budget' ? ' (setting agentTraces.guardrails.workBudget)' : '';
        notice(rule, n.ruleIndex, noticeSpan, `${name}: ${n.message}${hint}`, { start: n.start, end: n.end }, kind);
      }
      if (evaluation.errors.length > 0 && !placer.addressesRead) {
        // Locating ranges reads the trace's text again: a step of its own.
        yield;
        yield* placer.readAddressesInSteps();
        yield;
      }
      for (const error of evaluation.errors) {
        const line = rule.model.lines.positionAt(error.raiseStart).line + 1;
        result.violations.push({
          ruleUri: rule.uri,
          ruleIndex: error.ruleIndex,
          trace: traceNumber,
          // A violation without ranges marks the trace's first line.
          span: placer.place(error, noticeSpan),
          message: error.message ?? String(error.args[0] ?? error.key),
          code: `guardrails/${name}:${line}`,
          raise: { start: error.raiseStart, end: error.raiseEnd },
          bindings: error.bindings.map(({ variable, address }) => ({ variable, address, span: placer.addressSpan(address) })),
        });
        outcome(result, rule.uri, error.ruleIndex).violations++;
      }
    }
    return undefined;
  }
}

function outcome(result: RulesOnTraceResult, ruleUri: string, ruleIndex: number): RuleOutcome {
  let rules = result.outcomes.get(ruleUri);
  if (!rules) result.outcomes.set(ruleUri, (rules = new Map()));
  let found = rules.get(ruleIndex);
  if (!found) rules.set(ruleIndex, (found = { violations: 0 }));
  return found;
}
