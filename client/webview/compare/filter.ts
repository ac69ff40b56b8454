/** The compare view's search and filters: which rows match (either side's step, or a changed field, matching). */
import type { CompareData, CompareRow, CompareStep } from '../../../shared/protocol';

export interface CompareFilter {
  /** Free text, matched case-insensitively against either side's title and summary and the changed fields. */
  query: string;
  /** A step kind (`user`, `call`, …), or '' for all. */
  kind: string;
  /** A tool name, or '' for all. */
  tool: string;
  /** Only added, removed and changed steps. */
  changesOnly: boolean;
}

export const noFilter: CompareFilter = { query: '', kind: '', tool: '', changesOnly: false };

export function isFiltering(filter: CompareFilter): boolean {
  return filter.query.trim() !== '' || filter.kind !== '' || filter.tool !== '' || filter.changesOnly;
}

function stepMatches(step: CompareStep | undefined, sameAs: CompareStep | undefined, query: string): boolean {
  if (!step) return false;
  const title = step.title || sameAs?.title || '';
  const summary = step.summary || sameAs?.summary || '';
  return title.toLowerCase().includes(query) || summary.toLowerCase().includes(query);
}

function textMatches(row: CompareRow, query: string): boolean {
  if (stepMatches(row.left, undefined, query) || stepMatches(row.right, row.left, query)) return true;
  return (row.fields ?? []).some((field) => [field.path, field.left, field.right].some((text) => text !== undefined && text.toLowerCase().includes(query)));
}

/** Per row, 1 when it matches; and how many do. */
export function matchRows(data: CompareData, filter: CompareFilter): { matched: Uint8Array; count: number } {
  const query = filter.query.trim().toLowerCase();
  const matched = new Uint8Array(data.rows.length);
  let count = 0;
  data.rows.forEach((row, r) => {
    if (filter.changesOnly && row.kind === 'same') return;
    if (filter.kind && row.left?.kind !== filter.kind && (row.right?.kind ?? row.left?.kind) !== filter.kind) return;
    if (filter.tool && !row.left?.tools?.includes(filter.tool) && !row.right?.tools?.includes(filter.tool)) return;
    if (query && !textMatches(row, query)) return;
    matched[r] = 1;
    count++;
  });
  return { matched, count };
}
