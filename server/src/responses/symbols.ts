/**
 * The outline of a Responses document: the request or response first (its model, status and totals: calls and
 * tokens), then the instructions, then one entry per user message with the calls made until the next one nested
 * under it (`get_weather: Paris`, failed ones marked ✗); a response's own output is an entry when no prompt
 * precedes it.
 */
import type { Budget } from '../common/budget';
import type { OutlineItem, Span } from '../common/types';
import { shorten } from '../common/text';
import { turnOutline, type OutlineEntry } from '../calls/outline';
import { property } from '../json/queries';
import { callTitle } from './itemText';
import type { ItemCall, ItemStep, ResponsesModel } from './model';

const titleLength = 80;

export function symbols(model: ResponsesModel, budget?: Budget): OutlineItem[] {
  if (!model.shape) return [];
  return turnOutline<ItemStep, ItemCall>(model, {
    entry,
    leadingEntry: (step) => ({ name: step.list === 'output' ? 'Response output' : '(calls before the first user message)', kind: 'message', selection: selectionOf(step) }),
    callTitle: (call) => callTitle(call, titleLength),
    header: header(model),
  }, Number.MAX_SAFE_INTEGER, budget);
}

function entry(step: ItemStep): OutlineEntry | undefined {
  if (step.role === 'instructions') return { name: shorten(`Instructions: ${step.facts.text ?? ''}`, titleLength), kind: 'metadata', selection: step.span, standalone: true };
  if (step.role !== 'prompt') return undefined;
  return { name: shorten(step.facts.text || '(empty message)', titleLength), kind: 'message', selection: step.facts.contentSpan ?? selectionOf(step) };
}

function selectionOf(step: ItemStep): Span {
  return step.facts.typeSpan ?? step.facts.roleSpan ?? { start: step.span.start, end: step.span.start };
}

function header(model: ResponsesModel): (OutlineEntry & { span: Span }) | undefined {
  const root = model.root;
  if (!root) return undefined;
  const response = model.response;
  const first = model.steps[0];
  const span = { start: root.start, end: first ? Math.max(root.start + 1, first.span.start) : root.end };
  const object = property(root, 'object')?.value ?? property(root, 'model')?.value;
  const selection = object ? { start: object.start, end: object.end } : { start: root.start, end: root.start + 1 };
  switch (model.shape) {
    case 'response':
      return { name: `Response${response?.id ? ` ${response.id}` : ''}`, detail: [response?.model, response?.status].filter(Boolean).join(' · ') || undefined, kind: 'trace', span, selection };
    case 'request':
    case 'exchange':
      return { name: model.shape === 'request' ? 'Request' : 'Request and response', detail: response?.model, kind: 'trace', span, selection };
    default:
      return { name: `Items (${model.steps.length})`, kind: 'trace', span, selection };
  }
}
