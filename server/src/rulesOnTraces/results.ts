import type { GuardrailResults, RuleFileResults, Target } from '../common/types';
import type { RulesOnTraceResult } from './evaluateOnTrace';

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
    const perRule = new Map<number, { violations: number; traces: Set<string>; targets: Target[]; reason?: string; limited?: boolean; unevaluated: Set<string> }>();
    const ruleTally = (ruleIndex: number) => {
      let tally = perRule.get(ruleIndex);
      if (!tally) perRule.set(ruleIndex, (tally = { violations: 0, traces: new Set(), targets: [], unevaluated: new Set() }));
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
          ? { violations: tally.violations, traces: tally.traces.size, targets: tally.targets, reason: tally.reason, limited: tally.limited, unevaluated }
          : { violations: 0, traces: 0, targets: [], unevaluated };
      },
      fileReason,
      documents,
      workspaceFiles,
      limitNotice: this.limitNotice,
    };
  }
}
