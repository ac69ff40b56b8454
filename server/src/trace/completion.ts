import { createScanner } from 'jsonc-parser';
import type { TextSource } from '../common/textSource';
import { ScanError, Token } from '../json/tokens';
import type { ServiceContext } from '../common/languageService';
import type { CompletionEntry, Span } from '../common/types';
import { eventAt, eventBefore, type Shape, type ToolCall, type TraceModel } from './model';
import { shapeOfChild } from './parser';
import { roleValues } from './schema';
import { fieldDoc, renderFieldDoc } from './fieldDocs';
import { callLabel } from './text';
import { lookup } from '../common/lookup';

type Where = Shape | 'top';

interface Container {
  isObject: boolean;
  shape: Where;
  key?: string;
  index: number;
  keys: string[];
  /** In an object: true after a key's colon, until the value is done. */
  afterColon: boolean;
  start: number;
}

interface CursorContext {
  container: Container;
  /** The event's role when known (from the text before the cursor or the parsed model). */
  mode: 'key' | 'value' | 'none';
  /** The partial token under the cursor (a string or bare word), with its span. */
  partial?: { start: number; end: number; quoted: boolean };
  key?: string;
}

function childWhere(parent: Container, isObject: boolean): Where {
  const key = parent.isObject ? parent.key : undefined;
  return shapeOfChild(parent.shape === 'top' ? undefined : parent.shape, key, isObject);
}

/** Reads text[from, offset) to find where the cursor is: which object, key or value position, partial token. */
function cursorContext(text: TextSource, from: number, offset: number, base: Where, initialToken: number): CursorContext | undefined {
  const source = text.substring(from, offset);
  const scanner = createScanner(source, true);
  const stack: Container[] = [{ isObject: false, shape: base, index: 0, keys: [], afterColon: false, start: from }];
  let lastToken = initialToken;
  let lastOffset = 0;
  let lastLength = 0;
  let lastError = 0;
  let afterColonBefore = false;
  let keyBefore: string | undefined;
  for (let token = scanner.scan(); token !== Token.EOF; token = scanner.scan()) {
    afterColonBefore = stack[stack.length - 1].afterColon;
    keyBefore = stack[stack.length - 1].key;
    lastToken = token;
    lastOffset = scanner.getTokenOffset();
    lastLength = scanner.getTokenLength();
    lastError = scanner.getTokenError();
    const top = stack[stack.length - 1];
    switch (token) {
      case Token.OpenBrace:
      case Token.OpenBracket: {
        const isObject = token === Token.OpenBrace;
        stack.push({ isObject, shape: childWhere(top, isObject), index: 0, keys: [], afterColon: false, start: from + lastOffset });
        break;
      }
      case Token.CloseBrace:
      case Token.CloseBracket:
        if (stack.length > 1) stack.pop();
        finishValue(stack[stack.length - 1]);
        break;
      case Token.Comma:
        if (top.isObject) {
          top.afterColon = false;
          top.key = undefined;
        } else top.index++;
        break;
      case Token.Colon:
        if (top.isObject) top.afterColon = true;
        break;
      case Token.String:
        if (top.isObject && !top.afterColon) {
          top.key = scanner.getTokenValue();
          top.keys.push(top.key);
        } else finishValue(top);
        break;
      default:
        if (top.isObject && !top.afterColon && token === Token.Unknown) {
          top.key = scanner.getTokenValue();
        } else finishValue(top);
    }
  }
  const container = stack[stack.length - 1];
  const endsAtCursor = lastToken !== Token.EOF && lastOffset + lastLength === source.length;
  let partial: CursorContext['partial'];
  if (endsAtCursor && lastToken === Token.String) {
    const closed = lastError !== ScanError.UnexpectedEndOfString && lastLength >= 2;
    if (closed) return { container, mode: 'none' };
    partial = { start: from + lastOffset, end: stringEnd(text, from + lastOffset, offset), quoted: true };
  } else if (endsAtCursor && (lastToken === Token.Unknown || lastToken === Token.Null || lastToken === Token.True || lastToken === Token.False || lastToken === Token.Number)) {
    partial = { start: from + lastOffset, end: offset, quoted: false };
  }
  if (partial && container.isObject) {
    // The partial token is still being typed: judge the position as it was before it.
    if (afterColonBefore) {
      container.afterColon = true;
      container.key = keyBefore;
    }
  }
  if (container.isObject) {
    if (container.afterColon) {
      // A finished value before the cursor (e.g. `"role": "user" |`) leaves nothing to complete.
      if (!partial && lastToken !== Token.Colon) return { container, mode: 'none' };
      return { container, mode: 'value', key: container.key, partial };
    }
    if (partial && container.key !== undefined && lastToken === Token.String) container.keys.pop();
    if (!partial && lastToken !== Token.OpenBrace && lastToken !== Token.Comma) return { container, mode: 'none' };
    return { container, mode: 'key', partial };
  }
  if (!partial && lastToken !== 3 && lastToken !== 5 && lastToken !== 17) return { container, mode: 'none' };
  return { container, mode: 'value', partial };
}

function finishValue(container: Container | undefined): void {
  if (container?.isObject) container.afterColon = false;
}

/** Where the string starting at `quote` ends in the full text: after its closing quote, or at the line end. */
function stringEnd(text: TextSource, quote: number, cursor: number): number {
  for (let i = cursor; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) {
      i++;
      continue;
    }
    if (c === 0x22) return i + 1;
    if (c === 10 || c === 13) return i;
  }
  return Math.max(quote, text.length);
}

interface PropertySpec {
  name: string;
  snippet: string;
}

const p = (name: string, snippet: string): PropertySpec => ({ name, snippet });

const propertySpecs: Record<string, PropertySpec> = lookup({
  role: p('role', '"role": "${1|user,assistant,system,tool,developer|}"'),
  content: p('content', '"content": "$1"'),
  tool_calls: p('tool_calls', '"tool_calls": [\n\t{\n\t\t"id": "$1",\n\t\t"type": "function",\n\t\t"function": {\n\t\t\t"name": "$2",\n\t\t\t"arguments": {$3}\n\t\t}\n\t}\n]'),
  tool_call_id: p('tool_call_id', '"tool_call_id": "$1"'),
  name: p('name', '"name": "$1"'),
  metadata: p('metadata', '"metadata": {$1}'),
  id: p('id', '"id": "$1"'),
  type_function: p('type', '"type": "function"'),
  function: p('function', '"function": {\n\t"name": "$1",\n\t"arguments": {$2}\n}'),
  arguments: p('arguments', '"arguments": {$1}'),
  type_chunk: p('type', '"type": "${1|text,image_url|}"'),
  text: p('text', '"text": "$1"'),
  image_url: p('image_url', '"image_url": {"url": "$1"}'),
  url: p('url', '"url": "$1"'),
  detail: p('detail', '"detail": "${1|auto,low,high|}"'),
  messages: p('messages', '"messages": [\n\t$1\n]'),
  annotations: p('annotations', '"annotations": [$1]'),
  tools: p('tools', '"tools": [$1]'),
});

function propertiesFor(where: Where, role: string | undefined, keys: string[]): PropertySpec[] {
  const s = propertySpecs;
  switch (where) {
    case 'event':
      if (role === 'tool') return [s.role, s.tool_call_id, s.content, s.name, s.metadata];
      if (role === 'assistant') return [s.role, s.content, s.tool_calls, s.name, s.metadata];
      if (role !== undefined) return [s.role, s.content, s.name, s.metadata];
      if (keys.includes('type') || keys.includes('function')) return [s.id, s.type_function, s.function, s.metadata];
      return [s.role, s.content, s.tool_calls, s.tool_call_id, s.name, s.metadata];
    case 'call': return [s.id, s.type_function, s.function];
    case 'function': return [s.name, s.arguments];
    case 'chunk': return [s.type_chunk, s.text, s.image_url];
    case 'image': return [s.url, s.detail];
    case 'root': return [s.messages, s.metadata, s.annotations];
    default: return [];
  }
}

function roleBeforeCursor(model: TraceModel, text: TextSource, container: Container, offset: number): string | undefined {
  const event = eventAt(model, container.start);
  if (event && event.value.start === container.start && event.role !== undefined) return event.role;
  const match = /"role"\s*:\s*"([a-z_]+)"/.exec(text.substring(container.start, Math.min(offset, container.start + 2000)));
  return match?.[1];
}

/** Earlier calls for a tool_call_id, unanswered ones first, then the most recent first. */
function earlierCalls(model: TraceModel, offset: number): ToolCall[] {
  const calls: ToolCall[] = [];
  const seen = new Set<string>();
  for (let i = model.calls.length - 1; i >= 0; i--) {
    const call = model.calls[i];
    if (call.value.end > offset || call.id === undefined || seen.has(call.id)) continue;
    seen.add(call.id);
    calls.push(call);
  }
  const unanswered = calls.filter((c) => c.outputs.length === 0);
  const answered = calls.filter((c) => c.outputs.length > 0);
  return [...unanswered, ...answered];
}

function valueEntries(values: string[], kind: CompletionEntry['kind'], replace: Span, detail?: (v: string) => string | undefined): CompletionEntry[] {
  return values.map((value, i) => {
    const insertText = JSON.stringify(value);
    const entry: CompletionEntry = { label: value, kind, insertText, filterText: insertText, replace, sortText: String(i).padStart(5, '0') };
    const d = detail?.(value);
    if (d) entry.detail = d;
    return entry;
  });
}

const eventSnippets: { label: string; detail: string; body: string }[] = [
  { label: 'user message', detail: '{"role": "user", …}', body: '{\n\t"role": "user",\n\t"content": "$1"\n}' },
  { label: 'assistant message', detail: '{"role": "assistant", …}', body: '{\n\t"role": "assistant",\n\t"content": "$1"\n}' },
  {
    label: 'assistant tool call', detail: '{"role": "assistant", "tool_calls": […]}',
    body: '{\n\t"role": "assistant",\n\t"content": "$1",\n\t"tool_calls": [\n\t\t{\n\t\t\t"id": "$2",\n\t\t\t"type": "function",\n\t\t\t"function": {\n\t\t\t\t"name": "$3",\n\t\t\t\t"arguments": {$4}\n\t\t\t}\n\t\t}\n\t]\n}',
  },
  { label: 'tool output', detail: '{"role": "tool", "tool_call_id": …}', body: '{\n\t"role": "tool",\n\t"tool_call_id": "$1",\n\t"content": "$2"\n}' },
];

export function completion(model: TraceModel, offset: number, _context: ServiceContext): CompletionEntry[] {
  const text = model.text;
  const event = eventAt(model, offset);
  let from = model.start;
  let base: Where = 'top';
  let initialToken: number = Token.EOF;
  const events = model.eventsValue;
  if (event && offset > event.value.start && event.value.kind === 'object') {
    from = event.value.start;
    base = 'events';
  } else if (events && offset > events.start && offset <= events.end) {
    const previous = eventBefore(model, offset);
    if (previous && previous.value.end <= offset) {
      // Between events: scan only from the end of the previous one.
      from = previous.value.end;
      base = 'events';
      initialToken = Token.CloseBrace;
    } else {
      from = events.start;
    }
  }
  const cursor = cursorContext(text, from, offset, base, initialToken);
  if (!cursor || cursor.mode === 'none') return [];
  const container = cursor.container;
  const replace: Span = cursor.partial ? { start: cursor.partial.start, end: cursor.partial.end } : { start: offset, end: offset };

  if (cursor.mode === 'key') {
    const role = container.shape === 'event' ? roleBeforeCursor(model, text, container, offset) : undefined;
    const existing = new Set(container.keys);
    const recorded = container.shape === 'event' ? eventAt(model, container.start) : undefined;
    if (recorded && recorded.value.start === container.start) for (const f of recorded.fields) if (f.value) existing.add(f.name);
    const afterKey = cursor.partial?.quoted ? text.substring(replace.end, replace.end + 40) : '';
    const keyOnly = /^\s*:/.test(afterKey);
    const specs = propertiesFor(container.shape, role, container.keys).filter((s) => !existing.has(s.name));
    return specs.map((spec, i) => {
      const docShape: Shape = container.shape === 'top' ? 'root' : container.shape as Shape;
      const d = fieldDoc(docShape, spec.name, { output: role === 'tool' });
      const entry: CompletionEntry = {
        label: spec.name,
        kind: 'property',
        insertText: keyOnly ? JSON.stringify(spec.name) : spec.snippet,
        snippet: !keyOnly,
        filterText: `"${spec.name}"`,
        replace,
        sortText: String(i).padStart(3, '0'),
      };
      if (d) {
        entry.detail = d.type;
        entry.documentation = renderFieldDoc(spec.name, d);
      }
      return entry;
    });
  }

  // Value position.
  const key = cursor.key;
  if (container.isObject) {
    if (container.shape === 'event' && key === 'role') return valueEntries([...roleValues], 'enum', replace);
    if ((container.shape === 'call' || container.shape === 'event') && key === 'type') return valueEntries(['function'], 'enum', replace);
    if (container.shape === 'chunk' && key === 'type') return valueEntries(['text', 'image_url'], 'enum', replace);
    if (container.shape === 'image' && key === 'detail') return valueEntries(['auto', 'low', 'high'], 'enum', replace);
    if (container.shape === 'event' && key === 'tool_call_id') {
      const calls = earlierCalls(model, container.start);
      return calls.map((call, i) => {
        const insertText = JSON.stringify(call.id);
        const state = call.outputs.length === 0 ? 'unanswered' : `answered in #${call.outputs[0].index}`;
        return {
          label: call.id!,
          kind: 'reference',
          detail: `${callLabel(model, call, 60)} — #${call.event.index}, ${state}`,
          insertText,
          filterText: insertText,
          replace,
          sortText: String(i).padStart(6, '0'),
        };
      });
    }
    return [];
  }
  if (container.shape === 'events' && (!cursor.partial || text.charCodeAt(replace.start) === 0x7b)) {
    return eventSnippets.map((s, i) => ({
      label: s.label, kind: 'snippet', detail: s.detail, insertText: s.body, snippet: true, replace, sortText: String(i),
    }));
  }
  return [];
}

