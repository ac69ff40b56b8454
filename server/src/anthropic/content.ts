/** The text of Anthropic content: a tool_result's `content` (a string, or blocks), for hovers and the preview. */
import { compactObject } from '../calls/labels';
import { decodeJsonString } from '../json/strings';
import { parseJsonValue } from '../json/readJson';
import { property } from '../json/queries';
import type { Span } from '../common/types';
import type { TextSource } from '../common/textSource';

/** `get_weather(location="Paris")`: a tool call as its tool and its `input` (the span of its value), at most max characters. */
export function toolCallLabel(text: TextSource, name: string | undefined, input: Span | undefined, max: number): string {
  const tool = name ?? '?';
  const room = Math.max(8, max - tool.length - 2);
  const args = input ? compactObject(text.slice(input.start, Math.min(input.end, input.start + room * 8)), room) : '';
  return `${tool}(${args})`;
}

/** The text of a tool_result's content: a string decoded, or its text blocks joined (`[image]` for images). */
export function resultText(text: TextSource, content: Span | undefined, max: number): { text: string; length: number } {
  if (!content) return { text: '', length: 0 };
  if (text.charCodeAt(content.start) === 0x22) {
    const decoded = decodeJsonString(text, content.start + 1, content.end - 1, max);
    return { text: decoded, length: decoded.length < max ? decoded.length : content.end - content.start - 2 };
  }
  const { root } = parseJsonValue(text.toString(), content.start, content.end);
  if (root?.type !== 'array') return { text: text.slice(content.start, Math.min(content.end, content.start + max)), length: content.end - content.start };
  const parts: string[] = [];
  let length = 0;
  for (const item of root.items) {
    const type = property(item, 'type')?.value;
    const kind = type?.type === 'string' ? type.value : '';
    const value = property(item, 'text')?.value;
    const part = kind === 'text' && value?.type === 'string' ? value.value : kind === 'image' ? '[image]' : kind ? `[${kind}]` : '';
    parts.push(part);
    length += part.length + 1;
  }
  const joined = parts.join('\n');
  return { text: joined.length > max ? joined.slice(0, max) : joined, length: Math.max(0, length - 1) };
}
