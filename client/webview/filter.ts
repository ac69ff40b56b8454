/** Search and filters: which nodes match, and which top-level rows stay on screen (a row stays when it or a call in it matches). */
import type { GraphNode } from '../../shared/protocol';
import { hasProblemToVisit, type ViewModel } from './model';

export interface FilterState {
  /** Free text, matched case-insensitively against title, summary, content, tool name and call id. */
  query: string;
  /** A node kind, or '' for all. */
  kind: string;
  /** A tool name, or '' for all. */
  tool: string;
  problemsOnly: boolean;
}

export const emptyFilter: FilterState = { query: '', kind: '', tool: '', problemsOnly: false };

export function isFilterActive(state: FilterState): boolean {
  return state.query.trim() !== '' || state.kind !== '' || state.tool !== '' || state.problemsOnly;
}

export interface FilterResult {
  /** Per node: 1 when it matches. */
  matched: Uint8Array;
  matchCount: number;
  include: (id: number) => boolean;
}

function textMatches(node: GraphNode, query: string): boolean {
  const contains = (value: string | undefined) => value !== undefined && value.toLowerCase().includes(query);
  return contains(node.title) || contains(node.summary) || contains(node.toolName) || contains(node.callId) || contains(node.text);
}

export function applyFilter(model: ViewModel, state: FilterState): FilterResult {
  const query = state.query.trim().toLowerCase();
  const { nodes } = model;
  const matched = new Uint8Array(nodes.length);
  let matchCount = 0;
  for (let id = 0; id < nodes.length; id++) {
    const node = nodes[id];
    if (state.kind && node.kind !== state.kind) continue;
    if (state.tool && node.toolName !== state.tool) continue;
    if (state.problemsOnly && !hasProblemToVisit(node)) continue;
    if (query && !textMatches(node, query)) continue;
    matched[id] = 1;
    matchCount++;
  }
  const include = (id: number): boolean => {
    if (matched[id]) return true;
    const children = model.children.get(id);
    if (children) for (const child of children) if (matched[child]) return true;
    return false;
  };
  return { matched, matchCount, include };
}
