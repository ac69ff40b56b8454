/** What the cursor is on in a Responses document: the item that holds it and the path inside that item. */
import { contains, pathAt, type PathStep } from '../json/queries';
import type { ItemStep, ResponsesModel } from './model';

export interface ResponsesPlace {
  steps: PathStep[];
  /** The JSON path from the document's root. */
  path: (string | number)[];
  /** The item holding the offset, and the path inside it (empty on the item itself). */
  item?: ItemStep;
  inItem: (string | number)[];
}

export function placeAt(model: ResponsesModel, offset: number): ResponsesPlace | undefined {
  const root = model.root;
  if (!root || !contains(root, offset)) return undefined;
  const steps = pathAt(root, offset);
  const path: (string | number)[] = [];
  for (const step of steps) if (step.segment !== undefined) path.push(step.segment);
  // An item is the value at [i] of a bare list, or at ["input" | "output", i] of a body.
  const depth = root.type === 'array' ? 1 : path[0] === 'input' || path[0] === 'output' ? 2 : 0;
  const item = depth > 0 && path.length >= depth && typeof path[depth - 1] === 'number'
    ? model.steps.find((step) => step.node === steps[depth].node)
    : undefined;
  return { steps, path, item, inItem: item ? path.slice(depth) : [] };
}
