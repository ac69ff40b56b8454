/** Finding nodes: the one at an editor line, and the next or previous problem. Pure functions over the indexes. */
import type { ViewModel } from './model';

/** The innermost node whose range holds `line` (a call rather than the message around it), or -1. */
export function innermostNodeAt(model: ViewModel, line: number): number {
  let best = -1;
  let bestSpan = Infinity;
  for (const node of model.nodes) {
    const { start, end } = node.range;
    if (line < start.line || line > end.line) continue;
    const span = end.line - start.line;
    if (span < bestSpan || (span === bestSpan && node.parent !== undefined)) {
      best = node.id;
      bestSpan = span;
    }
  }
  return best;
}

/**
 * The problem node after (direction 1) or before (-1) `currentId` in event order, among those `visible` accepts,
 * wrapping around like F8 in the editor; -1 when there is none.
 */
export function adjacentProblem(model: ViewModel, currentId: number, direction: 1 | -1, visible: (id: number) => boolean): number {
  const list = model.problemNodes;
  const order = (id: number) => model.nodes[id].eventIndex * 1e9 + model.nodes[id].y;
  const currentOrder = currentId >= 0 ? order(currentId) : direction === 1 ? -Infinity : Infinity;
  for (let step = 0; step < list.length; step++) {
    const id = list[direction === 1 ? step : list.length - 1 - step];
    if (id === currentId || !visible(id)) continue;
    if (direction === 1 ? order(id) > currentOrder : order(id) < currentOrder) return id;
  }
  for (let step = 0; step < list.length; step++) {
    const id = list[direction === 1 ? step : list.length - 1 - step];
    if (visible(id)) return id;
  }
  return -1;
}
