import type { GraphOptions, ServiceContext } from '../common/languageService';
import type { Span } from '../common/types';
import type { GraphData, GraphNodeKind } from '../../../shared/protocol';
import { decodeString, field, valueSpan, type ToolCall, type TraceEvent, type TraceModel } from './model';
import { validate as validateTrace } from './validate';
import { buildGraph, type GraphItem, type GraphItemSource } from '../calls/graph';
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

/** The trace's events as the preview's nodes (calls inside their message), on the graph every format shares. */
export function graph(model: TraceModel, options: GraphOptions, context: ServiceContext): GraphData {
  const { maxTextLength } = context.settings.preview;
  const buildItem = (index: number): GraphItem => {
    const event = model.events[index];
    const kind = eventKind(event);
    const call = event.kind === 'call' ? event.calls[0] : undefined;
    const content = call ? callText(model, call, maxTextLength) : contentText(model, event, maxTextLength);
    const item: GraphItem = {
      kind,
      eventIndex: event.index,
      title: eventTitle(model, event),
      summary: call ? argumentsPreview(model, call, summaryLength) : firstLine(content.text.slice(0, summaryLength * 4), summaryLength),
      text: content,
      span: valueSpan(event.value),
      selection: eventSelection(event),
    };
    if (event.role !== undefined) item.role = event.role;
    if (call) {
      if (call.name !== undefined) item.toolName = call.name;
      if (call.id !== undefined) item.callId = call.id;
      item.isCall = call;
    } else if (event.kind === 'output') {
      if (event.answers?.name !== undefined) item.toolName = event.answers.name;
      const callId = event.callId ?? event.answers?.id;
      if (callId !== undefined) item.callId = callId;
      item.outputs = [event];
    }
    if (!call && event.calls.length > 0) {
      item.calls = event.calls.map((nested) => ({
        call: nested,
        title: callLabel(model, nested, 60),
        summary: argumentsPreview(model, nested, summaryLength),
        text: callText(model, nested, maxTextLength),
        selection: callTarget(nested).selection ?? nested.span,
      }));
    }
    return item;
  };
  const items: GraphItemSource = {
    count: model.events.length,
    callCount: (index) => (model.events[index].kind === 'call' ? 0 : model.events[index].calls.length),
    build: buildItem,
  };
  const error = !model.root
    ? 'The document is empty or holds no JSON value.'
    : !model.eventsValue ? 'This document is not a trace: expected a JSON array of events or an object with a "messages" array.' : undefined;
  return buildGraph(
    { uri: model.uri ?? '', version: model.version ?? -1, format: 'trace', error }, items, options, context, options.problems ?? validateTrace(model, context),
  );
}
