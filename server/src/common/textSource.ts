/**
 * A document's text as the language services read it: a string, or an edited big document's chunks (ChunkedText),
 * which answer reads of a few characters without joining the whole text. Joining a 50 MB document after every edit
 * copies 100 MB and is what made each keystroke in it cost more than all of our own work.
 */
import { lastAtOrBefore } from './lineIndex';

export interface TextSource {
  readonly length: number;
  /** NaN outside the text, as for strings. */
  charCodeAt(index: number): number;
  /** '' outside the text, as for strings. */
  charAt(index: number): string;
  slice(start: number, end?: number): string;
  substring(start: number, end?: number): string;
  indexOf(search: string, position?: number): number;
  /** The whole text (a ChunkedText joins its chunks once). */
  toString(): string;
}

/**
 * An immutable text made of chunks: `starts[k]` is the offset of `chunks[k]`, chunks are not empty (but for the one
 * chunk of an empty text). Reads inside one chunk cost what they cost on a string; the chunk read last is tried first,
 * as readers mostly go forward.
 */
export class ChunkedText implements TextSource {
  private last = 0;

  constructor(private chunks: readonly string[], private starts: readonly number[], readonly length: number) {}

  charCodeAt(index: number): number {
    let k = this.last;
    const start = this.starts[k];
    if (index < start || index >= start + this.chunks[k].length) {
      if (index < 0 || index >= this.length) return NaN;
      k = this.last = this.chunkAt(index);
    }
    return this.chunks[k].charCodeAt(index - this.starts[k]);
  }

  charAt(index: number): string {
    return index >= 0 && index < this.length ? String.fromCharCode(this.charCodeAt(index)) : '';
  }

  slice(start: number, end: number = this.length): string {
    const from = start < 0 ? Math.max(this.length + start, 0) : Math.min(start, this.length);
    const to = end < 0 ? Math.max(this.length + end, 0) : Math.min(end, this.length);
    return this.range(from, to);
  }

  substring(start: number, end: number = this.length): string {
    const a = Math.min(Math.max(start || 0, 0), this.length);
    const b = Math.min(Math.max(end || 0, 0), this.length);
    return a <= b ? this.range(a, b) : this.range(b, a);
  }

  indexOf(search: string, position = 0): number {
    let from = Math.min(Math.max(position || 0, 0), this.length);
    if (search.length === 0) return from;
    const overlap = search.length - 1;
    for (let k = this.chunkAt(from); k < this.chunks.length; k++) {
      const start = this.starts[k];
      // The chunk and as much of what follows as a match starting in it can reach.
      const end = Math.min(start + this.chunks[k].length + overlap, this.length);
      const window = end > start + this.chunks[k].length ? this.range(start, end) : this.chunks[k];
      const found = window.indexOf(search, from - start);
      if (found !== -1) return start + found;
      from = start + this.chunks[k].length;
    }
    return -1;
  }

  toString(): string {
    if (this.chunks.length > 1) {
      // The chunks may be slices of an older text: once joined, one chunk of the joined text no longer keeps it alive.
      this.chunks = [this.chunks.join('')];
      this.starts = [0];
      this.last = 0;
    }
    return this.chunks[0];
  }

  private range(from: number, to: number): string {
    if (from >= to) return '';
    const first = this.chunkAt(from);
    const firstStart = this.starts[first];
    if (to <= firstStart + this.chunks[first].length) return this.chunks[first].substring(from - firstStart, to - firstStart);
    const parts = [this.chunks[first].substring(from - firstStart)];
    let k = first + 1;
    for (; this.starts[k] + this.chunks[k].length < to; k++) parts.push(this.chunks[k]);
    parts.push(this.chunks[k].substring(0, to - this.starts[k]));
    return parts.join('');
  }

  /** The chunk holding `offset` (the last chunk for the text's end). */
  private chunkAt(offset: number): number {
    return lastAtOrBefore(this.starts, offset);
  }
}
