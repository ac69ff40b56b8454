/**
 * Where each drawn node sits on screen: the server's layout, shifted by the nodes the user expanded, or, when a
 * filter hides nodes, the visible nodes stacked in order with the server's heights. Linear in the node count.
 */
import { GraphLayout } from '../../shared/protocol';
import type { ViewModel } from './model';

export interface Projection {
  /** Ids of the top-level nodes on screen, in order. */
  rows: Int32Array;
  tops: Float64Array;
  heights: Float64Array;
  /** For every node: the index in `rows` of the row that draws it (its own or its parent's), or -1. */
  rowOf: Int32Array;
  totalHeight: number;
  maxRowHeight: number;
  filtered: boolean;
  /** The server put lanes side by side (rows overlap vertically), so lanes are drawn as columns. */
  columns: boolean;
}

/** Extra pixels per node, added when the user expands it. */
export type Extras = Map<number, number>;

export function childExtras(model: ViewModel, extras: Extras, id: number): number {
  const list = model.children.get(id);
  if (!list || extras.size === 0) return 0;
  let sum = 0;
  for (const child of list) sum += extras.get(child) ?? 0;
  return sum;
}

export function rowHeight(model: ViewModel, extras: Extras, id: number): number {
  if (extras.size === 0) return model.nodes[id].height;
  return model.nodes[id].height + (extras.get(id) ?? 0) + childExtras(model, extras, id);
}

/** Top of a nested call inside its parent's box: the server's offset plus the expansions of the calls above it. */
export function nestedOffset(model: ViewModel, extras: Extras, id: number): number {
  const node = model.nodes[id];
  const parent = model.nodes[node.parent!];
  let offset = node.y - parent.y;
  if (extras.size > 0) {
    for (const sibling of model.children.get(node.parent!) ?? []) {
      if (sibling === id) break;
      offset += extras.get(sibling) ?? 0;
    }
  }
  return offset;
}

/**
 * `include`: the filter's rows (stacked in order), or null for the server's layout; `hidden`: rows of collapsed
 * groups, left out of the server's layout with the rows below moved up by the room they took (a filter shows what
 * it matches, collapsed or not).
 */
export function buildProjection(
  model: ViewModel, include: ((id: number) => boolean) | null, extras: Extras, hidden: ((id: number) => boolean) | null = null,
): Projection {
  const { nodes, topLevel } = model;
  const rowOf = new Int32Array(nodes.length).fill(-1);
  let rows: Int32Array;
  let hiddenAbove: Float64Array | undefined;
  if (include) {
    const kept: number[] = [];
    for (let i = 0; i < topLevel.length; i++) if (include(topLevel[i])) kept.push(topLevel[i]);
    rows = Int32Array.from(kept);
  } else if (hidden) {
    const kept: number[] = [];
    const lifts: number[] = [];
    let lift = 0;
    for (let i = 0; i < topLevel.length; i++) {
      const id = topLevel[i];
      if (hidden(id)) {
        lift += nodes[id].height + GraphLayout.gap;
        continue;
      }
      kept.push(id);
      lifts.push(lift);
    }
    rows = Int32Array.from(kept);
    hiddenAbove = Float64Array.from(lifts);
  } else {
    rows = topLevel;
  }
  const tops = new Float64Array(rows.length);
  const heights = new Float64Array(rows.length);
  let totalHeight = 0;
  let maxRowHeight = 0;
  let columns = false;
  let shift = 0;
  let stackTop: number = GraphLayout.padding;
  let previousBottom = -Infinity;
  for (let i = 0; i < rows.length; i++) {
    const id = rows[i];
    const node = nodes[id];
    const height = rowHeight(model, extras, id);
    let top: number;
    if (include) {
      top = stackTop;
      stackTop += height + GraphLayout.gap;
    } else {
      top = node.y + shift - (hiddenAbove ? hiddenAbove[i] : 0);
      shift += height - node.height;
      if (node.y < previousBottom - 0.5) columns = true;
      previousBottom = Math.max(previousBottom, node.y + node.height);
    }
    tops[i] = top;
    heights[i] = height;
    rowOf[id] = i;
    if (height > maxRowHeight) maxRowHeight = height;
    if (top + height > totalHeight) totalHeight = top + height;
  }
  for (const [parent, list] of model.children) {
    const row = rowOf[parent];
    if (row >= 0) for (const child of list) rowOf[child] = row;
  }
  if (!include && !hiddenAbove) totalHeight = Math.max(totalHeight, model.data.height + shift);
  return {
    rows,
    tops,
    heights,
    rowOf,
    totalHeight: totalHeight + GraphLayout.padding,
    maxRowHeight,
    filtered: include !== null,
    columns,
  };
}

/** Index of the first row that may reach `y` (rows are sorted by top; a row is at most maxRowHeight tall). */
export function firstRowNear(projection: Projection, y: number): number {
  const { tops } = projection;
  const target = y - projection.maxRowHeight;
  let low = 0;
  let high = tops.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (tops[mid] < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The first row whose box reaches below `y` (the row the user is looking at when scrolled to `y`). */
export function rowAt(projection: Projection, y: number): number {
  const { tops, heights } = projection;
  for (let i = firstRowNear(projection, y); i < tops.length; i++) {
    if (tops[i] + heights[i] > y) return i;
  }
  return tops.length - 1;
}
