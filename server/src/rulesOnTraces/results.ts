import type { GuardrailResults, RuleFileResults, Target } from '../common/types';
import type { RulesOnTraceResult } from './evaluateOnTrace';
import { outcome } from './ruleOutcome';

/** Violations listed per rule in its code lens (the count is always complete). */
const maxTargetsPerRule = 500;

interface TraceEntry {
  result: RulesOnTraceResult;
  positions: NonNullable<Target['positions']>;
}

/** The latest evaluation of rule files on each trace document, summed up per rule for the rule files' code lenses. */
export class TraceResults implements GuardrailResults {
  private readonly byTrace = new Map<string, TraceEntry>();
  /** The workspace's trace files that are not open (see workspaceTraces.ts); an open document's entry wins. */
  private workspace = new Map<string, TraceEntry>();
  /** Set when trace files were left out (the workspace limit), naming the setting. */
  limitNotice: string | undefined;

  hasWorkspaceFile(traceUri: string): boolean {
    return this.workspace.has(traceUri);
  }

  setWorkspace(entries: Map<string, TraceEntry>, limitNotice: string | undefined): void {
    this.workspace = entries;
    this.limitNotice = limitNotice;
  }

  set(traceUri: string, result: RulesOnTraceResult, positions: TraceEntry['positions']): void {
    this.byTrace.set(traceUri, { result, positions });
  }

  delete(traceUri: string): boolean {
    return this.byTrace.delete(traceUri);
  }

  get(traceUri: string): RulesOnTraceResult | undefined {
    return this.byTrace.get(traceUri)?.result;
  }

  forRuleFile(uri: string): RuleFileResults {
    const perRule = new Map<number, {
      violations: number; traces: Set<string>; targets: Target[]; reason?: string; limited?: boolean; unevaluated: Set<string>; timedOut: number; timedOutFiles: Set<string>;
    }>();
    const ruleTally = (ruleIndex: number) => {
      let tally = perRule.get(ruleIndex);
      if (!tally) perRule.set(ruleIndex, (tally = { violations: 0, traces: new Set(), targets: [], unevaluated: new Set(), timedOut: 0, timedOutFiles: new Set() }));
      return tally;
    };
    /** Trace files on which the whole rule file was not evaluated. */
    const fileUnevaluated = new Set<string>();
    let documents = 0;
    let workspaceFiles = 0;
    let fileReason: string | undefined;
    const entries = [...this.byTrace, ...[...this.workspace].filter(([traceUri]) => !this.byTrace.has(traceUri))];
    for (const [traceUri, { result, positions }] of entries) {
      const outcomes = result.outcomes.get(uri);
      if (!outcomes) continue;
      if (this.byTrace.has(traceUri)) documents++;
      else workspaceFiles++;
      for (const [ruleIndex, outcome] of outcomes) {
        if (outcome.limited) ruleTally(ruleIndex).limited = true;
        if (outcome.timedOut) {
          const tally = ruleTally(ruleIndex);
          tally.timedOut += outcome.timedOut;
          tally.timedOutFiles.add(traceUri);
        }
        if (!outcome.reason) continue;
        if (ruleIndex < 0) {
          fileReason ??= outcome.reason;
          fileUnevaluated.add(traceUri);
        } else {
          const tally = ruleTally(ruleIndex);
          tally.reason ??= outcome.reason;
          tally.unevaluated.add(traceUri);
        }
      }
      for (const violation of result.violations) {
        if (violation.ruleUri !== uri) continue;
        const tally = ruleTally(violation.ruleIndex);
        tally.violations++;
        tally.traces.add(`${traceUri}\u0000${violation.trace}`);
        if (tally.targets.length < maxTargetsPerRule) tally.targets.push({ uri: traceUri, span: violation.span, positions });
      }
    }
    return {
      rule: (ruleIndex) => {
        const tally = perRule.get(ruleIndex);
        const unevaluated = new Set([...fileUnevaluated, ...(tally?.unevaluated ?? [])]).size;
        return tally
          ? {
            violations: tally.violations, traces: tally.traces.size, targets: tally.targets, reason: tally.reason, limited: tally.limited, unevaluated,
            timedOut: tally.timedOut, timedOutFiles: [...tally.timedOutFiles],
          }
          : { violations: 0, traces: 0, targets: [], unevaluated, timedOut: 0, timedOutFiles: [] };
      },
      fileReason,
      documents,
      workspaceFiles,
      limitNotice: this.limitNotice,
    };
  }
}

/**
 * Adds a later part of the same evaluation (see RulesOnTraceOptions.flush) to `total`: notices said in an earlier
 * part (or by an earlier attempt) are not said again.
 */
export function addPart(total: RulesOnTraceResult, part: RulesOnTraceResult): void {
  for (const v of part.violations) total.violations.push(v);
  const said = new Set(total.notices.map((n) => `${n.ruleUri}\u0000${n.ruleIndex}\u0000${n.message}`));
  for (const n of part.notices) if (!said.has(`${n.ruleUri}\u0000${n.ruleIndex}\u0000${n.message}`)) total.notices.push(n);
  for (const [ruleUri, rules] of part.outcomes) {
    if (!total.outcomes.has(ruleUri)) total.outcomes.set(ruleUri, new Map());
    for (const [ruleIndex, added] of rules) {
      const into = outcome(total, ruleUri, ruleIndex);
      into.violations += added.violations;
      if (added.reason !== undefined) into.reason ??= added.reason;
      if (added.limited) into.limited = true;
      if (added.timedOut) into.timedOut = (into.timedOut ?? 0) + added.timedOut;
    }
  }
  total.traces += part.traces;
}
