/** The code action request: the services' fixes and fix-alls as LSP code actions (the server's wiring for them). */
import { CodeActionKind, type CodeAction, type CodeActionParams } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { BudgetExceeded, type Budget } from '../common/budget';
import { codeActionsAt, fixAllEdits } from '../common/codeActions';
import type { Problem, TextEditSpan } from '../common/types';
import { fixAllKind, toCodeAction, toDiagnostic, toWorkspaceEdit } from './toProtocol';
import type { ParsedDocument } from './documentModels';
import type { RuleModel } from '../guardrail/model';
import { ruleAt } from '../guardrail/raises';
import { ExplainRuleOnTraceCommand } from '../../../shared/requests';

export function codeActions(
  parsed: ParsedDocument, document: TextDocument, params: CodeActionParams, problems: Problem[], snippetEdits: boolean, budget?: Budget,
): CodeAction[] {
  const { service, model } = parsed;
  const only = params.context.only;
  const wants = (kind: string) => !only || only.some((asked) => kind === asked || kind.startsWith(`${asked}.`));
  // Applied without a look at the result (on save, or as the lightbulb's default): only when the text still reads.
  const parses = (edits: TextEditSpan[]) => {
    try {
      return service.parsesWithEdits?.(model, edits, budget) ?? false;
    } catch (error) {
      if (error instanceof BudgetExceeded && error.reason === 'time') return false;
      throw error;
    }
  };
  const actions: CodeAction[] = [];
  if (only && wants(fixAllKind)) {
    const { edits } = fixAllEdits(service, model, problems);
    if (edits.length > 0 && parses(edits)) {
      actions.push({ title: 'Fix all safely fixable problems (Agent Traces)', kind: fixAllKind, edit: toWorkspaceEdit(document, edits, false, false) });
    }
  }
  if (!wants(CodeActionKind.QuickFix) && !wants(CodeActionKind.RefactorRewrite)) return actions;
  const span = { start: document.offsetAt(params.range.start), end: document.offsetAt(params.range.end) };
  const found = codeActionsAt(service, model, span, problems);
  if (wants(CodeActionKind.QuickFix)) {
    for (const fix of found.fixes) {
      const preferred = fix.preferred === true && parses(fix.edits);
      actions.push(toCodeAction(document, { ...fix, preferred }, [toDiagnostic(document, document.uri, fix.problem!)], snippetEdits));
    }
    for (const all of found.fixAllOfKind) {
      actions.push({ title: all.title, kind: CodeActionKind.QuickFix, edit: toWorkspaceEdit(document, all.edits, false, false) });
    }
  }
  if (wants(CodeActionKind.RefactorRewrite)) for (const fix of found.refactorings) actions.push(toCodeAction(document, fix, [], snippetEdits));
  if (!only && parsed.languageId === 'guardrail') actions.push(...explainRuleAction(model as RuleModel, document, span.start));
  return actions;
}

/** On a rule: "why not here?" on an element of an open trace the user picks (the client asks which). */
function explainRuleAction(model: RuleModel, document: TextDocument, offset: number): CodeAction[] {
  const rule = ruleAt(model, offset);
  if (!rule) return [];
  return [{
    title: `Why does "${rule.label}" not fire on…? Explain it on a trace element`,
    command: { title: 'Explain the rule on a trace element', command: ExplainRuleOnTraceCommand, arguments: [document.uri, rule.index] },
  }];
}
