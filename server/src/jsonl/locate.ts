import { annotationsOf, type Annotation } from './dataset/annotations';
import { contains, pathAt, type PathStep } from '../json/queries';
import { lineAt, type Line, type LinesModel } from './lines';

/** What the cursor is on, as the features of this language see it. */
export interface Place {
  line: Line;
  steps: PathStep[];
  /** JSON path of the innermost node (keys and indexes). */
  path: (string | number)[];
  annotation?: Annotation;
  /** True when the cursor is inside the annotation's address string. */
  onAddress?: boolean;
}

export function placeAt(model: LinesModel, offset: number): Place | undefined {
  const line = lineAt(model, offset);
  if (!line?.root || !contains(line.root, offset)) return undefined;
  const steps = pathAt(line.root, offset);
  const path: (string | number)[] = [];
  for (const step of steps) if (step.segment !== undefined) path.push(step.segment);
  const place: Place = { line, steps, path };
  if (line.kind === 'annotated' && path[0] === 'annotations' && typeof path[1] === 'number') {
    const annotation = annotationsOf(model, line).items[path[1]];
    if (annotation) {
      place.annotation = annotation;
      place.onAddress = !!annotation.address && path[2] === 'address' && contains(annotation.address, offset) && !steps[steps.length - 1].onKey;
    }
  }
  return place;
}
