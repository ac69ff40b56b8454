/**
 * The data shapes the language server, the client and the preview webview share: the graph the server lays out
 * and the messages between the extension host and the webview. Plain types and constants only, no imports, so the
 * webview bundle pulls in nothing else; the typed LSP requests that carry these shapes are in ./requests.
 */

export interface LinePosition {
  line: number;
  character: number;
}

export interface LineRange {
  start: LinePosition;
  end: LinePosition;
}

export type GraphNodeKind =
  | 'user' | 'system' | 'assistant' | 'message' | 'call' | 'output' | 'tools' | 'metadata' | 'entry' | 'invalid';

export interface GraphNodeProblem {
  severity: 'error' | 'warning' | 'information' | 'hint';
  code: string;
  message: string;
  /** The exact characters a guardrail violation marks: a click on the problem selects them. */
  range?: LineRange;
}

export interface GraphNode {
  /** Index of the node in `GraphData.nodes`. */
  id: number;
  kind: GraphNodeKind;
  /** Zero-based index of the event in its trace (calls share their message's index). */
  eventIndex: number;
  /** For a call: the node id of the message that holds it. */
  parent?: number;
  role?: string;
  toolName?: string;
  /** Call id for calls; answered call id for outputs. */
  callId?: string;
  /** Short heading, e.g. `#3 assistant` or `get_inbox(n=10)`. */
  title: string;
  /** One-line summary of the content. */
  summary: string;
  /** Content for the expanded view, cut at `GraphData.limits.maxTextLength`. */
  text: string;
  /** Length of the full content; larger than text.length when it was cut. */
  textLength: number;
  range: LineRange;
  /** Where to put the cursor when the node is clicked (e.g. the call's id). */
  selection: LineRange;
  problems: GraphNodeProblem[];
  /** agentguard entries. */
  status?: string;
  /** The status counts as a failure (agentguard's rule: anything but `success` and `retried`). */
  failed?: boolean;
  durationMs?: number;
  retries?: number;
  cost?: number | null;
  /** Layout, computed by the server: lane (0 = messages, 1 = calls, 2 = outputs), top and height in px. */
  lane: number;
  y: number;
  height: number;
}

export type GraphEdgeKind = 'sequence' | 'output' | 'implicit-output' | 'dangling';

export interface GraphEdge {
  from: number;
  /** -1 for a dangling reference (an output whose call does not exist). */
  to: number;
  kind: GraphEdgeKind;
}

export interface TraceChoice {
  index: number;
  label: string;
}

export interface GraphData {
  uri: string;
  /** Document version the graph was computed from (-1 when read from disk). */
  version: number;
  format: 'trace' | 'dataset' | 'agentguard';
  /** For datasets: which trace is shown, and the traces to choose from. */
  traceIndex: number;
  traces: TraceChoice[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  height: number;
  limits: {
    maxTextLength: number;
    maxNodes: number;
    /** Set when the node limit was hit: how many nodes the trace has in all. */
    truncatedFrom?: number;
  };
  /** Set when the document could not be turned into a graph (e.g. not JSON at all). */
  error?: string;
}

/** Layout constants shared by the server's layout and the webview's drawing. */
export const GraphLayout = {
  headerHeight: 26,
  lineHeight: 18,
  callHeight: 30,
  gap: 12,
  laneWidth: 340,
  laneGap: 60,
  padding: 16,
} as const;

/** Messages the webview sends to the extension host. */
export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'reveal'; range: LineRange; selection: LineRange }
  | { type: 'selectTrace'; traceIndex: number }
  | { type: 'rendered'; nodeCount: number; domNodeCount: number; version: number; firstPaintMs: number }
  /** The node a cursor message selected: which event of which trace (datasets: its index among the traces). */
  | { type: 'revealed'; traceIndex: number; eventIndex: number; kind: GraphNodeKind };

/** Messages the extension host sends to the webview. */
export type HostToWebview =
  | { type: 'graph'; data: GraphData }
  /** The same as `graph`, as JSON text: a large graph crosses into the webview far faster as one string than as an object tree. */
  | { type: 'graphJson'; json: string }
  /** The editor's cursor; with `character`, the node holding that position (a dataset line holds every event of its trace). */
  | { type: 'cursor'; line: number; character?: number }
  | { type: 'notice'; text: string };
