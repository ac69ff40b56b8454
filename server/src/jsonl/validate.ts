import { capProblems, sortByPosition, tooManyProblemsMessage } from '../common/capProblems';
import type { ServiceContext } from '../common/languageService';
import type { Problem } from '../common/types';
import type { Line, LinesModel } from './lines';

/** Reports a problem; a member's check calls it for each problem it finds. */
export type ReportProblem = (problem: Problem) => boolean;

/**
 * Every line is checked on its own (a broken line only reports its own syntax errors), then the member's checks
 * (`checkMember`: the rules that span lines, each trace line by the single-trace service). At most
 * settings.maxProblems are returned (the most severe), in document order, with a notice when more were found.
 */
export function validateLines(
  model: LinesModel, context: ServiceContext, checkMember: (report: ReportProblem) => void, writtenLive = false,
): Problem[] {
  const problems: Problem[] = [];
  const report = (problem: Problem): boolean => {
    problems.push(problem);
    return true;
  };
  const cut = writtenLive ? cutLastLine(model) : undefined;
  if (cut) report(cut.problem);
  for (const line of model.contentLines) {
    if (line === cut?.line) continue;
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

/** How long a cut last line must stay cut before it is shown: a file being written is cut between two writes. */
export const cutLineSettleMs = 3000;

/**
 * The last line of a file written as it runs (`writtenLive`: a Claude Code session), when it does not end its JSON
 * and no line break follows it: the file is still being written, or was cut mid-write. One problem instead of its
 * syntax errors, shown only once it stays so (the editor waits `settleMs`; the checker, reading a file at rest,
 * reports it at once).
 */
function cutLastLine(model: LinesModel): { line: Line; problem: Problem } | undefined {
  const line = model.contentLines[model.contentLines.length - 1];
  if (!line || line.errors.length === 0 || line.end < model.text.length) return undefined;
  return {
    line,
    problem: {
      span: { start: line.start, end: line.end },
      severity: 'warning',
      code: 'jsonl/cut-line',
      message: `The last line stops before its JSON ends: the file is still being written, or was cut mid-write, so its last record is lost (${line.errors[0].message})`,
      settleMs: cutLineSettleMs,
    },
  };
}

function lineLimitNotice(model: LinesModel): Problem {
  return {
    span: { start: 0, end: Math.min(model.lines[0]?.end ?? 0, 1) },
    severity: 'information',
    code: 'jsonl/too-many-lines',
    message: `The last ${model.omittedLines} lines were not read: at most ${model.maxLines} lines of a JSON Lines file are read (setting agentTraces.jsonl.maxLines).`,
  };
}
