import { parseJsonValue } from '../json/readJson';
import { property } from '../json/queries';
import { classify, type FileFormat } from './lines';

/**
 * Whether a `.jsonl` file is one of ours, from its content alone (its first non-blank line): an agentguard entry,
 * a dataset's metadata row, an object with "messages", or a list of trace events. For files the editor has not
 * given a language yet (`.jsonl` without `.trace`); undefined means "some other JSON Lines file".
 */
export function detectJsonLinesFormat(text: string): FileFormat | undefined {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (/[^\s\uFEFF]/.test(text.slice(start, end))) {
      const { root } = parseJsonValue(text, start, end);
      const kind = classify(root);
      if (kind === 'agentguard') return 'agentguard';
      if (kind === 'annotated' || kind === 'metadata') return 'dataset';
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
