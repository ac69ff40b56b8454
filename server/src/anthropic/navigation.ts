/**
 * Navigation in an Anthropic conversation: between a tool_use and the tool_result answering it (the shared features),
 * and from a call's tool name to the tool's definition in the request's `tools`; references and highlights of a tool
 * name: its definition and every call of it.
 */
import type { Highlight, Span, Target } from '../common/types';
import { definition as linkDefinition } from '../calls/definition';
import { highlights as linkHighlights, references as linkReferences } from '../calls/references';
import { propertyValue } from '../json/queries';
import { callBlockTypes } from './blocks';
import { conversationAt } from './model';
import { blockType, placeAt } from './place';
import type { Conversation, ConversationModel } from './types';

/** The tool name under the cursor (a call's or a definition's) and its conversation. */
function toolNameAt(model: ConversationModel, offset: number): { conversation: Conversation; name: string } | undefined {
  const conversation = conversationAt(model, offset);
  const place = conversation && placeAt(model, offset);
  if (!conversation || !place || place.segment !== 'name' || place.steps.length < 2) return undefined;
  const last = place.steps[place.steps.length - 1];
  if (last.onKey || last.node.type !== 'string') return undefined;
  const parent = place.roles[place.roles.length - 2];
  const holder = place.steps[place.steps.length - 2].node;
  if (parent === 'tool' || (parent === 'block' && callBlockTypes.has(blockType(holder) ?? ''))) return { conversation, name: last.node.value };
  return undefined;
}

function definitionNameSpan(conversation: Conversation, name: string): Span | undefined {
  const node = propertyValue(conversation.tools.get(name), 'name');
  return node && { start: node.start, end: node.end };
}

export function definition(model: ConversationModel, offset: number): Target[] {
  const conversation = conversationAt(model, offset);
  const linked = conversation ? linkDefinition(conversation, offset) : [];
  if (linked.length > 0) return linked;
  const at = toolNameAt(model, offset);
  const tool = at && at.conversation.tools.get(at.name);
  const name = at && definitionNameSpan(at.conversation, at.name);
  return tool && name ? [{ span: { start: tool.start, end: tool.end }, selection: name }] : [];
}

function toolMentions(conversation: Conversation, name: string): Span[] {
  const spans: Span[] = [];
  for (const call of conversation.calls) if (call.name === name && call.nameSpan) spans.push({ ...call.nameSpan });
  return spans;
}

export function references(model: ConversationModel, offset: number, includeDeclaration: boolean): Target[] {
  const conversation = conversationAt(model, offset);
  const linked = conversation ? linkReferences(conversation, offset, includeDeclaration) : [];
  if (linked.length > 0) return linked;
  const at = toolNameAt(model, offset);
  if (!at) return [];
  const declaration = definitionNameSpan(at.conversation, at.name);
  const targets: Target[] = includeDeclaration && declaration ? [{ span: declaration }] : [];
  for (const span of toolMentions(at.conversation, at.name)) targets.push({ span });
  return targets;
}

export function highlights(model: ConversationModel, offset: number): Highlight[] {
  const conversation = conversationAt(model, offset);
  const linked = conversation ? linkHighlights(conversation, offset) : [];
  if (linked.length > 0) return linked;
  const at = toolNameAt(model, offset);
  if (!at) return [];
  const declaration = definitionNameSpan(at.conversation, at.name);
  const found: Highlight[] = declaration ? [{ span: declaration, kind: 'write' }] : [];
  for (const span of toolMentions(at.conversation, at.name)) found.push({ span, kind: 'read' });
  return found;
}
