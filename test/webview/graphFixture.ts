import { isFailedStatus } from '../../server/src/jsonl/agentguard/schema';
/**
 * Builds GraphData for the preview tests and benchmark, with a simple linear layout from the GraphLayout constants:
 * events stacked top to bottom, calls inside their message's box, outputs in lane 2.
 */
import {
  GraphLayout,
  type GraphData,
  type GraphEdge,
  type GraphNode,
  type GraphNodeKind,
  type GraphNodeProblem,
  type LineRange,
} from '../../shared/protocol';

export interface CallSpec {
  id?: string;
  name: string;
  args?: string;
  problems?: GraphNodeProblem[];
}

export interface EventSpec {
  kind: Exclude<GraphNodeKind, 'call'>;
  role?: string;
  title?: string;
  content?: string;
  /** Full content length when `content` was cut (defaults to content.length). */
  textLength?: number;
  calls?: CallSpec[];
  /** For outputs: the call answered; `null` for an output with no call id (answered implicitly). */
  callId?: string | null;
  toolName?: string;
  problems?: GraphNodeProblem[];
  status?: string;
  durationMs?: number;
  retries?: number;
  cost?: number | null;
}

export interface GraphOptions {
  uri?: string;
  version?: number;
  format?: GraphData['format'];
  traceIndex?: number;
  traces?: { index: number; label: string }[];
  truncatedFrom?: number;
  maxTextLength?: number;
  error?: string;
}

function lines(start: number, count: number): LineRange {
  return { start: { line: start, character: 2 }, end: { line: start + count - 1, character: 3 } };
}

function summarize(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? line.slice(0, 119) + '…' : line;
}

/** Lines of body text the server reserves under a node's header. */
function bodyLines(summary: string): number {
  return summary.length > 70 ? 2 : 1;
}

export function buildGraph(events: EventSpec[], options: GraphOptions = {}): GraphData {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const callsById = new Map<string, number>();
  let lastCall = -1;
  let previousTop = -1;
  let y: number = GraphLayout.padding;
  let line = 1;

  for (let eventIndex = 0; eventIndex < events.length; eventIndex++) {
    const event = events[eventIndex];
    const content = event.content ?? '';
    const summary = summarize(content);
    const calls = event.calls ?? [];
    const eventLines = 4 + calls.length * 8;
    const body = content ? bodyLines(summary) : 0;
    const callsTop = GraphLayout.headerHeight + body * GraphLayout.lineHeight + 4;
    const height = callsTop + calls.length * GraphLayout.callHeight + (calls.length ? 4 : 2);
    const id = nodes.length;
    const range = lines(line, eventLines);
    const node: GraphNode = {
      id,
      kind: event.kind,
      eventIndex,
      role: event.role ?? (['user', 'system', 'assistant'].includes(event.kind) ? event.kind : event.kind === 'output' ? 'tool' : undefined),
      title: event.title ?? `#${eventIndex} ${event.kind === 'message' ? event.role ?? 'message' : event.kind}`,
      summary,
      text: content,
      textLength: event.textLength ?? content.length,
      range,
      selection: { start: range.start, end: { line: range.start.line, character: range.start.character + 1 } },
      problems: event.problems ?? [],
      lane: event.kind === 'output' ? 2 : 0,
      y,
      height,
    };
    if (event.toolName !== undefined) node.toolName = event.toolName;
    if (event.kind === 'output' && typeof event.callId === 'string') node.callId = event.callId;
    if (event.status !== undefined) {
      node.status = event.status;
      node.failed = isFailedStatus(event.status);
    }
    if (event.durationMs !== undefined) node.durationMs = event.durationMs;
    if (event.retries !== undefined) node.retries = event.retries;
    if (event.cost !== undefined) node.cost = event.cost;
    nodes.push(node);
    if (previousTop >= 0) edges.push({ from: previousTop, to: id, kind: 'sequence' });
    previousTop = id;

    calls.forEach((call, index) => {
      const callId = nodes.length;
      const callRange = lines(line + 2 + index * 8, 8);
      const args = call.args ?? '{}';
      nodes.push({
        id: callId,
        kind: 'call',
        eventIndex,
        parent: id,
        toolName: call.name,
        callId: call.id,
        title: `${call.name}(${args.length > 40 ? args.slice(0, 39) + '…' : args})`,
        summary: args,
        text: args,
        textLength: args.length,
        range: callRange,
        selection: { start: { line: callRange.start.line + 1, character: 10 }, end: { line: callRange.start.line + 1, character: 13 } },
        problems: call.problems ?? [],
        lane: 1,
        y: y + callsTop + index * GraphLayout.callHeight,
        height: GraphLayout.callHeight,
      });
      if (call.id !== undefined) callsById.set(call.id, callId);
      lastCall = callId;
    });

    if (event.kind === 'output') {
      if (typeof event.callId === 'string') {
        const call = callsById.get(event.callId);
        if (call !== undefined) {
          edges.push({ from: call, to: id, kind: 'output' });
          node.toolName ??= nodes[call].toolName;
        } else {
          edges.push({ from: id, to: -1, kind: 'dangling' });
        }
      } else if (lastCall >= 0) {
        edges.push({ from: lastCall, to: id, kind: 'implicit-output' });
        node.toolName ??= nodes[lastCall].toolName;
      }
    }
    y += height + GraphLayout.gap;
    line += eventLines;
  }

  return {
    uri: options.uri ?? 'file:///work/example.trace.json',
    version: options.version ?? 1,
    format: options.format ?? 'trace',
    traceIndex: options.traceIndex ?? 0,
    traces: options.traces ?? [],
    nodes,
    edges,
    height: y + GraphLayout.padding,
    limits: {
      maxTextLength: options.maxTextLength ?? 4000,
      maxNodes: 200_000,
      ...(options.truncatedFrom !== undefined ? { truncatedFrom: options.truncatedFrom } : {}),
    },
    ...(options.error !== undefined ? { error: options.error } : {}),
  };
}

const TOOLS = ['get_inbox', 'send_email', 'search_web', 'read_file'];

/** A plausible agent conversation of `count` events: user, assistant with a call, its output, assistant reply. */
export function syntheticEvents(count: number, options: { problemEvery?: number } = {}): EventSpec[] {
  const events: EventSpec[] = [];
  for (let i = 0; i < count; i++) {
    const turn = Math.floor(i / 4);
    const tool = TOOLS[turn % TOOLS.length];
    const problem =
      options.problemEvery && i % options.problemEvery === options.problemEvery - 1
        ? [{ severity: 'error' as const, code: 'trace/unknown-call-id', message: `No tool call has the id "c${turn}x".` }]
        : undefined;
    switch (i % 4) {
      case 0:
        events.push({ kind: 'user', content: `Request ${turn}: please check item ${turn} and report back.`, problems: problem });
        break;
      case 1:
        events.push({
          kind: 'assistant',
          content: `Looking up item ${turn}.`,
          calls: [{ id: `c${turn}`, name: tool, args: `{"item": ${turn}}` }],
          problems: problem,
        });
        break;
      case 2:
        events.push({ kind: 'output', callId: `c${turn}`, content: `Result for item ${turn}: ok.`, problems: problem });
        break;
      default:
        events.push({ kind: 'assistant', content: `Item ${turn} is fine.`, problems: problem });
    }
  }
  return events;
}
