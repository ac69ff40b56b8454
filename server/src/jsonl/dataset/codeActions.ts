/** A dataset's fixes, refactorings and renames: the trace service's, on the trace of the line they fall in. */
import type { ServiceContext } from '../../common/languageService';
import type { CodeFix, InlayLabel, Problem, RenameResult, Span } from '../../common/types';
import { lineAt, type Line, type LinesModel } from '../lines';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';
import { firstEndingAtOrAfter } from '../../common/spans';

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

export function datasetRename(model: LinesModel, offset: number, newName: string): RenameResult | null {
  const line = traceLineAt(model, offset);
  return line ? lineTraceService.rename(traceModelOf(model, line), offset, newName) : null;
}

/** Inlay labels of the trace lines the span covers, each from its own trace. */
export function datasetInlayHints(model: LinesModel, span: Span, context: ServiceContext): InlayLabel[] {
  const labels: InlayLabel[] = [];
  const lines = model.lines;
  for (let i = firstEndingAtOrAfter(lines, span.start); i < lines.length && lines[i].start <= span.end; i++) {
    if (isTraceLine(lines[i])) labels.push(...lineTraceService.inlayHints(traceModelOf(model, lines[i]), span, context));
  }
  return labels;
}
