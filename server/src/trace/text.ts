/** Short human-readable renderings of trace parts (labels, previews) computed from spans without full decoding. */
import type { TextSource } from '../common/textSource';
import { decodeString, field, type JsonValue, type ToolCall, type TraceEvent } from './model';
import { shorten } from '../common/text';
import { compactObject } from '../calls/labels';

/** A compact rendering of a call's arguments (object or JSON string). */
export function argumentsPreview(model: { text: TextSource }, call: ToolCall, max: number): string {
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
export function callLabel(model: { text: TextSource }, call: ToolCall, max: number): string {
  const name = call.name ?? '?';
  const args = argumentsPreview(model, call, Math.max(8, max - name.length - 2));
  return `${name}(${args})`;
}

/** The text of an event's content: strings decoded (up to max), chunks' texts joined, objects as JSON. */
export function contentText(model: { text: TextSource }, event: TraceEvent, max: number): { text: string; length: number } {
  const content = field(event.fields, 'content')?.value;
  return valueText(model, content, max);
}

export function valueText(model: { text: TextSource }, v: JsonValue | null | undefined, max: number): { text: string; length: number } {
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
