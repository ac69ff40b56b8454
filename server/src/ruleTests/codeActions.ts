import { quickfix } from '../common/codeActions';
import type { CodeFix, Problem } from '../common/types';
import type { ManifestModel } from './manifest';

/** A misspelled field's did-you-mean, and an expected message replaced by the one its rule raises. */
export function codeFixes(_model: ManifestModel, problems: Problem[]): CodeFix[] {
  const fixes: CodeFix[] = [];
  for (const problem of problems) {
    if (problem.suggestion === undefined) continue;
    if (problem.code === 'tests/schema') fixes.push(quickfix(problem, `Change to ${problem.suggestion}`, [{ span: problem.span, newText: problem.suggestion }], false, true));
    else if (problem.code === 'tests/unknown-message') fixes.push(quickfix(problem, `Expect ${problem.suggestion}`, [{ span: problem.span, newText: problem.suggestion }], false, true));
  }
  return fixes;
}
