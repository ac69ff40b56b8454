import type { Span } from '../common/types';
import { fileNameOfUri } from '../common/uri';
import { checkBudget, spentBy, type Budget } from '../common/budget';
import type { RuleModel } from '../guardrail/model';
import { evaluateLoadedRulesStepwise, loadFailure, type EvaluationResult } from '../guardrail/evaluate';
import type { StopReason } from '../guardrail/evaluate/failure';
import { ErrorPlacer, firstLineOf, noTraceMessage, tracesInText, type ResumePoint, type TraceText } from './tracesInText';
import { runSteps } from '../common/steps';
import { outcome, type RuleOutcome } from './ruleOutcome';
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
  kind: 'not-evaluated' | 'work-budget' | 'timeout' | 'violation-limit' | 'failed' | 'not-json';
}

export interface RulesOnTraceResult {
  violations: TraceViolation[];
  notices: TraceNotice[];
  /** ruleUri → ruleIndex → outcome (ruleIndex -1: the whole file). */
  outcomes: Map<string, Map<number, RuleOutcome>>;
  /** Traces evaluated (one for a trace file, one per trace line of a dataset). */
  traces: number;
}

/** One rule of one rule file on one trace: the unit the time limit applies to. */
export interface RuleOnTrace {
  /** Where the trace starts in the document (its first character). */
  trace: number;
  /** Index of the rule file in the list evaluated. */
  ruleFile: number;
  /** Index of the rule in its file; -1 for the whole rule file (stopped while reading the trace for it). */
  rule: number;
}

/** A unit an earlier attempt of this evaluation had to end (see evaluationWorkers.ts), and why. */
export interface StoppedRule extends RuleOnTrace {
  reason: StopReason;
}

export interface RulesOnTraceOptions {
  /** Steps allowed per rule and trace (agentTraces.guardrails.workBudget). */
  workBudget: number;
  /** Milliseconds a rule may run on one trace (agentTraces.guardrails.timeout); default: no limit. */
  timeLimitMs?: number;
  /** Policy parameters (`input.name`; agentTraces.guardrails.parameters); default none. */
  parameters?: Record<string, unknown>;
  /** Where the setting names the limits, for the notices: the editor's settings by default. */
  limitNames?: { workBudget: string; timeLimit: string; maxViolations: string; parameters: string };
  /** Violations per rule and trace before the rule stops with a notice (agentTraces.maxProblems); default none. */
  maxViolations?: number;
  /** When the evaluation should stop (a newer version, a closed file): it then throws BudgetExceeded. */
  budget?: Budget;
  /** Also stops it (a newer count of the workspace): the result then holds what was found so far. */
  isCancelled?: () => boolean;
  /** The document's path or URI, which may decide how a converted format reads it (a conversation as JSON Lines). */
  path?: string;
  /** Start here instead of at the first trace (an attempt after one that was ended). */
  from?: ResumePoint;
  /** Rules an earlier attempt had to end: reported as stopped, not run again. */
  stopped?: readonly StoppedRule[];
  /**
   * Told where the evaluation is: each rule as it starts on a trace, and rule -1 while none runs (the trace is read
   * for a rule file, or a rule is done). The evaluation worker's watch over the time limit.
   */
  watch?: (unit: RuleOnTrace) => void;
  /**
   * Hands over the result so far, after a trace, about every `everyMs`: what follows goes into a new result, with
   * the resume point after that trace (the evaluation worker sends each part as it comes).
   */
  flush?: { everyMs: number; part(result: RulesOnTraceResult, next: ResumePoint): void };
}

export const ruleFileName = fileNameOfUri;

/** The editor's settings for each limit, as notices name them. */
export const editorLimitNames = {
  workBudget: 'setting agentTraces.guardrails.workBudget', timeLimit: 'setting agentTraces.guardrails.timeout', maxViolations: 'setting agentTraces.maxProblems',
  parameters: 'setting agentTraces.guardrails.parameters',
};

/** `layout`: how the text holds traces (traceFormats.ts): one trace, one per line, or those of another format's conversion. */
export function evaluateRulesOnTrace(rules: RuleFile[], text: string, layout: TraceLayout, options: RulesOnTraceOptions): RulesOnTraceResult {
  return runSteps(evaluationSteps(rules, text, layout, options));
}

/**
 * Evaluates, pausing (yield) after parsing a trace, between the evaluator's own steps (see evaluateRulesStepwise),
 * around locating ranges in the text and between traces; throws BudgetExceeded when the budget is spent.
 */
function* evaluationSteps(rules: RuleFile[], text: string, layout: TraceLayout, options: RulesOnTraceOptions): Generator<void, RulesOnTraceResult, void> {
  const { budget, flush } = options;
  const limitNames = options.limitNames ?? editorLimitNames;
  const isCancelled = () => spentBy(budget) !== undefined || (options.isCancelled?.() ?? false);
  let result = emptyResult();
  let traceCount = options.from?.traces ?? 0;
  let flushedAt = performance.now();
  const noticed = new Set<string>();
  const notice = (rule: RuleFile, ruleIndex: number, span: Span, message: string, ruleSpan: Span, kind: TraceNotice['kind']): void => {
    const key = `${rule.uri}\u0000${ruleIndex}\u0000${message}`;
    // A limit hit is counted on its own (limited, timedOut), not as a reason the rule was not evaluated.
    if (kind !== 'violation-limit' && kind !== 'timeout') outcome(result, rule.uri, ruleIndex).reason ??= message;
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
  for (const found of tracesInText(text, layout, options.path, options.from)) {
    checkBudget(budget);
    if ((yield* evaluateTrace(found)) === 'cancelled' || options.isCancelled?.()) break;
    if (flush && performance.now() - flushedAt >= flush.everyMs) {
      flush.part(result, { offset: found.next, line: (found.line ?? 0) + 1, traces: traceCount });
      result = emptyResult();
      flushedAt = performance.now();
    }
    yield;
  }
  return result;

  function* evaluateTrace(found: TraceText): Generator<void, 'cancelled' | undefined, void> {
    const lineNumber = found.line;
    const noticeSpan = firstLineOf(text, found);
    const where = lineNumber === undefined ? 'the trace' : `line ${lineNumber}`;
    const onLine = lineNumber === undefined ? '' : ` on line ${lineNumber}`;
    if (found.problem?.kind === 'not-json') {
      for (const rule of rules) notice(rule, -1, noticeSpan, `Guardrails from ${names.get(rule)} not evaluated on ${where}: it is not valid JSON (fix the syntax errors first)`, { start: 0, end: 0 }, 'not-json');
      return;
    }
    if (found.problem?.kind === 'no-trace') {
      for (const rule of rules) notice(rule, -1, noticeSpan, `Guardrails from ${names.get(rule)} not evaluated on ${where}: ${noTraceMessage}`, { start: 0, end: 0 }, 'failed');
      return;
    }
    yield;
    const traceNumber = traceCount++;
    result.traces++;
    const placer = new ErrorPlacer(text, found);
    for (const [ruleFileIndex, rule] of rules.entries()) {
      const name = names.get(rule)!;
      if (!result.outcomes.has(rule.uri)) result.outcomes.set(rule.uri, new Map()); // evaluated here, even if clean
      const notLoaded = unloadable.get(rule);
      if (notLoaded !== undefined) {
        outcome(result, rule.uri, -1).reason ??= notLoaded;
        continue;
      }
      const stopped = stoppedOn(options.stopped, found.start, ruleFileIndex);
      if (stopped.get(-1) === 'memory') {
        notice(rule, -1, noticeSpan, `Guardrails from ${name} not evaluated${onLine}: reading this trace took more memory than rules may use`, { start: 0, end: 0 }, 'failed');
        continue;
      }
      let evaluation: EvaluationResult;
      options.watch?.({ trace: found.start, ruleFile: ruleFileIndex, rule: -1 });
      try {
        const watch = options.watch && ((ruleIndex: number | null) => options.watch!({ trace: found.start, ruleFile: ruleFileIndex, rule: ruleIndex ?? -1 }));
        evaluation = yield* evaluateLoadedRulesStepwise(rule.model, found.trace, {
          budget: options.workBudget, timeLimitMs: options.timeLimitMs, maxErrors: options.maxViolations, parameters: options.parameters, isCancelled, stopped, watch,
        });
      } catch (error) {
        // A fault of the evaluator must cost this rule file its verdict on this trace, never the trace its diagnostics.
        const message = error instanceof Error ? error.message : String(error);
        notice(rule, -1, noticeSpan, `Guardrails from ${name} could not be evaluated${onLine}: the evaluator failed (${message})`, { start: 0, end: 0 }, 'failed');
        continue;
      }
      if (evaluation.cancelled) {
        checkBudget(budget);
        return 'cancelled';
      }
      if (evaluation.failure) {
        const failure = evaluation.failure;
        if (failure.ruleIndex < 0) { // the trace itself cannot be evaluated (read as the analyzer reads it, or too deep)
          notice(rule, -1, noticeSpan, `Guardrails from ${name} not evaluated${onLine}: ${failure.message}`, { start: 0, end: 0 }, 'failed');
          continue;
        }
        const line = rule.model.lines.positionAt(failure.start).line + 1;
        const remedy = failure.pyType === 'MissingPolicyParameter' ? `; give it in the ${limitNames.parameters}` : '';
        notice(rule, failure.ruleIndex, noticeSpan, `Guardrails from ${name} could not be evaluated${onLine}: ${failure.message} (${name}:${line})${remedy}`, { start: failure.start, end: failure.end }, 'failed');
        outcome(result, rule.uri, -1).reason ??= failure.message; // the rules after it were not reached either
        continue;
      }
      for (const n of evaluation.notices) {
        if (n.kind === 'error-limit') {
          outcome(result, rule.uri, n.ruleIndex).limited = true;
          notice(rule, n.ruleIndex, noticeSpan, `${name}: ${n.message} (${limitNames.maxViolations})`, { start: n.start, end: n.end }, 'violation-limit');
          continue;
        }
        if (n.kind === 'timeout') {
          const ruleOutcome = outcome(result, rule.uri, n.ruleIndex);
          ruleOutcome.timedOut = (ruleOutcome.timedOut ?? 0) + 1;
        }
        const kind = n.kind === 'budget' ? 'work-budget' : n.kind === 'timeout' ? 'timeout' : 'not-evaluated';
        const hint = n.kind === 'budget' ? ` (${limitNames.workBudget})` : n.kind === 'timeout' ? ` (${limitNames.timeLimit})` : '';
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

function emptyResult(): RulesOnTraceResult {
  return { violations: [], notices: [], outcomes: new Map(), traces: 0 };
}

/** The rules of one rule file an earlier attempt stopped on the trace starting at `trace`, by rule index. */
function stoppedOn(stopped: readonly StoppedRule[] | undefined, trace: number, ruleFile: number): Map<number, StopReason> {
  const found = new Map<number, StopReason>();
  for (const unit of stopped ?? []) if (unit.trace === trace && unit.ruleFile === ruleFile) found.set(unit.rule, unit.reason);
  return found;
}
