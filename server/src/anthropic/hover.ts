/**
 * Hover in an Anthropic conversation: on a tool_use id or a tool_use_id, the call as `name(args)` and its result
 * (the shared hover); on a key, what the API uses it for (by where it is: request, response, message, block, tool);
 * on a block type, a role or a stop reason, what it means; on a tool's name, its definition and its calls.
 */
import type { HoverResult, Span } from '../common/types';
import { escapeMarkdown, inlineCode, quote } from '../common/markdown';
import { ownEntry } from '../common/lookup';
import { idHover } from '../calls/hover';
import { blockAsEvents } from '../calls/anthropicEvents';
import { propertyValue, stringValue } from '../json/queries';
import { blockDocs, blockFieldDocs, callBlockTypes } from './blocks';
import { messageFieldDocs, requestFieldDocs, responseFieldDocs, roleDocs, stopReasonDocs, toolFieldDocs } from './docs';
import { conversationAt } from './model';
import { blockType, placeAt, type Role } from './place';
import type { Conversation, ConversationModel } from './types';

const keyDocs: Partial<Record<Role, { docs: Record<string, string>; what: string }>> = {
  request: { docs: requestFieldDocs, what: 'request' },
  response: { docs: responseFieldDocs, what: 'response' },
  message: { docs: messageFieldDocs, what: 'message' },
  block: { docs: blockFieldDocs, what: 'block' },
  tool: { docs: toolFieldDocs, what: 'tool definition' },
};

export function hover(model: ConversationModel, offset: number): HoverResult | null {
  const conversation = conversationAt(model, offset);
  const onId = conversation && idHover(conversation, offset);
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
    const type = role === 'block' ? blockType(last.node) : undefined;
    return { span, markdown: `**${escapeMarkdown(last.property.key)}** (${type ? `${inlineCode(type)} ` : ''}${table.what} of the Messages API)\n\n${doc}` };
  }
  const node = last.node;
  if (node.type !== 'string' || place.steps.length < 2) return null;
  const span: Span = { start: node.start, end: node.end };
  const parent = place.roles[place.roles.length - 2];
  const key = place.segment;
  if (key === 'type' && parent === 'block') {
    const doc = ownEntry(blockDocs, node.value);
    const markdown = doc ? `**${escapeMarkdown(node.value)}** block\n\n${doc}` : `**${escapeMarkdown(node.value)}**: a block type this reader does not know (the API may have added it).`;
    const seen = blockAsEvents(place.steps[place.steps.length - 2].node);
    return { span, markdown: seen ? `${markdown}\n\n${seen}` : markdown };
  }
  if (key === 'role' && (parent === 'message' || parent === 'response')) {
    const doc = ownEntry(roleDocs, node.value);
    return doc ? { span, markdown: `**${escapeMarkdown(node.value)}** message\n\n${doc}` } : null;
  }
  if (key === 'stop_reason' && parent === 'response') {
    const doc = ownEntry(stopReasonDocs, node.value);
    return doc ? { span, markdown: `**stop_reason** ${inlineCode(node.value)}\n\n${doc}` } : null;
  }
  const block = place.steps[place.steps.length - 2].node;
  if (key === 'name' && conversation && ((parent === 'block' && callBlockTypes.has(blockType(block) ?? '')) || parent === 'tool')) return toolHover(conversation, node.value, span);
  return null;
}

function toolHover(conversation: Conversation, name: string, span: Span): HoverResult {
  const parts = [`**${escapeMarkdown(name)}** (tool)`];
  const tool = conversation.tools.get(name);
  const description = stringValue(propertyValue(tool, 'description'));
  const type = stringValue(propertyValue(tool, 'type'));
  if (description) parts.push(quote(description.length > 600 ? `${description.slice(0, 600)}…` : description));
  else if (type) parts.push(`A tool the API defines: ${inlineCode(type)}.`);
  else if (!tool) parts.push(conversation.tools.size > 0 ? 'Not one of the request\'s `tools`.' : 'The request\'s `tools` are not in this file.');
  const calls = conversation.calls.filter((call) => call.name === name);
  const failed = calls.filter((call) => call.outputs.some((output) => output.isError)).length;
  parts.push(`${calls.length} call${calls.length === 1 ? '' : 's'} in this conversation${failed > 0 ? `, ${failed} failed` : ''}.`);
  return { span, markdown: parts.join('\n\n') };
}
