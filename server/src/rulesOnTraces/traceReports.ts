import { LineIndex } from '../common/lineIndex';
import { evaluateLoadedRules, type EvaluationResult } from '../guardrail/evaluate';
import { Cancelled } from '../guardrail/evaluate/context';
import type { RuleFile, RulesOnTraceOptions } from './evaluateOnTrace';
import type { TraceLayout } from '../traceFormats';
import { ErrorPlacer, firstLineOf, noTraceMessage, tracesInText, type ResumePoint } from './tracesInText';

/**
 * One rule file on every trace of a document, reported trace by trace as `agent-traces eval` prints it: each
 * error with its arguments, key, ranges and place in the file, the notices, and why a trace was not evaluated.
 */

export interface Position {
  line: number;
  column: number;
}

export interface ReportedError {
  message: string | null;
  args: unknown[];
  kwargs: Record<string, unknown>;
  key: string;
  ranges: string[];
  /** Variable → the address of the trace element it was bound to. */
  bindings: Record<string, string>;
  range: { start: Position; end: Position };
  /** The places of the other elements the violation binds (printed in lines, not in --json, whose ranges say it). */
  with: Position[];
  /** Where each binding's element starts in the file (for the plain output). */
  bound: { variable: string; address: string; at: Position }[];
}

export interface TraceReport {
  /** 1-based line of a dataset line; absent for a trace file. */
  line?: number;
  errors: ReportedError[];
  /** Why the trace was not evaluated, or the evaluation failed. */
  error: string | null;
  /** Notices, each as a line to print (`rules.gr:3:1 information guardrails …`). */
  notices: string[];
  /** A rule was not evaluated on this trace, or stopped at its time limit or work budget: the verdict is incomplete. */
  incomplete: boolean;
}

export interface ReportOptions extends Pick<RulesOnTraceOptions, 'timeLimitMs' | 'from' | 'stopped'> {
  /** The rule file's path as messages name it. */
  rulesPath: string;
  /** The trace file's path as messages name it. */
  shownPath: string;
  parameters: Record<string, unknown>;
  budget?: number;
  /** Spell out every error's official ranges (for --json); otherwise only where to place it is worked out. */
  ranges: boolean;
  watch?: RulesOnTraceOptions['watch'];
  /** Stops the evaluation (it throws Cancelled). */
  isCancelled?: () => boolean;
  flush?: { everyMs: number; part(reports: TraceReport[], next: ResumePoint): void };
  /**
   * False: every rule runs on every trace. Otherwise a rule that needs a literal the trace's JSON text lacks is not
   * run there (the evaluator's `traceText`): the same reports, without the work.
   */
  prefilter?: boolean;
  /**
   * 1-based dataset lines, ascending, already known to hold a trace on which no rule can hold and that the analyzer
   * reads (datasetBytes.ts), their text left out of the document: each is reported as a trace with nothing found.
   */
  clean?: readonly number[];
}

/** `layout` and `path`: how the text holds traces, as tracesInText reads them. */
export function traceReports(rules: RuleFile, text: string, layout: TraceLayout, path: string, options: ReportOptions): TraceReport[] {
  const ruleLines = rules.model.lines;
  const at = (offset: number): string => {
    const p = ruleLines.positionAt(offset);
    return `${options.rulesPath}:${p.line + 1}:${p.character + 1}`;
  };
  const lines = new LineIndex(text); // its line starts are found on the first position asked for
  const position = (offset: number): Position => {
    const p = lines.positionAt(offset);
    return { line: p.line + 1, column: p.character + 1 };
  };
  let reports: TraceReport[] = [];
  let traces = options.from?.traces ?? 0;
  let flushedAt = performance.now();
  const clean = options.clean ?? [];
  let nextClean = 0;
  while (nextClean < clean.length && clean[nextClean] < (options.from?.line ?? 1)) nextClean++;
  const reportClean = (before: number) => {
    for (; nextClean < clean.length && clean[nextClean] < before; nextClean++, traces++) {
      reports.push({ errors: [], error: null, notices: [], incomplete: false, line: clean[nextClean] });
    }
  };
  for (const found of tracesInText(text, layout, path, options.from)) {
    if (options.isCancelled?.()) throw new Cancelled();
    reportClean(found.line ?? Infinity);
    const report: TraceReport = { errors: [], error: null, notices: [], incomplete: false, ...(found.line !== undefined ? { line: found.line } : {}) };
    reports.push(report);
    traces++;
    if (found.problem) {
      report.error = found.problem.kind === 'not-json' ? `not valid JSON: ${found.problem.detail}` : `not evaluated: ${noTraceMessage}`;
    } else if (options.stopped?.some((unit) => unit.trace === found.start && unit.rule === -1)) {
      report.error = 'not evaluated: reading this trace took more memory than rules may use';
    } else {
      if (found.converted) {
        const { skippedLines, omittedLines } = found.converted;
        if (skippedLines.length > 0) report.notices.push(`${options.shownPath}: ${skippedLinesText(skippedLines)} left out of the evaluation: not valid JSON (fix the syntax errors first)`);
        if (omittedLines > 0) {
          report.notices.push(`${options.shownPath}: the last ${omittedLines} lines left out of the evaluation: past the limit of lines read`);
          report.incomplete = true;
        }
      }
      const stopped = new Map(options.stopped?.filter((unit) => unit.trace === found.start).map((unit) => [unit.rule, unit.reason]));
      options.watch?.({ trace: found.start, ruleFile: 0, rule: -1 });
      const watch = options.watch && ((rule: number | null) => options.watch!({ trace: found.start, ruleFile: 0, rule: rule ?? -1 }));
      const result: EvaluationResult = evaluateLoadedRules(rules.model, found.trace, {
        parameters: options.parameters, budget: options.budget, timeLimitMs: options.timeLimitMs, stopped, watch, isCancelled: options.isCancelled,
        ...(options.prefilter !== false && !found.converted ? { traceText: text.slice(found.start, found.end) } : {}),
      });
      if (result.cancelled) throw new Cancelled();
      const placer = new ErrorPlacer(text, found);
      const firstLine = firstLineOf(text, found);
      for (const e of result.errors) {
        // Ranges are spelled out only where they are printed, and first: placing the error then reuses them.
        const ranges = options.ranges ? e.ranges : [];
        const { best, others } = placer.placeWithOthers(e, firstLine);
        const bound = e.bindings.map(({ variable, address }) => ({ variable, address, at: position(placer.addressSpan(address).start) }));
        report.errors.push({
          message: e.message, args: e.args, kwargs: e.kwargs, key: e.key, ranges, bindings: Object.fromEntries(bound.map((b) => [b.variable, b.address])),
          range: { start: position(best.start), end: position(best.end) }, with: others.map((span) => position(span.start)), bound,
        });
      }
      for (const n of result.notices) {
        report.notices.push(`${at(n.start)} information guardrails ${n.message}${n.kind === 'timeout' ? ' (--timeout)' : n.kind === 'budget' ? ' (--budget)' : ''}`);
        if (n.kind === 'timeout' || n.kind === 'budget' || n.kind === 'not-evaluated') report.incomplete = true;
      }
      if (result.failure) report.error = `${result.failure.start || result.failure.end ? at(result.failure.start) + ': ' : ''}${result.failure.message}`;
    }
    if (options.flush && performance.now() - flushedAt >= options.flush.everyMs) {
      options.flush.part(reports, { offset: found.next, line: (found.line ?? 0) + 1, traces });
      reports = [];
      flushedAt = performance.now();
    }
  }
  reportClean(Infinity);
  return reports;
}

function skippedLinesText(lines: number[]): string {
  const shown = lines.slice(0, 5).join(', ') + (lines.length > 5 ? `, … (${lines.length} in all)` : '');
  return `line${lines.length === 1 ? '' : 's'} ${shown}`;
}
