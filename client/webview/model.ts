/**
 * Indexes over one GraphData message, built once per graph in linear time.
 * The server computed the layout; this only records which nodes are drawn inside others and in what order.
 */
import type { GraphData, GraphNode } from '../../shared/protocol';

export interface ViewModel {
  data: GraphData;
  nodes: GraphNode[];
  /** Nodes drawn on their own (everything but calls inside their message), ordered by the server's y. */
  topLevel: Int32Array;
  /** For a message: the calls drawn inside it, ordered by y. */
  children: Map<number, number[]>;
  /** 1 when the node is drawn inside its parent's box. */
  nested: Uint8Array;
  /** Nodes with a problem other than a hint, or a failed tool call, in event order. */
  problemNodes: Int32Array;
  toolNames: string[];
  roles: string[];
  maxDurationMs: number;
  /** Collapsible groups (a subagent's run): the head node's id → the top-level nodes of its group, in order. */
  groups: Map<number, number[]>;
  /** Identity of a node that survives re-parsing the document (for expanded state across edits). */
  keyOf(id: number): string;
}

export function hasProblemToVisit(node: GraphNode): boolean {
  if (node.failed) return true;
  // Like F8 in the editor: errors, warnings and information; hints (e.g. unknown keys) are left out.
  for (const problem of node.problems) {
    if (problem.severity !== 'hint') return true;
  }
  return false;
}

function isInside(child: GraphNode, parent: GraphNode): boolean {
  return child.y >= parent.y && child.y + child.height <= parent.y + parent.height + 0.5;
}

export function buildViewModel(data: GraphData): ViewModel {
  const nodes = data.nodes;
  const count = nodes.length;
  const nested = new Uint8Array(count);
  const children = new Map<number, number[]>();
  const toolNames = new Set<string>();
  const roles = new Set<string>();
  let maxDurationMs = 0;
  let topCount = 0;
  for (let id = 0; id < count; id++) {
    const node = nodes[id];
    const parent = node.parent !== undefined ? nodes[node.parent] : undefined;
    if (parent && parent !== node && parent.parent === undefined && isInside(node, parent)) {
      nested[id] = 1;
      let list = children.get(node.parent!);
      if (!list) children.set(node.parent!, (list = []));
      list.push(id);
    } else {
      topCount++;
    }
    if (node.toolName) toolNames.add(node.toolName);
    if (node.role) roles.add(node.role);
    if (node.durationMs !== undefined && node.durationMs > maxDurationMs) maxDurationMs = node.durationMs;
  }

  const topLevel = new Int32Array(topCount);
  let sorted = true;
  for (let id = 0, i = 0; id < count; id++) {
    if (nested[id]) continue;
    topLevel[i] = id;
    if (i > 0 && nodes[topLevel[i - 1]].y > nodes[id].y) sorted = false;
    i++;
  }
  if (!sorted) topLevel.sort((a, b) => nodes[a].y - nodes[b].y || a - b);
  for (const list of children.values()) list.sort((a, b) => nodes[a].y - nodes[b].y || a - b);

  const groups = new Map<number, number[]>();
  for (let id = 0; id < count; id++) {
    const head = nodes[id].group;
    if (head === undefined || head < 0 || head >= count || head === id) continue;
    let members = groups.get(head);
    if (!members) groups.set(head, (members = []));
    members.push(id);
  }

  const problems: number[] = [];
  for (let id = 0; id < count; id++) if (hasProblemToVisit(nodes[id])) problems.push(id);
  problems.sort((a, b) => nodes[a].eventIndex - nodes[b].eventIndex || nodes[a].y - nodes[b].y || a - b);

  const siblingIndex = (id: number): number => {
    const node = nodes[id];
    return node.parent !== undefined ? (children.get(node.parent)?.indexOf(id) ?? -1) : 0;
  };

  return {
    data,
    nodes,
    topLevel,
    children,
    nested,
    problemNodes: Int32Array.from(problems),
    toolNames: [...toolNames].sort(),
    roles: [...roles].sort(),
    maxDurationMs,
    groups,
    keyOf: (id) => {
      const node = nodes[id];
      return `${node.eventIndex}:${node.kind}:${node.callId ?? ''}:${siblingIndex(id)}`;
    },
  };
}
