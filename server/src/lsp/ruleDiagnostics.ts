import type { Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Budget } from '../common/budget';
import { toGuardrailNoticeDiagnostic, toViolationDiagnostic } from './toProtocol';
import type { ServerSettings } from '../settings';
import { evaluateRulesOnTraceInSlices, type RuleFile, type RulesOnTraceResult } from '../rulesOnTraces/evaluateOnTrace';

// The workspace counts for rule lenses evaluate too: they load with the evaluator (see ruleChecks.ts).
export { evaluateWorkspaceTraces } from '../rulesOnTraces/workspaceTraces';
import { nextTurn, sliceMs } from '../common/steps';


/**
 * The server's side of rules on a trace: evaluate (the service) and convert to diagnostics (at the LSP boundary).
 * A long evaluation runs in slices that let other requests through, and stops (BudgetExceeded) once `budget` says so.
 */
export async function guardrailDiagnostics(
  document: TextDocument, dataset: boolean, rules: RuleFile[], options: ServerSettings['guardrails'], maxProblems: number, budget: Budget,
  /** Called once, when the evaluation turns out long enough to need a second slice. */
  onSlicing: () => void = () => undefined,
): Promise<{ diagnostics: Diagnostic[]; result: RulesOnTraceResult }> {
  let slices = 0;
  const pause = () => {
    if (slices++ === 0) onSlicing();
    return nextTurn();
  };
  const result = await evaluateRulesOnTraceInSlices(rules, document.getText(), dataset, { workBudget: options.workBudget, maxViolations: maxProblems, budget }, pause, sliceMs);
  const ruleLines = new Map(rules.map((rule) => [rule.uri, rule.model.lines]));
  const diagnostics = [
    ...result.notices.map((notice) => toGuardrailNoticeDiagnostic(document, notice, ruleLines.get(notice.ruleUri)!)),
    ...result.violations.map((violation) => toViolationDiagnostic(document, violation, options.severity, ruleLines.get(violation.ruleUri)!)),
  ];
  return { diagnostics, result };
}
