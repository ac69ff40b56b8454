import { contains, pathAt, type PathStep } from '../json/queries';
import { lineAt, type Line, type LinesModel } from './lines';

/** What the cursor is on, as the features of this language see it. */
export interface Place {
  line: Line;
  steps: PathStep[];
  /** JSON path of the innermost node (keys and indexes). */
  path: (string | number)[];
}

export function placeAt(model: LinesModel, offset: number): Place | undefined {
  const line = lineAt(model, offset);
  if (!line?.root || !contains(line.root, offset)) return undefined;
  const steps = pathAt(line.root, offset);
  const path: (string | number)[] = [];
  for (const step of steps) if (step.segment !== undefined) path.push(step.segment);
  return { line, steps, path };
}
