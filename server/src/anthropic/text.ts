/** The words of a message, for the outline and the preview: a string content, or its text blocks. */
import { decodeJsonString } from '../json/strings';
import { propertyValue, stringValue } from '../json/queries';
import type { TextSource } from '../common/textSource';
import type { JsonNode } from '../json/nodes';
import type { MessageStep } from './types';

export interface MessageText {
  text: string;
  /** The whole text's length (the text may be cut). */
  length: number;
}

function decoded(text: TextSource, node: JsonNode, max: number): MessageText {
  const value = decodeJsonString(text, node.start + 1, node.end - 1, max);
  return { text: value, length: value.length < max ? value.length : node.end - node.start - 2 };
}

/** The text of a message: a string content, else its text (and thinking, marked) blocks joined; at most max characters each. */
export function messageText(text: TextSource, step: MessageStep, max: number): MessageText {
  const content = step.content;
  if (content?.type === 'string') return decoded(text, content, max);
  const parts: MessageText[] = [];
  for (const block of step.blocks) {
    const type = stringValue(propertyValue(block, 'type'));
    if (type !== 'text' && type !== 'thinking') continue;
    const value = propertyValue(block, type);
    if (value?.type !== 'string') continue;
    const part = decoded(text, value, max);
    parts.push(type === 'thinking' ? { text: `(thinking) ${part.text}`, length: part.length + 11 } : part);
  }
  return { text: parts.map((part) => part.text).join('\n\n'), length: parts.reduce((sum, part) => sum + part.length, 0) + Math.max(0, parts.length - 1) * 2 };
}

/** Whether a user message says something (a prompt), rather than only answering calls. */
export function isPrompt(step: MessageStep): boolean {
  if (step.role !== 'user') return false;
  if (step.content?.type === 'string') return true;
  return step.blocks.some((block) => {
    const type = stringValue(propertyValue(block, 'type'));
    return type === 'text' || type === 'image' || type === 'document';
  });
}

/** One line of at most max characters, whitespace collapsed. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
