/** A dataset's fixes, refactorings and renames: the trace service's, on the trace of the line they fall in. */
import type { Budget } from '../../common/budget';
import { editedRange } from '../../common/codeActions';
import type { ServiceContext } from '../../common/languageService';
import type { CodeFix, InlayLabel, Problem, RenameResult, Span, TextEditSpan } from '../../common/types';
import { jsonSyntaxErrors } from '../../trace/parser';
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

/**
 * Each line is read on its own: the lines these edits touch must each stay one line and read as JSON without any
 * error after them (comments and trailing commas make a JSON Lines line invalid too). Other lines are not read.
 */
export function datasetParsesWithEdits(model: LinesModel, edits: readonly TextEditSpan[], budget?: Budget): boolean {
  const byLine = new Map<Line, TextEditSpan[]>();
  for (const edit of edits) {
    const line = lineAt(model, edit.span.start);
    if (!line || edit.span.end > line.end || /[\r\n]/.test(edit.newText)) return false;
    const listed = byLine.get(line);
    if (listed) listed.push(edit);
    else byLine.set(line, [edit]);
  }
  for (const [line, lineEdits] of byLine) {
    const edited = editedRange(model.text, line.start, line.end, lineEdits);
    if (jsonSyntaxErrors(edited, 0, edited.length, budget).length > 0) return false;
  }
  return true;
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
