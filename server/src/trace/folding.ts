import type { FoldingSpan } from '../common/types';
import type { TraceModel } from './model';

/** One range per multi-line object or array (events, calls, nested values), recorded while parsing. */
export function folding(model: TraceModel): FoldingSpan[] {
  const folds = model.folds;
  const spans: FoldingSpan[] = new Array(folds.length / 2);
  for (let i = 0; i < folds.length; i += 2) spans[i / 2] = { start: folds[i], end: folds[i + 1] };
  spans.sort((a, b) => a.start - b.start);
  return spans;
}
