import type { TextChange } from '../common/languageService';

/** Characters compared at once: equal blocks are compared by the engine (a memory comparison), not per character. */
const block = 4096;

/**
 * Where two versions of a text differ: the smallest range outside of which they are equal (their common prefix and
 * suffix, not overlapping), or undefined when they are the same.
 */
export function changedRange(oldText: string, newText: string): TextChange | undefined {
  const shorter = Math.min(oldText.length, newText.length);
  let start = 0;
  while (start + block <= shorter && oldText.slice(start, start + block) === newText.slice(start, start + block)) start += block;
  while (start < shorter && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  if (start === oldText.length && start === newText.length) return undefined;
  let suffix = 0;
  const room = shorter - start;
  while (suffix + block <= room && sameBlock(oldText, newText, suffix)) suffix += block;
  while (suffix < room && oldText.charCodeAt(oldText.length - 1 - suffix) === newText.charCodeAt(newText.length - 1 - suffix)) suffix++;
  return { start, oldEnd: oldText.length - suffix, newEnd: newText.length - suffix };
}

function sameBlock(oldText: string, newText: string, suffix: number): boolean {
  return oldText.slice(oldText.length - suffix - block, oldText.length - suffix) === newText.slice(newText.length - suffix - block, newText.length - suffix);
}
