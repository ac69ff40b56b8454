import { capProblems, sortByPosition, tooManyProblemsMessage } from '../common/capProblems';
import type { ServiceContext } from '../common/languageService';
import type { Problem } from '../common/types';
import type { LinesModel } from './lines';

/** Reports a problem; a member's check calls it for each problem it finds. */
export type ReportProblem = (problem: Problem) => boolean;

/**
 * Every line is checked on its own (a broken line only reports its own syntax errors), then the member's checks
 * (`checkMember`: the rules that span lines, each trace line by the single-trace service). At most
 * settings.maxProblems are returned (the most severe), in document order, with a notice when more were found.
 */
export function validateLines(model: LinesModel, context: ServiceContext, checkMember: (report: ReportProblem) => void): Problem[] {
  const problems: Problem[] = [];
  const report = (problem: Problem): boolean => {
    problems.push(problem);
    return true;
  };
  for (const line of model.contentLines) {
    for (const error of line.errors) {
      report({
        span: { start: error.start, end: Math.min(error.end, Math.max(line.end, error.start)) },
        severity: 'error',
        code: 'jsonl/syntax',
        message: `${error.message} (line ${line.number + 1} is not valid JSON; other lines are read on their own)`,
      });
    }
  }
  checkMember(report);
  const firstLineEnd = model.lines[0]?.end ?? 0;
  const kept = capProblems(sortByPosition(problems), context.settings.maxProblems, (_omitted, shown, found) => ({
    span: { start: 0, end: Math.min(firstLineEnd, 1) },
    severity: 'warning',
    code: 'jsonl/too-many-problems',
    message: tooManyProblemsMessage(shown, found),
  }));
  if (model.omittedLines > 0) kept.unshift(lineLimitNotice(model));
  return kept;
}

function lineLimitNotice(model: LinesModel): Problem {
  return {
    span: { start: 0, end: Math.min(model.lines[0]?.end ?? 0, 1) },
    severity: 'information',
    code: 'jsonl/too-many-lines',
    message: `The last ${model.omittedLines} lines were not read: at most ${model.maxLines} lines of a JSON Lines file are read (setting agentTraces.jsonl.maxLines).`,
  };
}
