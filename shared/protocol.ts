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
  /** A guardrail violation's bindings: the drawn node of the element each variable of the rule was bound to. */
  bound?: { node: number; variable: string }[];
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
  /** On a branch the conversation left (a rewound or forked session): drawn faded, never the live run. */
  abandoned?: boolean;
  /** Drawn indented this many steps: a subagent's messages under the call that ran it. */
  depth?: number;
  /** The id of the node that heads the collapsible group this node belongs to (a subagent's run under its call). */
  group?: number;
  /** On a group's head: how many nodes the group holds. */
  groupSize?: number;
  /** Tokens of the model request the node's step reports (sessions and rollouts that record them). */
  tokens?: number;
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
  format: 'trace' | 'dataset' | 'agentguard' | 'claude-code' | 'codex' | 'openai-responses' | 'anthropic' | 'otel-spans' | 'inspect';
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
  /** The conversation's totals, shown in the header, where the format records them. */
  totals?: GraphTotals;
  /** Said above the graph: what the graph leaves out and why (records that repeat others, …). */
  notice?: string;
}

export interface GraphTotals {
  calls: number;
  failedCalls: number;
  /** From the first recorded time to the last. */
  durationMs?: number;
  tokens?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** US dollars over the steps that record a cost; absent when none does. */
  costUsd?: number;
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

/** One side's step in a row of the compare view. */
export interface CompareStep {
  /** The step's number (its event's index, as addresses count events). */
  index: number;
  /** Absent on the right step of an unchanged row, which is what its left step is (so are its title and summary). */
  kind?: GraphNodeKind;
  /** What the step is (`assistant`, `tool ← search_flights`), and what it holds, on one line. */
  title?: string;
  summary?: string;
  /** The tools it calls, or the tool it answers. */
  tools?: string[];
  /** An output (or logged result) reporting a failure. */
  failed?: boolean;
}

/**
 * A field of a changed step: its value on each side (absent where the side lacks it). Where a step or a field is in
 * its file is asked for when it is clicked (CompareLocateRequest): the view holds no ranges.
 */
export interface CompareField {
  /** Dotted path from the step, as `agent-traces diff --json` gives it. */
  path: string;
  /** The path in the right step, when it is another (a call paired with one at another place in its list). */
  rightPath?: string;
  /** The path from what the step's head names (`arguments.seat` in a step making one call). */
  label: string;
  left?: string;
  right?: string;
  /** The part of each value that differs (start and end in the value shown), for strings. */
  leftMark?: [number, number];
  rightMark?: [number, number];
}

export type CompareRowKind = 'same' | 'added' | 'removed' | 'changed';

export interface CompareRow {
  kind: CompareRowKind;
  /** Absent on the side without the step; the right step of a `same` row has no title or summary (the left's hold). */
  left?: CompareStep;
  right?: CompareStep;
  fields?: CompareField[];
  /** Changed fields beyond those listed. */
  moreFields?: number;
  outcome?: 'fails' | 'succeeds';
  /** Paired steps in another order among parallel calls: shown, not a change. */
  reordered?: boolean;
  /** Height of the row in px, computed by the server (see GraphLayout); absent for a row of one line (compareRowHeight). */
  height?: number;
}

/** The height of a compare view row that has only its steps' one line. */
export const compareRowHeight = GraphLayout.headerHeight + 6;

export interface CompareSide {
  uri: string;
  /** The side's name in the view: a file name, `HEAD`, with the dataset line. */
  label: string;
  /** Steps in the trace, and the steps compared when a limit left some out. */
  steps: number;
  compared: number;
  /** Datasets: the traces to choose from, and the one compared. */
  traces: TraceChoice[];
  traceIndex: number;
  /** Why this side could not be compared. */
  error?: string;
}

export interface CompareCounts {
  same: number;
  added: number;
  removed: number;
  changed: number;
  reordered: number;
  nowFail: number;
  nowSucceed: number;
}

export interface CompareData {
  /** Names this comparison in CompareLocateRequest while the server keeps it. */
  id: string;
  left: CompareSide;
  right: CompareSide;
  rows: CompareRow[];
  counts: CompareCounts;
  /** Limits reached (steps left out, the alignment's work), each naming its setting. */
  notices: string[];
  /** Call ids were compared (a regenerated id is a change). */
  compareIds: boolean;
  limits: { maxTextLength: number };
}

/** Messages the webview sends to the extension host. */
export type WebviewToHost =
  | { type: 'ready' }
  | { type: 'reveal'; range: LineRange; selection: LineRange }
  /** A click on a step of the compare view, or on a field of it (its path in that side's step). */
  | { type: 'revealStep'; side: 'left' | 'right'; step: number; path?: string }
  /** The compare view's options changed, or another trace of a dataset was chosen on a side. */
  | { type: 'compareOptions'; compareIds?: boolean; leftTrace?: number; rightTrace?: number }
  | { type: 'selectTrace'; traceIndex: number }
  /** Drawn: the graph's nodes, or the compare view's rows (version -1). */
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
  | { type: 'notice'; text: string }
  /** The compare view's data, as JSON text (see graphJson). */
  | { type: 'compareJson'; json: string }
  /** The compare view is being computed (shown until its data comes). */
  | { type: 'comparing'; left: string; right: string };
