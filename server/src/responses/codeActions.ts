/** Quick fixes of a Responses document: an output that names its call's item `id` gets the call's `call_id`. */
import { quickfix } from '../common/codeActions';
import type { CodeFix, Problem } from '../common/types';

export function codeFixes(_model: unknown, problems: Problem[]): CodeFix[] {
  const fixes: CodeFix[] = [];
  for (const problem of problems) {
    if (problem.code !== 'responses/unknown-call-id' || problem.suggestion === undefined) continue;
    // The id matches exactly one call's item id: the intended call is certain.
    fixes.push(quickfix(problem, `Name the call by its call_id ${JSON.stringify(problem.suggestion)}`, [{ span: problem.span, newText: JSON.stringify(problem.suggestion) }], true));
  }
  return fixes;
}
