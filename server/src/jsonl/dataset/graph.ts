import type { GraphOptions, ServiceContext } from '../../common/languageService';
import type { GraphData, TraceChoice } from '../../../../shared/protocol';
import { emptyGraph } from '../../preview/emptyGraph';
import { lineAt, type Line, type LinesModel } from '../lines';
import { isTraceLine, lineTraceService, traceLineProblems, traceModelOf } from './traceBridge';
import { traceLabel } from './traces';

/** The chosen trace (options.traceIndex, else the line under the cursor, else the first) drawn by the trace service, with every trace listed for the picker. */
export function datasetGraph(model: LinesModel, options: GraphOptions, context: ServiceContext): GraphData {
  const traceLines = model.contentLines.filter(isTraceLine);
  if (traceLines.length === 0) {
    return { ...emptyGraph({ uri: model.uri, version: model.version, format: 'dataset' }, context.settings.preview, 'This file holds no traces yet: each line should be an event list or an object with "messages".'), traces: [] };
  }
  let chosen = 0;
  if (options.traceIndex !== undefined && options.traceIndex >= 0 && options.traceIndex < traceLines.length) chosen = options.traceIndex;
  else if (options.cursorOffset !== undefined) {
    const line = lineAt(model, options.cursorOffset);
    const found = line ? traceLines.indexOf(line) : -1;
    if (found >= 0) chosen = found;
  }
  const traces = pickerChoices(traceLines, chosen);
  const line = traceLines[chosen];
  // The line's own problems, plus the guardrail violations the server found inside this line.
  const violations = (options.problems ?? []).filter((p) => p.code.startsWith('guardrails/') && p.span.start >= line.start && p.span.start <= line.end);
  const problems = [...traceLineProblems(model, line, context), ...violations];
  const data = lineTraceService.graph(traceModelOf(model, line), { ...options, problems }, context);
  return { ...data, uri: model.uri, version: model.version, format: 'dataset', traceIndex: chosen, traces };
}

/** Traces listed in the picker around the chosen one; the first and the last are always listed. */
const pickerWindow = 500;

/**
 * The picker's choices: every trace of a small dataset, else a window around the chosen trace plus the first and
 * the last (the preview marks the gaps). Labelling and drawing 100,000 options would cost seconds on every update.
 */
function pickerChoices(traceLines: Line[], chosen: number): TraceChoice[] {
  const choice = (index: number): TraceChoice => ({ index, label: `${traceLabel(traceLines[index], index)} (line ${traceLines[index].number + 1})` });
  const from = Math.max(0, Math.min(chosen - pickerWindow / 2, traceLines.length - pickerWindow));
  const to = Math.min(traceLines.length, from + pickerWindow);
  const choices: TraceChoice[] = [];
  if (from > 0) choices.push(choice(0));
  for (let index = from; index < to; index++) choices.push(choice(index));
  if (to < traceLines.length) choices.push(choice(traceLines.length - 1));
  return choices;
}
