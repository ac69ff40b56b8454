/**
 * A dataset's lenses: each event with calls in each trace line, as trace files get them, revealing the event in
 * the preview (which then shows that line's trace). The cap counts over the file; lines are read until it is hit,
 * so a large dataset costs the lines that get lenses, not the whole file, and a line that cannot hold a call (no
 * `tool_calls`, no `function` in its text) is not read at all. Kept per document version: the server asks again
 * whenever rule results change.
 */
import { checkBudget } from '../../common/budget';
import type { ServiceContext } from '../../common/languageService';
import type { Lens } from '../../common/types';
import type { Line, LinesModel } from '../lines';
import { parseTrace, type TraceModel } from '../../trace/model';
import { appendStepLenses, maxLensesSetting } from '../../calls/codeLenses';
import { traceCalls } from '../../trace/calls';
import { count } from '../../common/text';
import { isTraceLine } from './traceBridge';

const found = new WeakMap<LinesModel, { max: number; lenses: Lens[] }>();

export function datasetCodeLenses(model: LinesModel, context: ServiceContext): Lens[] {
  const max = context.settings.maxCodeLenses;
  const kept = found.get(model);
  if (kept?.max === max) return kept.lenses;
  const lenses = collect(model, max, context);
  found.set(model, { max, lenses });
  return lenses;
}

function collect(model: LinesModel, max: number, context: ServiceContext): Lens[] {
  const lenses: Lens[] = [];
  if (max <= 0 || model.format !== 'dataset') return lenses;
  for (const line of model.contentLines) {
    if (!isTraceLine(line) || !mayHoldCalls(model.text, line)) continue;
    checkBudget(context.budget);
    // A line's kept model when a request made one; else read it for this answer only, keeping the cache for the lines being edited.
    const trace = (model.traceModels.get(line.number) as TraceModel | undefined) ?? parseTrace(model.text, line.start, line.end, context.budget);
    const room = max - lenses.length;
    if (appendStepLenses(traceCalls(trace), model.uri, lenses, room) > room) {
      const title = `code lenses stop on line ${count(line.number + 1)}: ${maxLensesSetting} is ${count(max)}`;
      lenses.unshift({ span: lenses[0]?.span ?? { start: line.start, end: line.start }, title });
      lenses.push({ span: { start: line.start, end: line.start }, title });
      break;
    }
  }
  return lenses;
}

function mayHoldCalls(text: string, line: Line): boolean {
  const own = text.slice(line.start, line.end);
  return own.includes('tool_calls') || own.includes('function');
}
