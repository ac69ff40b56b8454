import { sourceOffsetInLiteral } from '../json/strings';
import { shorten } from '../common/text';
import type { JsonString } from '../json/nodes';

/**
 * Maps an offset in a string's decoded value to the source offset inside its JSON literal, stepping over
 * escapes (`\n`, `\"`, `\u00e9` each count as one decoded character).
 */
export function sourceOffsetInString(text: string, node: JsonString, decodedOffset: number): number {
  return sourceOffsetInLiteral(text, node.start, node.end, decodedOffset);
}

/** The source span of decoded characters [start, end) of a string literal. */
export function sourceSpanInString(text: string, node: JsonString, start: number, end: number): { start: number; end: number } {
  return { start: sourceOffsetInString(text, node, start), end: sourceOffsetInString(text, node, end) };
}

/** Decoded [start, end) of zero-based line `line` of a string (lines split at \n), or undefined past the last. */
export function lineBounds(value: string, line: number): { start: number; end: number } | undefined {
  let start = 0;
  for (let i = 0; i < line; i++) {
    const newline = value.indexOf('\n', start);
    if (newline === -1) return undefined;
    start = newline + 1;
  }
  const newline = value.indexOf('\n', start);
  return { start, end: newline === -1 ? value.length : newline };
}

export function countLines(value: string): number {
  let count = 1;
  let i = value.indexOf('\n');
  while (i !== -1) {
    count++;
    i = value.indexOf('\n', i + 1);
  }
  return count;
}

/** Shortens text for one-line display. */
export function clip(text: string, max: number): string {
  return shorten(text.replace(/\s+/g, ' ').trim(), max);
}
