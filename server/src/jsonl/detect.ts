import { parseJsonValue } from '../json/readJson';
import { property } from '../json/queries';
import type { JsonNode } from '../json/nodes';
import { classify, type FileFormat } from './lines';

/** A member's recognition of a file's first value, for formats the family's line kinds do not tell. */
export type FormatRecognizer = (first: JsonNode | undefined) => FileFormat | undefined;

/**
 * Whether a `.jsonl` file is one of ours, from its content alone (its first non-blank line): an agentguard entry,
 * a dataset's metadata row, an object with "messages", a list of trace events, or what a member recognises
 * (`recognizers`, handed by the dispatcher). For files the editor has not given a language yet (`.jsonl` without
 * `.trace`); undefined means "some other JSON Lines file".
 */
export function detectFormat(text: string, recognizers: readonly FormatRecognizer[]): FileFormat | undefined {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (/[^\s\uFEFF]/.test(text.slice(start, end))) {
      const { root } = parseJsonValue(text, start, end);
      const kind = classify(root);
      if (kind === 'agentguard') return 'agentguard';
      if (kind === 'annotated' || kind === 'metadata') return 'dataset';
      for (const recognize of recognizers) {
        const format = recognize(root);
        if (format) return format;
      }
      if (kind === 'raw' && root?.type === 'array') {
        const first = root.items[0];
        if (!first) return 'dataset';
        const looksLikeEvent = ['role', 'type', 'tools', 'metadata', 'content'].some((key) => property(first, key));
        return looksLikeEvent ? 'dataset' : undefined;
      }
      return undefined;
    }
    start = end + 1;
  }
  return undefined;
}
