/**
 * How each rule fared on a document, kept apart from the evaluation (evaluateOnTrace.ts) so that the server's side
 * (results.ts, the code lenses) reads and sums outcomes without loading the evaluator.
 */

/** Per rule file and rule: how the rule fared on this document (for the rule file's code lenses). */
export interface RuleOutcome {
  violations: number;
  /** Why the rule (or the whole file, ruleIndex -1) was not evaluated on this document, if it was not. */
  reason?: string;
  /** The rule stopped at the violation limit: it has more than `violations`. */
  limited?: boolean;
  /** Traces on which the rule ran past its time limit (agentTraces.guardrails.timeout). */
  timedOut?: number;
}

/** The outcome of a rule (ruleIndex -1: the whole file) in a result's outcomes, made on first use. */
export function outcome(result: { outcomes: Map<string, Map<number, RuleOutcome>> }, ruleUri: string, ruleIndex: number): RuleOutcome {
  let rules = result.outcomes.get(ruleUri);
  if (!rules) result.outcomes.set(ruleUri, (rules = new Map()));
  let found = rules.get(ruleIndex);
  if (!found) rules.set(ruleIndex, (found = { violations: 0 }));
  return found;
}
