/**
 * Hover in an Inspect log: on a tool call's id or a tool message's tool_call_id, the call and its output (the
 * shared hover, with the time the tool took where the events record it); on a key, what Inspect uses it for (by
 * where it is: the log, a sample, a message, a tool call, a tool error); on a role, a content part's type, an error
 * type or the log's status, what it means; on a score, the sample's scores; on an attachment reference, its text.
 */
import type { HoverResult, Span } from '../common/types';
import { codeBlock, escapeMarkdown } from '../common/markdown';
import { ownEntry } from '../common/lookup';
import { firstLines } from '../common/text';
import { idHover } from '../calls/hover';
import { stepTimingLines } from '../calls/timing';
import { contentText } from './content';
import {
  contentTypeDocs, logFieldDocs, messageFieldDocs, roleDocs, sampleFieldDocs, statusDocs, toolCallFieldDocs, toolErrorFieldDocs, toolErrorTypeDocs,
} from './docs';
import { sampleName, traceAt } from './model';
import { placeAt, type Role } from './place';
import type { InspectModel } from './types';

const keyDocs: Partial<Record<Role, { docs: Record<string, string>; what: string }>> = {
  log: { docs: logFieldDocs, what: 'the log' },
  sample: { docs: sampleFieldDocs, what: 'a sample' },
  message: { docs: messageFieldDocs, what: 'a message' },
  toolCall: { docs: toolCallFieldDocs, what: 'a tool call' },
  toolError: { docs: toolErrorFieldDocs, what: 'a tool error' },
};

export function hover(model: InspectModel, offset: number): HoverResult | null {
  const trace = traceAt(model, offset);
  const onId = trace && idHover(trace, offset);
  if (onId) return onId;
  const place = placeAt(model, offset);
  if (!place) return null;
  const last = place.steps[place.steps.length - 1];
  const role = place.roles[place.roles.length - 1];
  if (last.onKey && last.property) {
    const span = { start: last.property.keyStart, end: last.property.keyEnd };
    const table = keyDocs[role];
    const doc = table && ownEntry(table.docs, last.property.key);
    if (!table || !doc) return null;
    const lines = [`**${escapeMarkdown(last.property.key)}** (${table.what} in an Inspect log)`, doc];
    if (role === 'message' && last.property.key === 'role' && trace) {
      const step = trace.steps.find((each) => each.span.start === last.node.start);
      if (step) lines.push(...stepTimingLines(trace, step));
    }
    return { span, markdown: lines.join('\n\n') };
  }
  const node = last.node;
  if (node.type !== 'string' || place.steps.length < 2) return null;
  const span: Span = { start: node.start, end: node.end };
  const parent = place.roles[place.roles.length - 2];
  const key = place.segment;
  const described = (table: Record<string, string>, what: string): HoverResult | null => {
    const doc = ownEntry(table, node.value);
    return doc ? { span, markdown: `**${escapeMarkdown(node.value)}** (${what})\n\n${doc}` } : null;
  };
  if (key === 'role' && parent === 'message') {
    const result = described(roleDocs, 'message role');
    const holder = place.steps[place.steps.length - 2].node;
    const step = trace?.steps.find((each) => each.span.start === holder.start);
    const timing = trace && step ? stepTimingLines(trace, step) : [];
    return result && timing.length > 0 ? { span, markdown: [result.markdown, ...timing].join('\n\n') } : result;
  }
  if (key === 'type' && parent === 'contentPart') return described(contentTypeDocs, 'content part');
  if (key === 'type' && parent === 'toolError') return described(toolErrorTypeDocs, 'tool error');
  if (key === 'status' && parent === 'log') return described(statusDocs, 'the log\'s status');
  if (node.value.startsWith('attachment://') && trace?.attachments) {
    const shown = contentText(model.text, node, 2000, trace.attachments);
    if (shown.text !== node.value) return { span, markdown: `**Attachment** of ${escapeMarkdown(sampleName(trace.sample))} (${shown.length.toLocaleString('en-US')} characters):\n${codeBlock(firstLines(shown.text, 20, 2000))}` };
  }
  if (key === 'function' && parent === 'toolCall' && trace) {
    const calls = trace.calls.filter((call) => call.name === node.value);
    const failed = calls.filter((call) => call.outputs.some((output) => output.isError)).length;
    return { span, markdown: `**${escapeMarkdown(node.value)}** (tool)\n\n${calls.length} call${calls.length === 1 ? '' : 's'} in ${escapeMarkdown(sampleName(trace.sample))}${failed > 0 ? `, ${failed} failed` : ''}.` };
  }
  return null;
}
