import { escapeLength, indexOfWithin, type JsonString } from './json';

/**
 * Maps an offset in a string's decoded value to the source offset inside its JSON literal, stepping over
 * escapes (`\n`, `\"`, `\u00e9` each count as one decoded character).
 */
export function sourceOffsetInString(text: string, node: JsonString, decodedOffset: number): number {
  const contentStart = node.start + 1;
  const contentEnd = Math.max(contentStart, node.end - 1);
  const backslash = indexOfWithin(text, 0x5c, contentStart, contentEnd);
  if (backslash === -1) return Math.min(contentStart + decodedOffset, contentEnd);
  // Jump from backslash to backslash: the text between them maps one to one.
  let pos = contentStart;
  let decoded = 0;
  let next = backslash;
  while (next !== -1) {
    const plain = next - pos;
    if (decoded + plain >= decodedOffset) return pos + (decodedOffset - decoded);
    decoded += plain;
    pos = next;
    if (decoded === decodedOffset) return pos;
    pos += escapeLength(text, pos, contentEnd) || 1;
    decoded++;
    next = indexOfWithin(text, 0x5c, pos, contentEnd);
  }
  return Math.min(pos + (decodedOffset - decoded), contentEnd);
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
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
