/** A dataset's fixes, refactorings and renames: the trace service's, on the trace of the line they fall in. */
import type { CodeFix, Problem, Span, TextEditSpan } from '../common/types';
import { lineAt, type Line, type LinesModel } from '../jsonl/lines';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

function traceLineAt(model: LinesModel, offset: number): Line | undefined {
  const line = lineAt(model, offset);
  return line && isTraceLine(line) ? line : undefined;
}

export function datasetCodeFixes(model: LinesModel, problems: Problem[]): CodeFix[] {
  const byLine = new Map<Line, Problem[]>();
  for (const problem of problems) {
    const line = traceLineAt(model, problem.span.start);
    if (!line) continue;
    const listed = byLine.get(line);
    if (listed) listed.push(problem);
    else byLine.set(line, [problem]);
  }
  const fixes: CodeFix[] = [];
  for (const [line, lineProblems] of byLine) fixes.push(...lineTraceService.codeFixes(traceModelOf(model, line), lineProblems));
  return fixes;
}

export function datasetRefactorings(model: LinesModel, span: Span): CodeFix[] {
  const line = traceLineAt(model, span.start);
  return line ? lineTraceService.refactorings(traceModelOf(model, line), span) : [];
}

/** Renames stay within the line's trace: another line is another trace, whose ids are its own. */
export function datasetPrepareRename(model: LinesModel, offset: number): Span | null {
  const line = traceLineAt(model, offset);
  return line ? lineTraceService.prepareRename(traceModelOf(model, line), offset) : null;
}

export function datasetRenameRefusal(model: LinesModel, offset: number): string | undefined {
  const line = traceLineAt(model, offset);
  return line ? lineTraceService.renameRefusal(traceModelOf(model, line), offset) : undefined;
}

export function datasetRename(model: LinesModel, offset: number, newName: string): TextEditSpan[] | null {
  const line = traceLineAt(model, offset);
  return line ? lineTraceService.rename(traceModelOf(model, line), offset, newName) : null;
}
