/**
 * Which rows of the compare view are on screen, and where: every row, except that runs of unchanged steps fold to
 * a few rows of context around one "n unchanged steps" row (a fold the user opened stays open); with a search or a
 * filter, the rows that match, stacked. Tops come from the server's row heights. Linear in the row count.
 */
import { compareRowHeight, GraphLayout, type CompareData, type CompareRow } from '../../../shared/protocol';

/** An entry of the view: a row of the data, or a fold standing for rows [from, to). */
export type Entry = { row: number } | { fold: number; to: number };

export interface CompareLayout {
  entries: Entry[];
  tops: Float64Array;
  heights: Float64Array;
  /** For every data row: its entry, or -1 when folded or filtered out. */
  entryOf: Int32Array;
  totalHeight: number;
  maxHeight: number;
}

/** Unchanged rows kept on screen before and after a change. */
export const CONTEXT_ROWS = 3;
/** A run is folded only when the fold hides at least this many rows. */
const MIN_FOLDED = 4;
export const FOLD_HEIGHT = 26;

export function isFolded(entry: Entry): entry is { fold: number; to: number } {
  return 'fold' in entry;
}

/** A fold's identity, kept while the view is open (its first row). */
export type OpenFolds = Set<number>;

export function buildLayout(data: CompareData, include: ((row: number) => boolean) | null, open: OpenFolds): CompareLayout {
  const rows = data.rows;
  const entries: Entry[] = [];
  if (include) {
    for (let r = 0; r < rows.length; r++) if (include(r)) entries.push({ row: r });
  } else {
    let r = 0;
    while (r < rows.length) {
      if (!unchanged(rows[r])) {
        entries.push({ row: r++ });
        continue;
      }
      let end = r + 1;
      while (end < rows.length && unchanged(rows[end])) end++;
      const before = r === 0 ? 0 : CONTEXT_ROWS;
      const after = end === rows.length ? 0 : CONTEXT_ROWS;
      const hidden = end - r - before - after;
      if (hidden >= MIN_FOLDED && !open.has(r + before)) {
        for (let k = r; k < r + before; k++) entries.push({ row: k });
        entries.push({ fold: r + before, to: end - after });
        for (let k = end - after; k < end; k++) entries.push({ row: k });
      } else for (let k = r; k < end; k++) entries.push({ row: k });
      r = end;
    }
  }
  const tops = new Float64Array(entries.length);
  const heights = new Float64Array(entries.length);
  const entryOf = new Int32Array(rows.length).fill(-1);
  let top: number = GraphLayout.padding / 2;
  let maxHeight = 0;
  entries.forEach((entry, i) => {
    const height = isFolded(entry) ? FOLD_HEIGHT : (rows[entry.row].height ?? compareRowHeight);
    if (!isFolded(entry)) entryOf[entry.row] = i;
    tops[i] = top;
    heights[i] = height;
    top += height + ROW_GAP;
    if (height > maxHeight) maxHeight = height;
  });
  return { entries, tops, heights, entryOf, totalHeight: top + GraphLayout.padding, maxHeight };
}

export const ROW_GAP = 4;

function unchanged(row: CompareRow): boolean {
  return row.kind === 'same' && !row.reordered;
}

/** Index of the first entry that may reach `y`. */
export function firstEntryNear(layout: CompareLayout, y: number): number {
  const target = y - layout.maxHeight;
  let low = 0;
  let high = layout.tops.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (layout.tops[mid] < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The entry whose box reaches below `y` (the one the user looks at when scrolled to `y`). */
export function entryAt(layout: CompareLayout, y: number): number {
  for (let i = firstEntryNear(layout, y); i < layout.tops.length; i++) if (layout.tops[i] + layout.heights[i] > y) return i;
  return layout.tops.length - 1;
}
