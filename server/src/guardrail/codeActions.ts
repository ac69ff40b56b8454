/**
 * Quick fixes for rule files: did-you-mean replacements the checker suggested (`gr/unknown-attribute`), the import
 * a standard-library name lacks, and removing an import nothing uses (importFixes.ts).
 */
import type { Budget } from '../common/budget';
import { applyEdits, quickfix } from '../common/codeActions';
import type { CodeFix, Problem, TextEditSpan } from '../common/types';
import { addImport, removeImport } from './importFixes';
import type { RuleModel } from './model';
import { parse } from './parser';

export function codeFixes(model: RuleModel, problems: Problem[]): CodeFix[] {
  const fixes: CodeFix[] = [];
  for (const problem of problems) {
    if (problem.code === 'gr/unknown-type' && problem.suggestion !== undefined) fixes.push(...replaceTypeName(model, problem, problem.suggestion));
    if (problem.code === 'gr/unknown-identifier' || problem.code === 'gr/unknown-type') fixes.push(...addImport(model, problem));
    else if (problem.code === 'gr/unused-import') fixes.push(...removeImport(model, problem));
    else if (problem.code === 'gr/unknown-attribute' && problem.suggestion !== undefined) fixes.push(replaceField(problem, problem.suggestion));
  }
  return fixes;
}

/** An unknown type's problem runs from the variable's name to the type's; the fix replaces the type's name alone. */
function replaceTypeName(model: RuleModel, problem: Problem, suggestion: string): CodeFix[] {
  const name = /[A-Za-z_]\w*$/.exec(model.text.slice(problem.span.start, problem.span.end))?.[0];
  if (!name) return [];
  const span = { start: problem.span.end - name.length, end: problem.span.end };
  return [quickfix(problem, `Change to '${suggestion}'`, [{ span, newText: suggestion }], false, true)];
}

function replaceField(problem: Problem, suggestion: string): CodeFix {
  return quickfix(problem, `Change to '${suggestion}'`, [{ span: problem.span, newText: suggestion }], false, true);
}

/** Whether the rule file with these edits applied parses without a syntax error (rule files are small: parsed whole). */
export function parsesWithEdits(model: RuleModel, edits: readonly TextEditSpan[], budget?: Budget): boolean {
  return !parse(applyEdits(model.text, [...edits]), budget).problems.some((problem) => problem.code === 'gr/syntax');
}
