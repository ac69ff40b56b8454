/**
 * The preview's graph of a conversation, for every format: one node per item the format draws (an event, a record,
 * a message split over several lines), its calls drawn inside it, a sequence edge from each node to the next, an
 * edge from each call to the outputs answering it (or a dangling one from an output naming no call), the document's
 * problems on the innermost node holding them, and the vertical layout. The format says what each node is and shows
 * (GraphItem); the links come from the shared model.
 */
import type { GraphOptions, ServiceContext } from '../common/languageService';
import type { Problem, Span } from '../common/types';
import { lastStartingAtOrBefore } from '../common/spans';
import type { GraphData, GraphEdge, GraphNode, GraphNodeKind, GraphTotals } from '../../../shared/protocol';
import { emptyGraph } from '../preview/emptyGraph';
import { Column, eventHeight, laneOf, nestedCallHeight, nestedCallTop } from '../preview/layout';
import type { LinkedCall, LinkedOutput } from './model';
import type { TextSource } from '../common/textSource';
import { compactObject } from './labels';

export interface GraphText {
  /** Cut at the preview's text length by the format, or longer (cut here). */
  text: string;
  /** The whole content's length. */
  length: number;
}

/** A call drawn inside its item's box. */
export interface GraphCall {
  call: LinkedCall;
  title: string;
  summary: string;
  text: GraphText;
  selection: Span;
}

/** What a format draws for one node. */
export interface GraphItem {
  kind: GraphNodeKind;
  /** The node's place in its conversation (the preview numbers, keys and syncs nodes by it). */
  eventIndex: number;
  title: string;
  summary: string;
  text: GraphText;
  /** The node's source, and what a click selects. */
  span: Span;
  selection: Span;
  /**
   * The parts of the source that are this node's, when not all of `span` is (a message written over several lines
   * with other records between them): a problem in them is shown on this node. Each part holds the calls in it.
   */
  parts?: Span[];
  role?: string;
  toolName?: string;
  callId?: string;
  /** The calls drawn inside the node. */
  calls?: GraphCall[];
  /** The node is itself a call (a top-level call event): its outputs' edges start here. */
  isCall?: LinkedCall;
  /** The outputs the node stands for: an edge from each one's call (or a dangling one). */
  outputs?: readonly LinkedOutput[];
  failed?: boolean;
  abandoned?: boolean;
  /** Drawn indented this many steps (a subagent's messages under the call that ran it). */
  depth?: number;
  /** The call whose node heads the collapsible group this node belongs to (a subagent's run). */
  groupOf?: LinkedCall;
  durationMs?: number;
  /** Tokens of the model request the node's step reports. */
  tokens?: number;
}

export interface GraphDocument {
  uri: string;
  version: number;
  format: GraphData['format'];
  /** Why there is nothing to draw, when there is not. */
  error?: string;
  /** Said above the graph: what it leaves out and why. */
  notice?: string;
  /** The conversation's totals, for the header, where the format records them. */
  totals?: GraphTotals;
}

/**
 * The items of a conversation built one at a time, so that a preview capped at `maxNodes` builds (labels, summaries,
 * decoded text) only the items it draws, not the other 450,000 of a huge trace.
 */
export interface GraphItemSource {
  readonly count: number;
  /** How many calls item `index` draws inside it, known without building it. */
  callCount(index: number): number;
  build(index: number): GraphItem;
}

function sourceOf(items: readonly GraphItem[] | GraphItemSource): GraphItemSource {
  if (!Array.isArray(items)) return items as GraphItemSource;
  const built = items as readonly GraphItem[];
  return { count: built.length, callCount: (index) => built[index].calls?.length ?? 0, build: (index) => built[index] };
}

/**
 * Nodes, edges and a linear-time vertical layout of the items, in order. `problems`: the document's, placed on the
 * innermost node holding each one's start; `isNotice`: problems that are about the whole file, not placed.
 */
export function buildGraph(
  document: GraphDocument, allItems: readonly GraphItem[] | GraphItemSource, options: GraphOptions, context: ServiceContext,
  problems: readonly Problem[],
): GraphData {
  const { maxNodes, maxTextLength } = context.settings.preview;
  const source = sourceOf(allItems);
  const items: GraphItem[] = [];
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const callNode = new Map<LinkedCall, number>();
  const itemNode: number[] = [];
  const nestedNodes: number[][] = [];
  let totalNodes = 0;
  for (let index = 0; index < source.count; index++) totalNodes += 1 + source.callCount(index);
  const column = new Column();
  const cut = (text: GraphText) => (text.text.length > maxTextLength ? text.text.slice(0, maxTextLength) : text.text);

  for (let index = 0; index < source.count; index++) {
    const callCount = source.callCount(index);
    // Whole items are kept, except one with more calls than the cap itself: it draws the calls that fit.
    const neverFits = 1 + callCount > maxNodes;
    if (nodes.length + 1 + (neverFits ? 0 : callCount) > maxNodes) break;
    const item = source.build(index);
    items.push(item);
    const allNested = item.calls ?? [];
    const nested = neverFits ? allNested.slice(0, maxNodes - nodes.length - 1) : allNested;
    const height = eventHeight(nested.length);
    const y = column.place(height);
    const node: GraphNode = {
      id: nodes.length,
      kind: item.kind,
      eventIndex: item.eventIndex,
      title: item.title,
      summary: item.summary,
      text: cut(item.text),
      textLength: item.text.length,
      range: options.toRange(item.span),
      selection: options.toRange(item.selection),
      problems: [],
      lane: laneOf(item.kind),
      y,
      height,
    };
    if (item.role !== undefined) node.role = item.role;
    if (item.toolName !== undefined) node.toolName = item.toolName;
    if (item.callId !== undefined) node.callId = item.callId;
    if (item.failed) node.failed = true;
    if (item.abandoned) node.abandoned = true;
    if (item.depth) node.depth = item.depth;
    if (item.durationMs !== undefined) node.durationMs = item.durationMs;
    if (item.tokens !== undefined) node.tokens = item.tokens;
    if (item.groupOf) {
      const header = callNode.get(item.groupOf);
      if (header !== undefined) {
        node.group = header;
        nodes[header].groupSize = (nodes[header].groupSize ?? 0) + 1;
      }
    }
    if (item.isCall) callNode.set(item.isCall, node.id);
    itemNode.push(node.id);
    if (nodes.length > 0) {
      const previous = nodes[nodes.length - 1];
      edges.push({ from: previous.parent !== undefined ? previous.parent : previous.id, to: node.id, kind: 'sequence' });
    }
    nodes.push(node);
    const ids: number[] = [];
    nested.forEach((entry, i) => {
      const callNodeValue: GraphNode = {
        id: nodes.length,
        kind: 'call',
        eventIndex: item.eventIndex,
        parent: node.id,
        title: entry.title,
        summary: entry.summary,
        text: cut(entry.text),
        textLength: entry.text.length,
        range: options.toRange(entry.call.span),
        selection: options.toRange(entry.selection),
        problems: [],
        lane: laneOf('call'),
        y: nestedCallTop(y, i),
        height: nestedCallHeight,
      };
      if (entry.call.name !== undefined) callNodeValue.toolName = entry.call.name;
      if (entry.call.id !== undefined) callNodeValue.callId = entry.call.id;
      if (entry.call.outputs.some((output) => output.isError)) callNodeValue.failed = true;
      if (item.abandoned) callNodeValue.abandoned = true;
      if (item.depth) callNodeValue.depth = item.depth;
      callNode.set(entry.call, callNodeValue.id);
      ids.push(callNodeValue.id);
      nodes.push(callNodeValue);
    });
    nestedNodes.push(ids);
  }

  for (let i = 0; i < itemNode.length; i++) {
    for (const output of items[i].outputs ?? []) {
      if (output.answers) {
        const from = callNode.get(output.answers);
        if (from !== undefined) edges.push({ from, to: itemNode[i], kind: output.implicit || output.inferred !== undefined ? 'implicit-output' : 'output' });
      } else if (output.callId !== undefined) {
        edges.push({ from: itemNode[i], to: -1, kind: 'dangling' });
      }
    }
  }

  placeProblems(items, itemNode, nestedNodes, nodes, problems, options);
  const data: GraphData = {
    ...emptyGraph(document, context.settings.preview),
    traceIndex: options.traceIndex ?? 0,
    nodes,
    edges,
    height: column.height,
  };
  if (nodes.length < totalNodes) data.limits.truncatedFrom = totalNodes;
  if (document.error) data.error = document.error;
  if (document.notice) data.notice = document.notice;
  if (document.totals) data.totals = document.totals;
  return data;
}

/** Each problem on the innermost drawn node holding its start (a call rather than its message); notices are left out. */
function placeProblems(
  items: readonly GraphItem[], itemNode: number[], nestedNodes: number[][], nodes: GraphNode[], problems: readonly Problem[], options: GraphOptions,
): void {
  if (problems.length === 0) return;
  // The drawn nodes' own spans: an item's parts, and inside them its calls. Parts do not overlap one another.
  const owned: Owned[] = [];
  for (let i = 0; i < itemNode.length; i++) {
    for (const part of items[i].parts ?? [items[i].span]) owned.push({ start: part.start, end: part.end, node: itemNode[i], part: true });
    const calls = items[i].calls ?? [];
    nestedNodes[i].forEach((id, k) => owned.push({ start: calls[k].call.span.start, end: calls[k].call.span.end, node: id, part: false }));
  }
  owned.sort((a, b) => a.start - b.start || (a.part === b.part ? 0 : a.part ? -1 : 1));
  for (const problem of problems) {
    if (problem.code.endsWith('/too-many-problems')) continue;
    const target = ownerOf(owned, problem.span.start);
    if (target < 0) continue;
    const violation = problem.code.startsWith('guardrails/') ? { range: options.toRange(problem.span), ...boundNodes(owned, problem) } : {};
    nodes[target].problems.push({ severity: problem.severity, code: problem.code, message: problem.message, ...violation });
  }
}

/** The drawn nodes a violation's variables were bound to (a call's own node inside its message); undrawn ones are left out. */
function boundNodes(owned: Owned[], problem: Problem): { bound?: { node: number; variable: string }[] } {
  const bound = (problem.bound ?? []).flatMap(({ variable, span }) => {
    const node = ownerOf(owned, span.start);
    return node >= 0 ? [{ node, variable }] : [];
  });
  return bound.length > 0 ? { bound } : {};
}

/** A span a drawn node owns: a part of an item, or a call inside it. */
interface Owned {
  start: number;
  end: number;
  node: number;
  part: boolean;
}

/** The node of the innermost span holding offset: a call inside a part, else the part; -1 when none does. */
function ownerOf(owned: Owned[], offset: number): number {
  // Back over the calls that start before the offset, to the first span holding it; the nearest part decides.
  for (let i = lastStartingAtOrBefore(owned, offset); i >= 0; i--) {
    const entry = owned[i];
    if (offset <= entry.end) return entry.node;
    if (entry.part) return -1;
  }
  return -1;
}

/** A call drawn inside its item, shown by its arguments (an object in the text: `args`), with this title. */
export function callWithArguments(text: TextSource, call: LinkedCall, args: Span | undefined, title: string, maxText: number, summaryLength: number): GraphCall {
  const source = args ? text.slice(args.start, Math.min(args.end, args.start + maxText)) : '';
  return {
    call,
    title,
    summary: args ? compactObject(source, summaryLength) : '',
    text: { text: source, length: args ? args.end - args.start : 0 },
    selection: call.nameSpan ?? call.idSpan ?? call.span,
  };
}
