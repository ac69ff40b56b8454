import type { Budget } from '../../common/budget';
import type { ServiceContext } from '../../common/languageService';
import type { Problem } from '../../common/types';
import { traceService } from '../../trace';
import { parseTrace, type TraceModel } from '../../trace/model';
import { collectProblems } from '../../trace/validate';
import type { Line, LinesModel } from '../lines';

/**
 * The single-trace language service, run on one dataset line at a time. parseTrace works with absolute
 * offsets, so every result it gives already points inside the line in this document.
 */
export const lineTraceService = traceService;

/** Every problem the trace service finds in a line, uncapped (the file as a whole is capped once). */
export function traceLineProblems(model: LinesModel, line: Line, context: ServiceContext): Problem[] {
  const found = line.traceProblems;
  if (!found) return collectProblems(traceModelOf(model, line), context);
  return context.settings.unknownKeyHints ? found : found.filter((problem) => problem.code !== 'trace/unknown-key');
}

export function isTraceLine(line: Line): boolean {
  return line.kind === 'raw' || line.kind === 'annotated';
}

/**
 * The trace model of a dataset line, parsed on first use and kept with the document's model. Not kept from the
 * document's parse: a model for every line of a large dataset costs more (in memory and collection time) than
 * parsing again the few lines a request touches. `budget` stops the parse (BudgetExceeded; nothing is kept).
 */
export function traceModelOf(model: LinesModel, line: Line, budget?: Budget): TraceModel {
  let trace = model.traceModels.get(line.number) as TraceModel | undefined;
  if (!trace) {
    trace = parseTrace(model.text, line.start, line.end, budget);
    model.traceModels.set(line.number, trace);
  }
  return trace;
}
