import type { Problem } from './types';
import { count } from './text';

const severityRank = { error: 0, warning: 1, information: 2, hint: 3 } as const;

/**
 * The one rule for too many problems in every language. `problems` come in the language's document order;
 * when there are more than `maxProblems` (at least 1), the most severe are kept (errors first, then the earliest,
 * so early hints never hide a later error), still in that order, with the language's notice appended.
 */
export function capProblems(
  problems: Problem[],
  maxProblems: number,
  notice: (omitted: number, limit: number, found: number) => Problem,
): Problem[] {
  const limit = Math.max(1, maxProblems);
  if (problems.length <= limit) return problems;
  const kept = problems
    .map((problem, index) => ({ problem, index }))
    .sort((a, b) => severityRank[a.problem.severity] - severityRank[b.problem.severity] || a.index - b.index)
    .slice(0, limit)
    .sort((a, b) => a.index - b.index)
    .map((entry) => entry.problem);
  kept.push(notice(problems.length - limit, limit, problems.length));
  return kept;
}

/**
 * The notice every language gives when the cap bites (one wording, so that none says "the first N" while the cap
 * keeps errors before earlier hints).
 */
export function tooManyProblemsMessage(shown: number, found: number): string {
  return `Showing ${count(shown)} of ${count(found)} problems: the most severe are kept, errors first (the setting agentTraces.maxProblems raises the limit)`;
}

/** Document order: by start, then by end. */
export function sortByPosition(problems: Problem[]): Problem[] {
  return problems.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
}
