/**
 * The words of an Inspect message or tool output, for hovers, the outline and the preview: a string content, or its
 * parts (`text`, `reasoning` marked, `[image]` and the like for media). Inspect moves long strings out of the
 * messages into the sample's `attachments` and writes `attachment://<hash>` in their place: those are shown as the
 * text they stand for.
 */
import type { TextSource } from '../common/textSource';
import type { JsonNode } from '../json/nodes';
import { decodeJsonString } from '../json/strings';
import { propertyValue, stringValue } from '../json/queries';
import { compactObject } from '../calls/labels';

export interface ShownText {
  text: string;
  /** The whole text's length (the text may be cut). */
  length: number;
}

const attachmentPrefix = 'attachment://';

function literal(text: TextSource, node: JsonNode, max: number, attachments: JsonNode | undefined): ShownText {
  const value = decodeJsonString(text, node.start + 1, node.end - 1, Math.max(max, attachmentPrefix.length + 64));
  if (value.startsWith(attachmentPrefix)) {
    const held = propertyValue(attachments, value.slice(attachmentPrefix.length));
    if (held?.type === 'string') return literal(text, held, max, undefined);
  }
  const cut = value.length > max ? value.slice(0, max) : value;
  return { text: cut, length: cut.length < max ? cut.length : node.end - node.start - 2 };
}

/** The text of a `content` value: a string, or its parts joined; at most max characters each. */
export function contentText(text: TextSource, content: JsonNode | undefined, max: number, attachments?: JsonNode): ShownText {
  if (!content) return { text: '', length: 0 };
  if (content.type === 'string') return literal(text, content, max, attachments);
  if (content.type !== 'array') return { text: '', length: 0 };
  const parts: ShownText[] = [];
  for (const part of content.items) {
    const type = stringValue(propertyValue(part, 'type'));
    if (type === 'text' || type === 'reasoning') {
      const value = propertyValue(part, type);
      if (value?.type !== 'string') continue;
      const shown = literal(text, value, max, attachments);
      parts.push(type === 'reasoning' ? { text: `(reasoning) ${shown.text}`, length: shown.length + 12 } : shown);
    } else if (type !== undefined) {
      const label = `[${type}]`;
      parts.push({ text: label, length: label.length });
    }
  }
  const joined = parts.map((part) => part.text).join('\n\n');
  return { text: joined.length > max ? joined.slice(0, max) : joined, length: parts.reduce((sum, part) => sum + part.length, 0) + Math.max(0, parts.length - 1) * 2 };
}

/** `bash(cmd="ls")`: a call as its tool and its arguments, at most max characters. */
export function callText(text: TextSource, name: string | undefined, args: JsonNode | undefined, max: number): string {
  const tool = name ?? '?';
  const room = Math.max(8, max - tool.length - 2);
  const shown = args ? compactObject(text.slice(args.start, Math.min(args.end, args.start + room * 8)), room) : '';
  return `${tool}(${shown})`;
}

/** One line of at most max characters, whitespace collapsed. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
