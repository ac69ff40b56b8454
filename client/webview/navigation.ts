/** Finding nodes: the one at an editor line, and the next or previous problem. Pure functions over the indexes. */
import type { ViewModel } from './model';
import type { LinePosition } from '../../shared/protocol';

/** The innermost node whose range holds `line` (a call rather than the message around it), or -1; with `character`, the node holding that position first. */
export function innermostNodeAt(model: ViewModel, line: number, character?: number): number {
  if (character !== undefined) {
    const found = innermostNodeAtPosition(model, line, character);
    if (found >= 0) return found;
  }
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

/** The node whose range holds the position, the smallest one (a call inside its message); -1 when none does. */
function innermostNodeAtPosition(model: ViewModel, line: number, character: number): number {
  let best = -1;
  let bestSize = Infinity;
  const before = (a: LinePosition, l: number, c: number) => a.line < l || (a.line === l && a.character <= c);
  for (const node of model.nodes) {
    const { start, end } = node.range;
    if (!before(start, line, character) || before(end, line, character - 1)) continue;
    // Lines weigh more than characters: a range over fewer lines is the smaller one.
    const size = (end.line - start.line) * 1e9 + (end.line === start.line ? end.character - start.character : end.character);
    if (size < bestSize) {
      best = node.id;
      bestSize = size;
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
