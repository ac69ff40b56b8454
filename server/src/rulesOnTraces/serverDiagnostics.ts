import type { Diagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { toGuardrailNoticeDiagnostic, toViolationDiagnostic } from '../convert';
import type { ServerSettings } from '../settings';
import { evaluateRulesOnTrace, type RuleFile, type RulesOnTraceResult } from './evaluateOnTrace';

/** The server's side of rules on a trace: evaluate (the service) and convert to diagnostics (at the LSP boundary). */
export function guardrailDiagnostics(document: TextDocument, dataset: boolean, rules: RuleFile[], options: ServerSettings['guardrails'], maxProblems: number): { diagnostics: Diagnostic[]; result: RulesOnTraceResult } {
  const result = evaluateRulesOnTrace(rules, document.getText(), dataset, { workBudget: options.workBudget, maxViolations: maxProblems });
  const ruleLines = new Map(rules.map((rule) => [rule.uri, rule.model.lines]));
  const diagnostics = [
    ...result.notices.map((notice) => toGuardrailNoticeDiagnostic(document, notice, ruleLines.get(notice.ruleUri)!)),
    ...result.violations.map((violation) => toViolationDiagnostic(document, violation, options.severity, ruleLines.get(violation.ruleUri)!)),
  ];
  return { diagnostics, result };
}
