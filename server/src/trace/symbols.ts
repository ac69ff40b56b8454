import { spend, type Budget } from '../common/budget';
import type { OutlineItem, OutlineKind, Span } from '../common/types';
import { field, valueSpan, type ToolCall, type TraceEvent, type TraceModel } from './model';
import { callLabel, contentText } from './text';
import { firstLine } from '../common/text';

const previewLength = 60;

function eventSelection(event: TraceEvent): Span {
  if (event.kind === 'call') {
    const at = event.calls[0].idField?.value ?? event.calls[0].nameField?.value;
    if (at) return valueSpan(at);
  }
  const role = field(event.fields, 'role')?.value;
  if (role) return valueSpan(role);
  return { start: event.value.start, end: Math.min(event.value.end, event.value.start + 1) };
}

function callItem(model: TraceModel, call: ToolCall): OutlineItem {
  const at = call.idField?.value ?? call.nameField?.value;
  const item: OutlineItem = {
    name: callLabel(model, call, previewLength),
    kind: 'call',
    span: valueSpan(call.value),
    selection: at ? valueSpan(at) : { start: call.value.start, end: call.value.start + 1 },
  };
  if (call.id !== undefined) item.detail = `id ${call.id}`;
  return item;
}

function preview(model: TraceModel, event: TraceEvent): string {
  return firstLine(contentText(model, event, previewLength * 4).text, previewLength);
}

/** The name of an event in the outline, e.g. `#3 assistant → get_inbox(n=10)` or `#4 tool ← get_inbox: 1. Subject: …`. */
export function eventTitle(model: TraceModel, event: TraceEvent): { name: string; kind: OutlineKind } {
  const n = `#${event.index}`;
  switch (event.kind) {
    case 'message': {
      const role = event.role ?? 'message';
      if (event.calls.length > 0) {
        return { name: `${n} ${role} → ${event.calls.map((c) => callLabel(model, c, previewLength)).join(', ')}`, kind: 'message' };
      }
      const text = preview(model, event);
      return { name: text ? `${n} ${role}: ${text}` : `${n} ${role}`, kind: 'message' };
    }
    case 'output': {
      const tool = event.answers?.name ?? (event.callId !== undefined ? `"${event.callId}"` : '?');
      const text = preview(model, event);
      return { name: `${n} tool ← ${tool}${text ? `: ${text}` : ''}`, kind: 'output' };
    }
    case 'call':
      return { name: `${n} call ${callLabel(model, event.calls[0], previewLength)}`, kind: 'call' };
    case 'tools': {
      return { name: `${n} tools`, kind: 'tools' };
    }
    case 'metadata':
      return { name: `${n} metadata`, kind: 'metadata' };
    default:
      return { name: event.value.kind === 'object' ? `${n} (no role)` : `${n} (not an object)`, kind: 'event' };
  }
}

/** One item per event (no cap), tool calls nested as children. */
export function symbols(model: TraceModel, budget?: Budget): OutlineItem[] {
  const items: OutlineItem[] = new Array(model.events.length);
  let steps = 0;
  for (let i = 0; i < model.events.length; i++) {
    steps = spend(budget, steps);
    const event = model.events[i];
    const { name, kind } = eventTitle(model, event);
    const item: OutlineItem = { name, kind, span: valueSpan(event.value), selection: eventSelection(event) };
    if (event.kind === 'message' && event.calls.length > 0) {
      const text = preview(model, event);
      if (text) item.detail = text;
    }
    if (event.kind !== 'call' && event.calls.length > 0) item.children = event.calls.map((c) => callItem(model, c));
    else if (event.kind === 'call' && event.calls[0].id !== undefined) item.detail = `id ${event.calls[0].id}`;
    items[i] = item;
  }
  return items;
}
