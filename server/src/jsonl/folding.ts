import type { FoldingSpan } from '../common/types';
import type { LinesModel } from './lines';

/**
 * Every record of a JSON Lines file is a single line, and editors fold whole lines, so there is nothing to fold
 * (the trace service's folds are for values spanning several lines, which a line cannot hold).
 */
export function folding(_model: LinesModel): FoldingSpan[] {
  return [];
}
