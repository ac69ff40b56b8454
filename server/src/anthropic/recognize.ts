/**
 * Whether a JSON (or JSON Lines) text is an Anthropic Messages conversation, from its content alone: a request body
 * (`messages` whose content uses typed blocks, with optional `system` and `tools`), a response (`"type": "message"`),
 * a bare list of messages, or lines of these. An OpenAI-style chat (roles `system` and `tool`, `tool_calls`) is not
 * one; a chat whose only blocks are `text`, with nothing else that is Anthropic's, is left to the other readers.
 */
import type { JsonNode } from '../json/nodes';
import { parseJsonValue } from '../json/readJson';
import { propertyValue, stringValue } from '../json/queries';
import { callBlockTypes, isOutputBlockType } from './blocks';
import type { ValueShape } from './types';
import { conversationWords } from '../../../shared/requests';

/** Block types no other chat format has. */
const anthropicBlockTypes = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'server_tool_use', 'mcp_tool_use', 'search_result', 'container_upload']);

/**
 * What a value is, by its structure alone, leniently (a message being typed, a wrong role): for the values of a
 * document already known to be a conversation, whose faults the checks then report.
 */
export function shapeOf(root: JsonNode | undefined): ValueShape | undefined {
  if (!root) return undefined;
  if (root.type === 'array') return root.items.length > 0 && root.items.every((item) => item.type === 'object' && propertyValue(item, 'role') !== undefined) ? 'messages' : undefined;
  if (root.type !== 'object') return undefined;
  if (stringValue(propertyValue(root, 'type')) === 'message' && propertyValue(root, 'content') !== undefined) return 'response';
  if (propertyValue(root, 'messages')?.type === 'array') return 'request';
  return propertyValue(root, 'role') !== undefined ? 'message' : undefined;
}

/** The shape of a value that is surely Anthropic's (structure and evidence), or undefined. */
export function recognizeValue(root: JsonNode | undefined): ValueShape | undefined {
  const shape = shapeOf(root);
  if (!shape || !root) return undefined;
  if (shape === 'response') return propertyValue(root, 'content')?.type === 'array' ? shape : undefined;
  if (shape === 'request') {
    const messages = propertyValue(root, 'messages');
    if (messages?.type !== 'array' || !messages.items.every(isMessage)) return undefined;
    const model = stringValue(propertyValue(root, 'model'));
    const tools = propertyValue(root, 'tools');
    const anthropicTools = tools?.type === 'array' && tools.items.some((tool) => propertyValue(tool, 'input_schema') !== undefined || /^[a-z_]+_\d{8}$/.test(stringValue(propertyValue(tool, 'type')) ?? ''));
    const evidence = propertyValue(root, 'system') !== undefined || anthropicTools || (model !== undefined && model.startsWith('claude'));
    return evidence || messages.items.some(hasAnthropicBlocks) ? shape : undefined;
  }
  if (shape === 'messages') return root.type === 'array' && root.items.every(isMessage) && root.items.some(hasAnthropicBlocks) ? shape : undefined;
  return isMessage(root) && hasAnthropicBlocks(root) ? shape : undefined;
}

/** A message as the Messages API takes it: an object with role `user` or `assistant` and no OpenAI-style keys. */
function isMessage(node: JsonNode): boolean {
  if (node.type !== 'object') return false;
  const role = stringValue(propertyValue(node, 'role'));
  if (role !== 'user' && role !== 'assistant') return false;
  return propertyValue(node, 'tool_calls') === undefined && propertyValue(node, 'tool_call_id') === undefined && propertyValue(node, 'content') !== undefined;
}

function hasAnthropicBlocks(message: JsonNode): boolean {
  const content = propertyValue(message, 'content');
  if (content?.type !== 'array') return false;
  return content.items.some((block) => {
    const type = stringValue(propertyValue(block, 'type'));
    if (type === undefined) return false;
    if (anthropicBlockTypes.has(type) || callBlockTypes.has(type) || isOutputBlockType(type)) return true;
    return (type === 'image' || type === 'document') && propertyValue(block, 'source') !== undefined;
  });
}

const linesToRead = 50;

/**
 * Whether a text is a conversation, and whether one per line (`jsonLines`: the file is named so, or its first line
 * is a whole value and more lines follow). Cheap for other texts: a look for the words every conversation holds.
 */
export function recognizeConversation(text: string, jsonLines: boolean | undefined): { lines: boolean } | undefined {
  const lines = jsonLines ?? looksLikeLines(text);
  // A JSON Lines file is recognised by its first lines: the words are looked for there only (a big log costs no more).
  if (!conversationWords.test(lines ? text.slice(0, endOfLines(text, linesToRead)) : text)) return undefined;
  if (!lines) {
    const { root } = parseJsonValue(text, 0, text.length);
    return recognizeValue(root) ? { lines: false } : undefined;
  }
  // The first lines: all of them values of a conversation, at least one surely Anthropic's.
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let read = 0;
  let sure = false;
  while (start < text.length && read < linesToRead) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (/\S/.test(text.slice(start, Math.min(end, start + 64)))) {
      const { root, errors } = parseJsonValue(text, start, end);
      // A line cut while it is written (the last one) is not held against the file.
      if (errors.length > 0 && end < text.length) return undefined;
      if (errors.length === 0) {
        if (!shapeOf(root)) return undefined;
        sure ||= recognizeValue(root) !== undefined;
      }
      read++;
    }
    start = end + 1;
  }
  return sure ? { lines: true } : undefined;
}

/** Where the first `count` lines end. */
function endOfLines(text: string, count: number): number {
  let end = -1;
  for (let i = 0; i < count; i++) {
    end = text.indexOf('\n', end + 1);
    if (end === -1) return text.length;
  }
  return end;
}

/** A first line that is a whole JSON value, followed by more lines: JSON Lines (pretty-printed JSON opens with `{`). */
function looksLikeLines(text: string): boolean {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const end = text.indexOf('\n', start);
  if (end === -1 || !/\S/.test(text.slice(end))) return false;
  const first = text.slice(start, end).trim();
  if (first.length < 2) return false;
  return parseJsonValue(text, start, end).errors.length === 0;
}
