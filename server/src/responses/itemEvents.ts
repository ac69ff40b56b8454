/**
 * OpenAI Responses items → Invariant trace events, for every format that holds them (a Responses request or
 * response, a Codex rollout's `response_item` records). Invariant's gateway converts only Chat Completions (whose
 * messages are already its events) and has no conversion of Responses items, so this mapping is ours, kept as
 * close as it can be to the Chat Completions messages the same conversation would have been:
 * - `message` → `{role, content}` with the role as written; content that is one text part → that string, several
 *   parts → `[{type: "text", text}, {type: "image_url", image_url: {url}}]`.
 * - a call the client runs (`function_call`, `custom_tool_call`, `local_shell_call`, `shell_call`,
 *   `apply_patch_call`, `computer_call`) → `{role: "assistant", content: null, tool_calls: [{id: call_id, type:
 *   "function", function: {name, arguments}}]}`; `arguments` is the `function_call`'s JSON string as written (the
 *   analyzer parses it), the `action`/`operation` object as it is, or `{input}` for a custom tool's free text.
 * - its output (`*_output`) → `{role: "tool", content: output, tool_call_id: call_id}`.
 * - `reasoning` and the tools the API runs itself (web search, file search, MCP, image generation) are dropped, as
 *   the gateway drops Anthropic's thinking and server tools.
 * The events carry source spans (calls/sourcedEvents.ts): violations land on the item's own characters.
 */
import type { JsonNode } from '../json/nodes';
import { property } from '../json/queries';
import type { Span } from '../common/types';
import { inlineCode } from '../common/markdown';
import { readItem } from './itemFacts';
import { event, madeArray, madeNull, madeObject, madeString, original, stringOf, type Sourced, type SourcedEvent } from '../calls/sourcedEvents';
import { spanOf } from '../common/spans';

/** A request's `instructions` → `{role: "system", content}`. */
export function instructionsEvent(text: string, instructions: JsonNode): SourcedEvent {
  return event(spanOf(instructions), [['role', madeString('system', spanOf(instructions))], ['content', original(text, instructions)]]);
}

/** A request's `input` given as a string → `{role: "user", content}`. */
export function promptEvent(text: string, input: JsonNode): SourcedEvent {
  return event(spanOf(input), [['role', madeString('user', spanOf(input))], ['content', original(text, input)]]);
}

/** The events of one item (none for an item rules do not see); `text` is the document the node's offsets point into. */
export function itemEvents(text: string, item: JsonNode): SourcedEvent[] {
  if (item.type !== 'object') return [];
  const facts = readItem(item, spanOf);
  if (facts.type === 'message') {
    const message = messageEvent(text, item, facts.role ?? 'user');
    return message ? [message] : [];
  }
  if (facts.call && !facts.call.serverSide && facts.type) return [callEvent(text, item, facts.type, facts.call.name, facts.call.argsSpan)];
  if (facts.output) return [outputEvent(text, item, facts.output.linkKey)];
  return [];
}

function messageEvent(text: string, item: JsonNode, role: string): SourcedEvent | undefined {
  const at = spanOf(item);
  const content = property(item, 'content')?.value;
  if (!content) return undefined;
  if (content.type === 'string') return event(at, [['role', madeString(role, at)], ['content', original(text, content)]]);
  if (content.type !== 'array') return undefined;
  const chunks: { chunk: Sourced; text?: JsonNode }[] = [];
  for (const part of content.items) {
    const type = stringOf(property(part, 'type')?.value);
    const partText = property(part, 'text')?.value ?? property(part, 'refusal')?.value;
    if (partText?.type === 'string' && type !== 'input_image') {
      chunks.push({ chunk: madeObject(spanOf(part), [['type', madeString('text', spanOf(part))], ['text', original(text, partText)]]), text: partText });
    } else if (type === 'input_image') {
      const url = property(part, 'image_url')?.value;
      const fileId = property(part, 'file_id')?.value;
      const source = url?.type === 'string' ? original(text, url) : madeString(stringOf(fileId) ?? '', spanOf(fileId ?? part));
      chunks.push({ chunk: madeObject(spanOf(part), [['type', madeString('image_url', spanOf(part))], ['image_url', madeObject(spanOf(part), [['url', source]])]]) });
    }
  }
  if (chunks.length === 0) return undefined;
  // One text part reads as the plain string a Chat Completions message would hold.
  const only = chunks.length === 1 ? chunks[0].text : undefined;
  return event(at, [['role', madeString(role, at)], ['content', only ? original(text, only) : madeArray(spanOf(content), chunks.map((c) => c.chunk))]]);
}

function callEvent(text: string, item: JsonNode, type: string, name: string | undefined, argsSpan: Span | undefined): SourcedEvent {
  const at = spanOf(item);
  const id = property(item, 'call_id')?.value;
  const nameNode = property(item, 'name')?.value;
  const args = argsSpan ? valueAt(item, argsSpan) : undefined;
  let argumentsValue: Sourced;
  if (!args) argumentsValue = madeObject(at, []);
  else if (args.type === 'string' && type !== 'function_call') argumentsValue = madeObject(spanOf(args), [['input', original(text, args)]]);
  else argumentsValue = original(text, args);
  const fn = madeObject(at, [['name', nameNode?.type === 'string' ? original(text, nameNode) : madeString(name ?? '', at)], ['arguments', argumentsValue]]);
  const call = madeObject(at, [['id', id ? original(text, id) : madeNull(at)], ['type', madeString('function', at)], ['function', fn]]);
  return event(at, [['role', madeString('assistant', at)], ['content', madeNull(at)], ['tool_calls', madeArray(at, [call])]]);
}

function outputEvent(text: string, item: JsonNode, linkKey: 'call_id' | 'id'): SourcedEvent {
  const at = spanOf(item);
  const output = property(item, 'output')?.value;
  const id = property(item, linkKey)?.value;
  const fields: [string, Sourced][] = [
    ['role', madeString('tool', at)],
    ['content', output && output.type !== 'null' ? original(text, output) : madeString('', at)],
  ];
  if (id) fields.push(['tool_call_id', original(text, id)]);
  return event(at, fields);
}

/** The value of the item's property that spans `at`. */
function valueAt(item: JsonNode, at: Span): JsonNode | undefined {
  if (item.type !== 'object') return undefined;
  return item.properties.find((p) => p.value?.start === at.start && p.value.end === at.end)?.value;
}

const notTheGateway = 'Invariant\'s gateway converts no Responses items: this mapping is ours (docs/formats.md), the Chat Completions message the item stands for.';

/** What guardrail rules see of an item (Markdown for its hover), and that the mapping is ours, not the gateway's. */
export function itemAsEvents(item: JsonNode): string | undefined {
  if (item.type !== 'object') return undefined;
  const facts = readItem(item, spanOf);
  let seen: string;
  if (facts.type === 'message') seen = 'Rules see it as a message: `{role, content}`, the content one string when the message has one text part, else a list of `{type: "text", text}` and `{type: "image_url", image_url: {url}}`.';
  else if (facts.call && facts.call.serverSide) seen = 'Rules do not see it: the API ran this tool itself, and such calls are left out as the gateway leaves out Anthropic\'s server tools.';
  else if (facts.call) {
    const args = facts.type === 'function_call' ? '`arguments` as written (a JSON string the analyzer parses)' : facts.call.argsEncoding === 'text' ? '`arguments: {input: <the text>}`' : '`arguments`: the item\'s action as it is';
    seen = `Rules see it as a call: \`{role: "assistant", content: null, tool_calls: [{id: call_id, type: "function", function: {name, arguments}}]}\`, named ${facts.call.name ? inlineCode(facts.call.name) : 'by its type'}, with ${args}.`;
  } else if (facts.output) seen = 'Rules see it as a tool output: `{role: "tool", content: output, tool_call_id: call_id}`.';
  else if (facts.type === 'reasoning') seen = 'Rules do not see it: reasoning is left out, as the gateway leaves out Anthropic\'s thinking.';
  else seen = 'Rules do not see it.';
  return `${seen}\n\n${notTheGateway}`;
}
