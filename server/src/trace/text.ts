/** Short human-readable renderings of trace parts (labels, previews) computed from spans without full decoding. */
import { createScanner } from 'jsonc-parser';
import type { TextSource } from '../common/textSource';
import { Token } from '../json/tokens';
import { decodeString, field, type JsonValue, type ToolCall, type TraceEvent, type TraceModel, type ValueKind } from './model';
import { shorten } from '../common/text';

export function describeKind(kind: ValueKind): string {
  switch (kind) {
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'boolean': return 'a boolean';
    case 'null': return 'null';
    case 'object': return 'an object';
    case 'array': return 'an array';
    default: return 'an invalid value';
  }
}

/** First line of a text, whitespace collapsed, cut at max. */
export function firstLine(text: string, max: number): string {
  const trimmed = text.trimStart();
  const newline = trimmed.indexOf('\n');
  const line = (newline === -1 ? trimmed : trimmed.slice(0, newline)).replace(/\s+/g, ' ').trim();
  return shorten(line, max);
}

/** The first `count` lines of a text, cut at maxChars. */
export function firstLines(text: string, count: number, maxChars: number): string {
  const lines = text.split('\n', count + 1);
  let out = lines.slice(0, count).join('\n');
  if (lines.length > count || out.length > maxChars) out = `${out.slice(0, maxChars)}\n…`;
  return out;
}

/** `name=value, …` for the top-level entries of a JSON object text, at most max characters. */
function compactObject(source: string, max: number): string {
  const scanner = createScanner(source, true);
  const parts: string[] = [];
  let length = 0;
  let depth = 0;
  let key: string | undefined;
  let expectKey = false;
  let token = scanner.scan();
  if (token !== Token.OpenBrace) return shorten(source.replace(/\s+/g, ' '), max);
  depth = 1;
  expectKey = true;
  while (length < max) {
    token = scanner.scan();
    if (token === Token.EOF) break;
    if (depth === 1) {
      if (token === Token.CloseBrace) break;
      if (token === Token.Comma) { expectKey = true; continue; }
      if (token === Token.Colon) continue;
      if (expectKey && token === Token.String) { key = scanner.getTokenValue(); expectKey = false; continue; }
      let shown: string;
      if (token === Token.OpenBrace || token === Token.OpenBracket) { shown = token === Token.OpenBrace ? '{…}' : '[…]'; depth++; }
      else if (token === Token.String) shown = JSON.stringify(shorten(scanner.getTokenValue().replace(/\s+/g, ' '), 24));
      else shown = scanner.getTokenValue() || source.substr(scanner.getTokenOffset(), scanner.getTokenLength());
      const part = key !== undefined ? `${key}=${shown}` : shown;
      parts.push(part);
      length += part.length + 2;
      key = undefined;
    } else if (token === Token.OpenBrace || token === Token.OpenBracket) depth++;
    else if (token === Token.CloseBrace || token === Token.CloseBracket) depth--;
  }
  return shorten(parts.join(', '), max);
}

/** A compact rendering of a call's arguments (object or JSON string). */
export function argumentsPreview(model: TraceModel, call: ToolCall, max: number): string {
  const v = call.argumentsField?.value;
  if (!v) return '';
  const budget = Math.max(200, max * 8);
  if (v.kind === 'object') return compactObject(model.text.substring(v.start, Math.min(v.end, v.start + budget)), max);
  if (v.kind === 'string') {
    const decoded = decodeString(model.text, v, budget).trim();
    if (decoded.startsWith('{')) return compactObject(decoded, max);
    return shorten(decoded.replace(/\s+/g, ' '), max);
  }
  return shorten(model.text.substring(v.start, Math.min(v.end, v.start + max)), max);
}

/** `name(args)` for a call, at most max characters. */
export function callLabel(model: TraceModel, call: ToolCall, max: number): string {
  const name = call.name ?? '?';
  const args = argumentsPreview(model, call, Math.max(8, max - name.length - 2));
  return `${name}(${args})`;
}

/** The text of an event's content: strings decoded (up to max), chunks' texts joined, objects as JSON. */
export function contentText(model: TraceModel, event: TraceEvent, max: number): { text: string; length: number } {
  const content = field(event.fields, 'content')?.value;
  return valueText(model, content, max);
}

export function valueText(model: TraceModel, v: JsonValue | null | undefined, max: number): { text: string; length: number } {
  if (!v || v.kind === 'null') return { text: '', length: 0 };
  if (v.kind === 'string') {
    const text = decodeString(model.text, v, max);
    // The raw length bounds the decoded length; decode fully only when it might still fit.
    const length = v.escaped ? (v.end - v.start - 2 <= max ? text.length : approximateDecodedLength(model.text, v)) : v.end - v.start - 2;
    return { text, length };
  }
  if (v.kind === 'array' && v.items) {
    const parts: string[] = [];
    let length = 0;
    for (const chunk of v.items) {
      const text = field(chunk.fields, 'text')?.value;
      if (text?.kind === 'string') {
        const part = valueText(model, text, Math.max(0, max - length));
        parts.push(part.text);
        length += part.length + 1;
      } else if (chunk.kind === 'object') {
        const url = field(chunk.fields, 'image_url') ?? field(chunk.fields, 'image');
        if (url) {
          parts.push('[image]');
          length += 8;
        }
      }
    }
    const text = parts.join('\n');
    return { text: text.length > max ? text.slice(0, max) : text, length: Math.max(0, length - 1) };
  }
  const raw = model.text.substring(v.start, Math.min(v.end, v.start + max));
  return { text: raw, length: v.end - v.start };
}

/** Decoded length of a long escaped string: raw length minus what escapes add. */
function approximateDecodedLength(text: TextSource, v: JsonValue): number {
  let length = v.end - v.start - 2;
  let i = text.indexOf('\\', v.start + 1);
  while (i !== -1 && i < v.end - 1) {
    const unicode = text.charCodeAt(i + 1) === 0x75;
    length -= unicode ? 5 : 1;
    i = text.indexOf('\\', i + (unicode ? 6 : 2));
  }
  return length;
}
