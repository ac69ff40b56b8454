/**
 * The messages a model span records, in the shapes writers use: the GenAI conventions' `{role, parts: [{type:
 * "text" | "tool_call" | "tool_call_response", …}]}`, OpenAI chat messages (`content`, `tool_calls`,
 * `tool_call_id`), and any-agent's list of `{"tool.name", "tool.args"}` for the calls a model asked for. Tool
 * responses are read from `response` or `result` (the conventions' example uses the latter); ids are trimmed.
 */
import type { JsonNode } from '../json/nodes';
import { property } from '../json/queries';
import type { Span } from '../common/types';
import { callIdOf } from './ids';
import { spanOf } from '../common/spans';

export interface ToolCallPart {
  span: Span;
  id?: string;
  idSpan?: Span;
  name?: string;
  nameSpan?: Span;
  /** The arguments: an object, or a string holding one. */
  args?: JsonNode;
}

export interface ToolResponsePart {
  span: Span;
  id?: string;
  idSpan?: Span;
  /** What the tool returned. */
  response?: JsonNode;
  /** The key it was read from (`response`, `result`, `content`). */
  responseKey?: string;
  name?: string;
}

export interface ReadMessage {
  span: Span;
  role?: string;
  roleSpan?: Span;
  /** The text parts (a string content is one). */
  texts: JsonNode[];
  toolCalls: ToolCallPart[];
  toolResponses: ToolResponsePart[];
}

const stringOf = (node: JsonNode | undefined) => (node?.type === 'string' ? node.value : undefined);
/** Messages and parts read from one attribute at most (a longer history keeps its first ones). */
export const maxMessages = 10_000;
const maxParts = 1000;

/** A list of messages (or one message object); `role` when the list holds no roles (an output's choices). */
export function readMessages(root: JsonNode | undefined, defaultRole?: string): ReadMessage[] {
  if (!root) return [];
  const nested = property(root, 'messages')?.value;
  const list = root.type === 'array' ? root.items : nested?.type === 'array' ? nested.items : root.type === 'object' ? [root] : [];
  const messages: ReadMessage[] = [];
  for (const node of list.slice(0, maxMessages)) {
    if (node.type !== 'object') continue;
    if (isAnyAgentCall(node)) {
      const last = messages[messages.length - 1];
      const target = last && last.role === (defaultRole ?? 'assistant') && last.texts.length === 0 ? last : undefined;
      const message = target ?? { span: spanOf(node), role: defaultRole ?? 'assistant', texts: [], toolCalls: [], toolResponses: [] };
      if (!target) messages.push(message);
      else message.span = { start: message.span.start, end: node.end };
      message.toolCalls.push(anyAgentCall(node));
      continue;
    }
    messages.push(readMessage(node, defaultRole));
  }
  return messages;
}

function isAnyAgentCall(node: JsonNode): boolean {
  return !!property(node, 'tool.name');
}

function anyAgentCall(node: JsonNode): ToolCallPart {
  const name = property(node, 'tool.name')?.value;
  const id = property(node, 'tool.call.id')?.value ?? property(node, 'id')?.value;
  return withId<ToolCallPart>({ span: spanOf(node), name: stringOf(name), nameSpan: name && spanOf(name), args: property(node, 'tool.args')?.value }, id);
}

function withId<T extends ToolCallPart | ToolResponsePart>(part: T, node: JsonNode | undefined): T {
  const id = callIdOf(node);
  if (id !== undefined && node) {
    part.id = id;
    part.idSpan = spanOf(node);
  }
  return part;
}

function readMessage(node: JsonNode, defaultRole: string | undefined): ReadMessage {
  const role = property(node, 'role')?.value;
  const message: ReadMessage = { span: spanOf(node), role: stringOf(role) ?? defaultRole, texts: [], toolCalls: [], toolResponses: [] };
  if (role?.type === 'string') message.roleSpan = spanOf(role);
  const parts = property(node, 'parts')?.value;
  if (parts?.type === 'array') {
    for (const part of parts.items.slice(0, maxParts)) readPart(part, message);
  }
  const content = property(node, 'content')?.value;
  if (content?.type === 'string') {
    if (message.role === 'tool') message.toolResponses.push(withId<ToolResponsePart>({ span: spanOf(node), response: content, responseKey: 'content', name: stringOf(property(node, 'name')?.value) }, property(node, 'tool_call_id')?.value));
    else message.texts.push(content);
  } else if (content?.type === 'array') {
    for (const part of content.items.slice(0, maxParts)) readPart(part, message);
  }
  const toolCalls = property(node, 'tool_calls')?.value;
  if (toolCalls?.type === 'array') {
    for (const call of toolCalls.items.slice(0, maxParts)) {
      if (call.type !== 'object') continue;
      const fn = property(call, 'function')?.value;
      const name = property(fn, 'name')?.value ?? property(call, 'name')?.value;
      message.toolCalls.push(withId<ToolCallPart>({ span: spanOf(call), name: stringOf(name), nameSpan: name && spanOf(name), args: property(fn, 'arguments')?.value ?? property(call, 'arguments')?.value }, property(call, 'id')?.value));
    }
  }
  return message;
}

function readPart(part: JsonNode, message: ReadMessage): void {
  if (part.type === 'string') {
    message.texts.push(part);
    return;
  }
  if (part.type !== 'object') return;
  const type = stringOf(property(part, 'type')?.value);
  if (type === 'tool_call' || type === 'function_call' || type === 'tool_use') {
    const name = property(part, 'name')?.value;
    const args = property(part, 'arguments')?.value ?? property(part, 'input')?.value;
    message.toolCalls.push(withId<ToolCallPart>({ span: spanOf(part), name: stringOf(name), nameSpan: name && spanOf(name), args }, property(part, 'id')?.value));
  } else if (type === 'tool_call_response' || type === 'tool_result' || type === 'function_call_output') {
    const key = ['response', 'result', 'content', 'output'].find((candidate) => property(part, candidate)?.value !== undefined);
    const id = property(part, 'id')?.value ?? property(part, 'tool_use_id')?.value ?? property(part, 'call_id')?.value;
    message.toolResponses.push(withId<ToolResponsePart>({ span: spanOf(part), response: key ? property(part, key)?.value : undefined, responseKey: key }, id));
  } else {
    const text = property(part, 'content')?.value ?? property(part, 'text')?.value;
    // A model's reasoning is not what it said: rules do not see it, as the gateway leaves out Anthropic's thinking.
    if (text?.type === 'string' && (type === undefined || type === 'text')) message.texts.push(text);
  }
}

/** A message made of a list of parts, or of one text (the conventions' `gen_ai.system_instructions`). */
export function messageOfParts(parts: JsonNode, role: string): ReadMessage {
  const message: ReadMessage = { span: spanOf(parts), role, texts: [], toolCalls: [], toolResponses: [] };
  if (parts.type === 'array') for (const part of parts.items.slice(0, maxParts)) readPart(part, message);
  else if (parts.type === 'string') message.texts.push(parts);
  return message;
}
