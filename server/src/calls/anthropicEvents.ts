/**
 * Anthropic Messages content → Invariant trace events, by the rules of Invariant's own gateway
 * (`anthropic_to_invariant.py`), so that guardrail rules see a conversation as Invariant would, with two exceptions
 * an editor needs: a `tool_result` with empty content is kept (it answers its call) and its `is_error` is kept.
 *
 * Every format that holds Anthropic messages (a Claude Code session's records, a Messages API request or response)
 * hands its `system` value and each message's role and content node here, and gets events back, each with its
 * source spans (calls/sourcedEvents.ts).
 */
import type { JsonNode } from '../json/nodes';
import { property } from '../json/queries';
import { event, madeArray, madeNull, madeObject, madeString, original, stringOf, type Sourced, type SourcedEvent } from './sourcedEvents';
import { spanOf } from '../common/spans';

export type { SourcedEvent } from './sourcedEvents';

/** The request's `system` (a string, or a list of blocks kept as it is) → `{role: "system", content}`. */
export function systemEvent(text: string, system: JsonNode): SourcedEvent {
  return event(spanOf(system), [['role', madeString('system', spanOf(system))], ['content', original(text, system)]]);
}

/**
 * The events of one message, from its role and its `content` node (a string or a list of blocks), in the gateway's
 * order. `text` is the document the nodes' offsets point into; the nodes must be valid JSON (a line that does not
 * parse is not converted).
 */
export function messageEvents(text: string, role: string, content: JsonNode): SourcedEvent[] {
  if (content.type === 'string') return [event(spanOf(content), [['role', madeString(role, spanOf(content))], ['content', original(text, content)]])];
  if (content.type !== 'array') return [];
  return role === 'assistant' ? assistantEvents(text, content.items) : userEvents(text, role, content.items);
}

/** Each `tool_result` → a tool event, in block order; `text` and `image` blocks → one user event after them. */
function userEvents(text: string, role: string, blocks: readonly JsonNode[]): SourcedEvent[] {
  const events: SourcedEvent[] = [];
  const gathered: Sourced[] = [];
  let first: JsonNode | undefined;
  let last: JsonNode | undefined;
  for (const block of blocks) {
    const type = stringOf(property(block, 'type')?.value);
    if (type === 'tool_result') events.push(toolEvent(text, block));
    else if (type === 'text' || type === 'image') {
      const chunk = type === 'text' ? textChunk(text, block) : imageChunk(block);
      if (!chunk) continue;
      gathered.push(chunk);
      first ??= block;
      last = block;
    }
  }
  if (first && last) {
    const at = { start: first.start, end: last.end };
    events.push(event(at, [['role', madeString(role, at)], ['content', madeArray(at, gathered)]]));
  }
  return events;
}

/**
 * `{role: "tool", content, tool_call_id}`. The gateway drops a result whose content is empty, and `is_error`: both
 * are kept here (an empty result still answers its call; a failed one is shown as failed).
 */
function toolEvent(text: string, block: JsonNode): SourcedEvent {
  const at = spanOf(block);
  const content = property(block, 'content')?.value;
  const id = property(block, 'tool_use_id')?.value;
  const isError = property(block, 'is_error')?.value;
  const fields: [string, Sourced][] = [
    ['role', madeString('tool', at)],
    ['content', content && content.type !== 'null' ? original(text, content) : madeString('', at)],
  ];
  if (id) fields.push(['tool_call_id', original(text, id)]);
  if (isError?.type === 'boolean' && isError.value === true) fields.push(['is_error', original(text, isError)]);
  return event(at, fields);
}

function textChunk(text: string, block: JsonNode): Sourced | undefined {
  const value = property(block, 'text')?.value;
  if (!value) return undefined;
  const at = spanOf(block);
  return madeObject(at, [['type', madeString('text', at)], ['text', original(text, value)]]);
}

/** `{type: "image_url", image_url: {url: "data:<media_type>;base64,<data>"}}` (a URL source keeps its URL). */
function imageChunk(block: JsonNode): Sourced | undefined {
  const source = property(block, 'source')?.value;
  const at = spanOf(block);
  const url = stringOf(property(source, 'url')?.value)
    ?? `data:${stringOf(property(source, 'media_type')?.value) ?? ''};base64,${stringOf(property(source, 'data')?.value) ?? ''}`;
  const sourceAt = source ? spanOf(source) : at;
  return madeObject(at, [['type', madeString('image_url', at)], ['image_url', madeObject(sourceAt, [['url', madeString(url, sourceAt)]])]]);
}

/**
 * Each `text` block → its own assistant event; each `tool_use` → its own event with one call (`arguments` stays
 * the `input` object). Other blocks (thinking, server tools) are dropped, as the gateway drops them.
 */
function assistantEvents(text: string, blocks: readonly JsonNode[]): SourcedEvent[] {
  const events: SourcedEvent[] = [];
  for (const block of blocks) {
    const type = stringOf(property(block, 'type')?.value);
    const at = spanOf(block);
    if (type === 'text') {
      const value = property(block, 'text')?.value;
      if (value) events.push(event(at, [['role', madeString('assistant', at)], ['content', original(text, value)]]));
    } else if (type === 'tool_use') {
      const id = property(block, 'id')?.value;
      const name = property(block, 'name')?.value;
      const input = property(block, 'input')?.value;
      const fn = madeObject(at, [
        ['name', name ? original(text, name) : madeString('', at)],
        ['arguments', input ? original(text, input) : madeObject(at, [])],
      ]);
      const call = madeObject(at, [['id', id ? original(text, id) : madeNull(at)], ['type', madeString('function', at)], ['function', fn]]);
      events.push(event(at, [['role', madeString('assistant', at)], ['content', madeNull(at)], ['tool_calls', madeArray(at, [call])]]));
    }
  }
  return events;
}

/**
 * What guardrail rules see of a content block (Markdown for its hover), and where that differs from what Invariant's
 * gateway would give for this very block (an empty or failed `tool_result`), if anywhere.
 */
export function blockAsEvents(block: JsonNode): string | undefined {
  const type = stringOf(property(block, 'type')?.value);
  if (type === undefined) return undefined;
  switch (type) {
    case 'text':
      return 'Rules see it as a message: in an assistant message, an event of its own (`{role: "assistant", content: text}`); in a user message, gathered with the message\'s other text and image blocks into one `{role: "user", content: [...]}` after its tool results. As Invariant\'s gateway converts it.';
    case 'image':
      return 'Rules see it in the user event that gathers the message\'s text and images, as `{type: "image_url", image_url: {url: "data:<media_type>;base64,…"}}`. As Invariant\'s gateway converts it.';
    case 'tool_use':
      return 'Rules see it as a call: an assistant event of its own, `{role: "assistant", content: null, tool_calls: [{id, type: "function", function: {name, arguments: input}}]}`. As Invariant\'s gateway converts it.';
    case 'tool_result': {
      const content = property(block, 'content')?.value;
      const empty = !content || content.type === 'null' || (content.type === 'string' && content.value === '') || (content.type === 'array' && content.items.length === 0);
      const failed = property(block, 'is_error')?.value;
      const differences: string[] = [];
      if (empty) differences.push('Invariant\'s gateway drops a result whose content is empty; here it is kept, with content `""`, since it still answers its call');
      if (failed?.type === 'boolean' && failed.value) differences.push('the gateway drops `is_error`; here the event keeps `is_error: true`');
      const seen = 'Rules see it as a tool output: `{role: "tool", content, tool_call_id: tool_use_id}`.';
      return differences.length > 0 ? `${seen}\n\n**Differs from Invariant's gateway:** ${differences.join('; ')}.` : `${seen} As Invariant's gateway converts it.`;
    }
    default:
      return 'Rules do not see it: Invariant\'s gateway drops this block (only text, images, tool calls and their results become events).';
  }
}
