/** Quick fixes for rule files: did-you-mean replacements the checker suggested (`gr/unknown-attribute`). */
import type { CodeFix, Problem } from '../common/types';
import type { RuleModel } from './model';

export function codeFixes(_model: RuleModel, problems: Problem[]): CodeFix[] {
  const fixes: CodeFix[] = [];
  for (const problem of problems) {
    if (problem.code !== 'gr/unknown-attribute' || problem.suggestion === undefined) continue;
    fixes.push({
      title: `Change to '${problem.suggestion}'`,
      kind: 'quickfix',
      problem,
      edits: [{ span: problem.span, newText: problem.suggestion }],
      safe: false,
      preferred: true,
    });
  }
  return fixes;
}
