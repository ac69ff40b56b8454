/**
 * Hover in a file of spans: on a tool call id, the call and its result (the shared hover), also where the link is
 * inferred (on a call's name, on a tool span's name) and where a model's history repeats an id; on a span's name,
 * the span (what it does, how long it took, its tokens and cost, its place in the tree); on an id, the span it
 * names; on a time, the clock; on an attribute's key or a field's key, what it means.
 */
import type { HoverResult } from '../common/types';
import { escapeMarkdown, inlineCode } from '../common/markdown';
import { ownEntry } from '../common/lookup';
import { contains, spanOf } from '../common/spans';
import { describeCall, idHover, linkHover } from '../calls/hover';
import { formatCost, formatDuration, formatTokens } from '../../../shared/format';
import { pathAt } from '../json/queries';
import { attributeDocs, fieldDocs } from './docs';
import { mentionAt, spanStepAt, unnamedLinkAt } from './navigation';
import { spanDuration, spanName } from './text';
import type { IdField, SpansModel, SpanStep } from './types';

export function hover(model: SpansModel, offset: number): HoverResult | null {
  const step = spanStepAt(model, offset);
  if (!step) return fileHover(model, offset);
  const trace = step.trace;
  const onId = idHover(trace, offset);
  if (onId) return onId;
  const unnamed = unnamedLinkAt(trace, offset);
  if (unnamed) return linkHover(trace, unnamed);
  const mention = mentionAt(step, offset);
  if (mention) {
    const what = mention.kind === 'call' ? 'repeats the call' : 'repeats the result of the call';
    const call = mention.call ? describeCall(trace, mention.call) : `${inlineCode(mention.callId)} (not in this trace)`;
    return { span: { ...mention.span }, markdown: `**History**: this model span's input ${what} ${call}; it is not counted again.` };
  }
  for (const attribute of step.attributes.values()) {
    if (!contains(attribute.keySpan, offset)) continue;
    const doc = ownEntry(attributeDocs, attribute.key);
    return doc ? { span: { ...attribute.keySpan }, markdown: `**${escapeMarkdown(attribute.key)}**\n\n${doc}` } : null;
  }
  for (const [field, label] of [[step.spanId, 'This span'], [step.parentId, 'Parent span'], [step.traceId, 'Trace']] as const) {
    if (field && contains(field, offset)) return { span: spanOf(field), markdown: idMarkdown(step, field, label) };
  }
  for (const at of [step.startSpan, step.endSpan]) {
    if (at && contains(at, offset)) return { span: spanOf(at), markdown: timeMarkdown(step, at === step.startSpan) };
  }
  if (step.nameNode && contains(step.nameNode, offset)) return { span: spanOf(step.nameNode), markdown: spanMarkdown(step) };
  const path = pathAt(step.node, offset);
  const last = path[path.length - 1];
  if (last.onKey && last.property) {
    const doc = ownEntry(fieldDocs, last.property.key);
    if (doc) return { span: { start: last.property.keyStart, end: last.property.keyEnd }, markdown: `**${escapeMarkdown(last.property.key)}**\n\n${doc}` };
  }
  return null;
}

/** Keys outside any span (`resourceSpans`, `final_output`). */
function fileHover(model: SpansModel, offset: number): HoverResult | null {
  const root = model.lines ? undefined : model.root;
  if (!root) return null;
  const path = pathAt(root, offset);
  const last = path[path.length - 1];
  if (!last.onKey || !last.property) return null;
  const doc = ownEntry(fieldDocs, last.property.key);
  return doc ? { span: { start: last.property.keyStart, end: last.property.keyEnd }, markdown: `**${escapeMarkdown(last.property.key)}**\n\n${doc}` } : null;
}

export function spanMarkdown(step: SpanStep): string {
  const lines = [`**${escapeMarkdown(step.name ?? 'Span')}** — ${spanName(step).replace(/ ".*$/, '')}${step.operation ? `, ${inlineCode(step.operation)}` : ''}${step.kind ? `, ${step.kind}` : ''}`];
  const duration = spanDuration(step);
  if (duration !== undefined) lines.push(`Took ${formatDuration(duration)}${step.time !== undefined ? `, from ${clock(step.time)}` : ''}.`);
  const tokens = step.usage ? formatTokens(step.usage, true) : undefined;
  if (tokens) lines.push(`Model request: ${tokens}${step.cost !== undefined ? `, ${formatCost(step.cost)}` : ''}.`);
  if (step.status === 'error') lines.push(`Ended with an error${step.statusMessage ? `: ${escapeMarkdown(step.statusMessage)}` : ''}.`);
  lines.push(treeLine(step));
  const calls = step.calls.filter((call) => call.source !== 'tool-span');
  if (calls.length > 0) lines.push(`Calls: ${calls.map((call) => inlineCode(step.trace.format.callLabel(step.trace, call, 60))).join(', ')}.`);
  for (const output of step.heldOutputs) {
    if (output.ownCall) lines.push('No model span in this trace made this call: the span stands for the call and its result.');
    else if (output.answers) lines.push(`Answers ${describeCall(step.trace, output.answers)}${output.inferred ? ` (the link is ${escapeMarkdown(output.inferred)})` : ''}.`);
  }
  if (step.service) lines.push(`Service: ${inlineCode(step.service)}.`);
  return lines.join('\n\n');
}

function treeLine(step: SpanStep): string {
  const children = step.children.length > 0 ? `; ${step.children.length} span${step.children.length === 1 ? '' : 's'} inside it` : '';
  if (step.cycle) return `Its parentSpanId closes a cycle of parents, so it is drawn as a root${children}.`;
  if (step.parent) return `Inside ${escapeMarkdown(spanName(step.parent))}${children}.`;
  if (step.parentId) return `Its parent ${inlineCode(step.parentId.hex)} is not in this file (a root here)${children}.`;
  return `A root span${children}.`;
}

function idMarkdown(step: SpanStep, field: IdField, label: string): string {
  const written = field.encoding === 'hex' ? 'hex' : field.encoding === 'base64' ? 'base64 (protobuf\'s JSON mapping)' : 'an integer';
  const lines = [`**${label}** ${inlineCode(field.hex)} (written in ${written})`];
  if (field === step.parentId) {
    lines.push(step.parent ? `The parent: ${escapeMarkdown(spanName(step.parent))}${step.parent.trace === step.trace ? '' : ''}.` : step.cycle ? 'It closes a cycle of parents: the span is drawn as a root.' : 'No span of this file has this id: the span is a root here.');
  } else if (field === step.traceId) {
    lines.push(`${step.trace.steps.length} span${step.trace.steps.length === 1 ? '' : 's'} of this file belong to this trace.`);
  }
  return lines.join('\n\n');
}

function timeMarkdown(step: SpanStep, isStart: boolean): string {
  const time = isStart ? step.time : step.endTime;
  const duration = spanDuration(step);
  return `**${isStart ? 'Started' : 'Ended'}** ${time !== undefined ? clock(time) : '(unreadable)'}${duration !== undefined ? ` · the span took ${formatDuration(duration)}` : ''}`;
}

function clock(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? 'an unreadable time' : `${date.toISOString().replace('T', ' ').replace('Z', '')} UTC`;
}
