import type { GraphOptions, ServiceContext } from '../common/languageService';
import type { Span } from '../common/types';
import type { GraphData, GraphEdge, GraphNode, GraphNodeKind } from '../../../shared/protocol';
import { callAt, decodeString, eventAt, field, valueSpan, type ToolCall, type TraceEvent, type TraceModel } from './model';
import { validate as validateTrace } from './validate';
import { emptyGraph } from '../preview/emptyGraph';
import { Column, eventHeight, laneOf, nestedCallHeight, nestedCallTop } from '../preview/layout';
import { argumentsPreview, callLabel, contentText, valueText } from './text';
import { firstLine } from '../common/text';
import { callTarget } from '../calls/definition';

const summaryLength = 120;

function eventKind(event: TraceEvent): GraphNodeKind {
  switch (event.kind) {
    case 'message':
      if (event.role === 'user') return 'user';
      if (event.role === 'system' || event.role === 'developer') return 'system';
      if (event.role === 'assistant') return 'assistant';
      return 'message';
    case 'output': return 'output';
    case 'call': return 'call';
    case 'tools': return 'tools';
    case 'metadata': return 'metadata';
    default: return 'invalid';
  }
}

function eventSelection(event: TraceEvent): Span {
  if (event.kind === 'call') return callTarget(event.calls[0]).selection ?? event.calls[0].span;
  if (event.kind === 'output') return event.linkSpan;
  const role = field(event.fields, 'role')?.value;
  return role ? valueSpan(role) : { start: event.value.start, end: event.value.start };
}

function eventTitle(model: TraceModel, event: TraceEvent): string {
  const n = `#${event.index}`;
  switch (event.kind) {
    case 'message': return `${n} ${event.role ?? 'message'}`;
    case 'output': return `${n} tool ← ${event.answers?.name ?? (event.callId !== undefined ? `"${event.callId}"` : '?')}`;
    case 'call': return `${n} ${callLabel(model, event.calls[0], 60)}`;
    case 'tools': return `${n} tools`;
    case 'metadata': return `${n} metadata`;
    default: return `${n} invalid event`;
  }
}

function callText(model: TraceModel, call: ToolCall, max: number): { text: string; length: number } {
  const args = call.argumentsField?.value;
  if (!args) return { text: '', length: 0 };
  if (args.kind === 'string') {
    const decoded = decodeString(model.text, args, max);
    return { text: decoded, length: valueText(model, args, max).length };
  }
  return { text: model.text.substring(args.start, Math.min(args.end, args.start + max)), length: args.end - args.start };
}

/** Nodes, edges and a linear-time vertical layout of one trace, for the preview. */
export function graph(model: TraceModel, options: GraphOptions, context: ServiceContext): GraphData {
  const { maxNodes, maxTextLength } = context.settings.preview;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const eventNode: number[] = new Array(model.events.length).fill(-1);
  const callNode: number[] = new Array(model.calls.length).fill(-1);
  const totalNodes = model.events.length + model.calls.filter((c) => !c.topLevel).length;
  const column = new Column();

  for (const event of model.events) {
    const allNested = event.kind === 'call' ? [] : event.calls;
    // Whole events are kept, except one with more calls than the cap itself: it draws the calls that fit.
    const neverFits = 1 + allNested.length > maxNodes;
    if (nodes.length + 1 + (neverFits ? 0 : allNested.length) > maxNodes) break;
    const nested = neverFits ? allNested.slice(0, maxNodes - nodes.length - 1) : allNested;
    const kind = eventKind(event);
    const content = event.kind === 'call' ? callText(model, event.calls[0], maxTextLength) : contentText(model, event, maxTextLength);
    const summary = event.kind === 'call'
      ? argumentsPreview(model, event.calls[0], summaryLength)
      : firstLine(content.text.slice(0, summaryLength * 4), summaryLength);
    const height = eventHeight(nested.length);
    const y = column.place(height);
    const node: GraphNode = {
      id: nodes.length,
      kind,
      eventIndex: event.index,
      title: eventTitle(model, event),
      summary,
      text: content.text.length > maxTextLength ? content.text.slice(0, maxTextLength) : content.text,
      textLength: content.length,
      range: options.toRange(valueSpan(event.value)),
      selection: options.toRange(eventSelection(event)),
      problems: [],
      lane: laneOf(kind),
      y,
      height,
    };
    if (event.role !== undefined) node.role = event.role;
    if (event.kind === 'call') {
      const call = event.calls[0];
      if (call.name !== undefined) node.toolName = call.name;
      if (call.id !== undefined) node.callId = call.id;
      callNode[call.index] = node.id;
    } else if (event.kind === 'output') {
      if (event.answers?.name !== undefined) node.toolName = event.answers.name;
      const callId = event.callId ?? event.answers?.id;
      if (callId !== undefined) node.callId = callId;
    }
    eventNode[event.index] = node.id;
    if (nodes.length > 0) {
      const previous = nodes[nodes.length - 1];
      edges.push({ from: previous.parent !== undefined ? previous.parent : previous.id, to: node.id, kind: 'sequence' });
    }
    nodes.push(node);
    nested.forEach((call, i) => {
      const args = callText(model, call, maxTextLength);
      const callNodeValue: GraphNode = {
        id: nodes.length,
        kind: 'call',
        eventIndex: event.index,
        parent: node.id,
        title: callLabel(model, call, 60),
        summary: argumentsPreview(model, call, summaryLength),
        text: args.text,
        textLength: args.length,
        range: options.toRange(valueSpan(call.value)),
        selection: options.toRange(callTarget(call).selection ?? call.span),
        problems: [],
        lane: laneOf('call'),
        y: nestedCallTop(y, i),
        height: nestedCallHeight,
      };
      if (call.name !== undefined) callNodeValue.toolName = call.name;
      if (call.id !== undefined) callNodeValue.callId = call.id;
      callNode[call.index] = callNodeValue.id;
      nodes.push(callNodeValue);
    });
  }

  for (const event of model.events) {
    const id = eventNode[event.index];
    if (id < 0) break;
    if (event.kind !== 'output') continue;
    if (event.answers) {
      const from = callNode[event.answers.index];
      if (from >= 0) edges.push({ from, to: id, kind: event.implicit ? 'implicit-output' : 'output' });
    } else if (event.callId !== undefined) {
      edges.push({ from: id, to: -1, kind: 'dangling' });
    }
  }

  for (const problem of options.problems ?? validateTrace(model, context)) {
    const event = eventAt(model, problem.span.start);
    if (!event || eventNode[event.index] < 0 || problem.code === 'trace/too-many-problems') continue;
    const call = event.kind === 'call' ? undefined : callAt(event, problem.span.start);
    const target = call ? callNode[call.index] : eventNode[event.index];
    if (target < 0) continue;
    const violation = problem.code.startsWith('guardrails/') ? { range: options.toRange(problem.span) } : {};
    nodes[target].problems.push({ severity: problem.severity, code: problem.code, message: problem.message, ...violation });
  }

  const data: GraphData = {
    ...emptyGraph({ uri: model.uri ?? '', version: model.version ?? -1, format: 'trace' }, context.settings.preview),
    traceIndex: options.traceIndex ?? 0,
    nodes,
    edges,
    height: column.height,
  };
  if (nodes.length < totalNodes) data.limits.truncatedFrom = totalNodes;
  if (!model.root) data.error = 'The document is empty or holds no JSON value.';
  else if (!model.eventsValue) data.error = 'This document is not a trace: expected a JSON array of events or an object with a "messages" array.';
  return data;
}
