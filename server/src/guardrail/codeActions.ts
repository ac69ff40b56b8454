/**
 * Quick fixes for rule files: did-you-mean replacements the checker suggested (`gr/unknown-attribute`), the import
 * a standard-library name lacks, and removing an import nothing uses (importFixes.ts).
 */
import { quickfix } from '../common/codeActions';
import type { CodeFix, Problem } from '../common/types';
import { addImport, removeImport } from './importFixes';
import type { RuleModel } from './model';

export function codeFixes(model: RuleModel, problems: Problem[]): CodeFix[] {
  const fixes: CodeFix[] = [];
  for (const problem of problems) {
    if (problem.code === 'gr/unknown-identifier' || problem.code === 'gr/unknown-type') fixes.push(...addImport(model, problem));
    else if (problem.code === 'gr/unused-import') fixes.push(...removeImport(model, problem));
    else if (problem.code === 'gr/unknown-attribute' && problem.suggestion !== undefined) fixes.push(replaceField(problem, problem.suggestion));
  }
  return fixes;
}

function replaceField(problem: Problem, suggestion: string): CodeFix {
  return quickfix(problem, `Change to '${suggestion}'`, [{ span: problem.span, newText: suggestion }], false, true);
}
