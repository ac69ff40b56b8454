/**
 * Reads an Anthropic Messages document into conversations of linked calls: a request's system prompt and messages,
 * a response's message, a bare list of messages; in a JSON Lines file, each request with the response on the line
 * after it is a conversation, and lines of bare messages make one. Calls are `tool_use` blocks and the API's own
 * (`server_tool_use`, `mcp_tool_use`); outputs are `tool_result` blocks and the API's `*_tool_result` blocks, linked
 * by `tool_use_id` as the Invariant analyzer links them.
 */
import type { DocumentInput } from '../common/languageService';
import { spend, type Budget } from '../common/budget';
import type { Span } from '../common/types';
import { itemAt } from '../common/spans';
import type { JsonNode, JsonObject } from '../json/nodes';
import { parseJsonValue } from '../json/readJson';
import { property, propertyValue, stringValue } from '../json/queries';
import { CallLinker } from '../calls/links';
import { callBlockTypes, isOutputBlockType } from './blocks';
import { conversationFormat } from './format';
import { shapeOf } from './recognize';
import type { Conversation, ConversationCall, ConversationModel, ConversationOutput, DocumentValue, MessageStep } from './types';

export function parseConversation(doc: DocumentInput, lines: boolean): ConversationModel {
  const text = doc.text;
  const values = lines ? readLines(text, doc.budget) : [readValue(text, 0, text.charCodeAt(0) === 0xfeff ? 1 : 0, text.length, undefined, doc.budget)];
  const builder = new ConversationsBuilder(text);
  for (const value of values) builder.value(value);
  return { uri: doc.uri, version: doc.version, text, lines, values, conversations: builder.done() };
}

function readValue(text: string, start: number, valueStart: number, end: number, line: number | undefined, budget?: Budget): DocumentValue {
  const { root, errors } = parseJsonValue(text, valueStart, end, budget);
  const value: DocumentValue = { root, start, end, errors, shape: shapeOf(root) };
  if (line !== undefined) value.line = line;
  return value;
}

function readLines(text: string, budget?: Budget): DocumentValue[] {
  const values: DocumentValue[] = [];
  let start = 0;
  let steps = 0;
  for (let line = 0; start <= text.length; line++) {
    steps = spend(budget, steps);
    let newline = text.indexOf('\n', start);
    if (newline === -1) newline = text.length;
    let end = newline;
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    const valueStart = line === 0 && text.charCodeAt(0) === 0xfeff ? 1 : start;
    if (/\S/.test(text.slice(valueStart, end))) values.push(readValue(text, start, valueStart, end, line, budget));
    start = newline + 1;
  }
  return values;
}

/** An empty conversation, filled by the builder. */
function newConversation(text: string): Conversation {
  return {
    text, steps: [], calls: [], outputs: [], callsById: new Map(), outputsByCallId: new Map(), tools: new Map(), values: [],
    span: { start: 0, end: 0 }, format: conversationFormat,
  };
}

class ConversationsBuilder {
  private readonly conversations: Conversation[] = [];
  private current?: { conversation: Conversation; linker: CallLinker<ConversationCall, ConversationOutput>; last?: DocumentValue };

  constructor(private readonly text: string) {}

  done(): Conversation[] {
    return this.conversations;
  }

  value(value: DocumentValue): void {
    const root = value.root;
    const shape = value.shape;
    if (!root || !shape) return;
    // A request starts a conversation; its response (the next line) and bare messages go on the current one.
    const continues = this.current && (shape === 'message' || (shape === 'response' && this.current.last?.shape !== 'response'));
    if (!continues) this.start();
    const current = this.current!;
    current.conversation.values.push(value);
    current.last = value;
    const conversation = current.conversation;
    (conversation.span as Span).end = value.end;
    if (conversation.values.length === 1) (conversation.span as Span).start = value.start;
    const where = (index: number, inArray: string) => (value.line !== undefined ? { name: `line ${value.line + 1}`, short: `L${value.line + 1}` } : { name: `${inArray}[${index}]`, short: `#${index}` });
    if (shape === 'request' && root.type === 'object') {
      const system = property(root, 'system');
      if (system?.value) this.step(value, system.value, { start: system.start, end: system.end }, 'system', value.line !== undefined ? { name: `line ${value.line + 1} system`, short: `L${value.line + 1}` } : { name: 'system', short: 'sys' });
      const tools = propertyValue(root, 'tools');
      if (tools?.type === 'array') {
        for (const tool of tools.items) {
          const name = stringValue(propertyValue(tool, 'name'));
          if (name !== undefined && tool.type === 'object' && !conversation.tools.has(name)) conversation.tools.set(name, tool);
        }
      }
      const messages = propertyValue(root, 'messages');
      if (messages?.type === 'array') {
        messages.items.forEach((message, i) => {
          const named = value.line !== undefined ? { name: `line ${value.line + 1} messages[${i}]`, short: `L${value.line + 1}#${i}` } : where(i, 'messages');
          this.step(value, message, message, undefined, named);
        });
      }
    } else if (shape === 'messages' && root.type === 'array') {
      root.items.forEach((message, i) => this.step(value, message, message, undefined, value.line !== undefined ? { name: `line ${value.line + 1} [${i}]`, short: `L${value.line + 1}#${i}` } : { name: `message [${i}]`, short: `#${i}` }));
    } else {
      const named = value.line !== undefined ? where(0, '') : shape === 'response' ? { name: 'the response', short: 'resp' } : { name: 'the message', short: 'msg' };
      this.step(value, root, root, undefined, named);
    }
  }

  private start(): void {
    const conversation = newConversation(this.text);
    this.conversations.push(conversation);
    this.current = { conversation, linker: new CallLinker(conversation) };
  }

  private step(value: DocumentValue, node: JsonNode, span: Span, system: 'system' | undefined, named: { name: string; short: string }): void {
    const { conversation, linker } = this.current!;
    const content = system ? node : propertyValue(node, 'content');
    const role = system ?? stringValue(propertyValue(node, 'role'));
    const step: MessageStep = {
      index: conversation.steps.length, span: { start: span.start, end: span.end }, name: named.name, short: named.short, role, system: system !== undefined, node, content,
      blocks: content?.type === 'array' ? content.items : [], value, calls: [], heldOutputs: [],
    };
    conversation.steps.push(step);
    if (system) return;
    for (const block of step.blocks) {
      if (block.type !== 'object') continue;
      const type = stringValue(propertyValue(block, 'type'));
      if (type === undefined) continue;
      if (callBlockTypes.has(type)) {
        const id = propertyValue(block, 'id');
        const name = propertyValue(block, 'name');
        const call: ConversationCall = {
          index: 0, step, span: { start: block.start, end: block.end }, block, input: propertyValue(block, 'input'), server: type !== 'tool_use', outputs: [],
          ...(id?.type === 'string' ? { id: id.value, idSpan: { start: id.start, end: id.end } } : {}),
          ...(name?.type === 'string' ? { name: name.value, nameSpan: { start: name.start, end: name.end } } : {}),
        };
        step.calls.push(call);
        linker.call(call);
      } else if (isOutputBlockType(type)) {
        const id = propertyValue(block, 'tool_use_id');
        const output: ConversationOutput = {
          index: conversation.outputs.length, step, span: { start: block.start, end: block.end }, block, type, content: propertyValue(block, 'content'),
          linkSpan: id ? { start: id.start, end: id.end } : { start: block.start, end: block.start + 1 },
          answers: null, implicit: false, isError: outputFailed(block, type),
          ...(id?.type === 'string' ? { callId: id.value, idSpan: { start: id.start, end: id.end } } : {}),
        };
        step.heldOutputs.push(output);
        linker.output(output, false);
      }
    }
  }
}

/** `is_error: true`, or a server tool's result whose content is an error (`web_search_tool_result_error`, …). */
function outputFailed(block: JsonObject, type: string): boolean {
  const flag = propertyValue(block, 'is_error');
  if (flag?.type === 'boolean') return flag.value === true;
  if (type === 'tool_result') return false;
  const content = propertyValue(block, 'content');
  const contentType = stringValue(propertyValue(content, 'type'));
  return contentType !== undefined && contentType.endsWith('_error');
}

/** The conversation holding an offset (the values it was read from), if any. */
export function conversationAt(model: ConversationModel, offset: number): Conversation | undefined {
  return itemAt(model.conversations, offset, (conversation) => conversation.span);
}

/** The value (the whole text, or a line) holding an offset. */
export function valueAt(model: ConversationModel, offset: number): DocumentValue | undefined {
  return itemAt(model.values, offset, (value) => value);
}
