import type { Line, LinesModel } from '../lines';
import { isTraceLine, traceModelOf } from './traceBridge';

/** Passes on the tool of each call in a dataset line's trace (none for a broken line or one of another kind). */
export function datasetCalledTools(model: LinesModel, line: Line, add: (name: string | undefined) => void): void {
  if (!isTraceLine(line) || line.errors.length > 0) return;
  // Found while the line was parsed: reading every line's trace again after each edit would cost a full parse.
  if (line.calledTools) for (const name of line.calledTools) add(name);
  else for (const call of traceModelOf(model, line).calls) add(call.name);
}
