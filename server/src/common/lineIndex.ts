/**
 * Offsets of line starts, for offset <-> line/character conversion without re-scanning the text. The starts are
 * found on the first conversion: a big trace with no diagnostics is checked without them.
 */
export class LineIndex {
  private found: number[] | undefined;

  constructor(readonly text: string) {}

  private get starts(): number[] {
    return (this.found ??= lineStarts(this.text));
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineStart(line: number): number {
    const starts = this.starts;
    return starts[Math.max(0, Math.min(line, starts.length - 1))];
  }

  /** Zero-based line and character of an offset. */
  positionAt(offset: number): { line: number; character: number } {
    return positionIn(this.starts, this.text.length, offset);
  }

  /** The offset of a position; a character past the end of its line stops before the line break, as in the editor. */
  offsetAt(position: { line: number; character: number }): number {
    const starts = this.starts;
    if (position.line >= starts.length) return this.text.length;
    const start = starts[Math.max(0, position.line)];
    const next = position.line + 1 < starts.length ? starts[position.line + 1] : this.text.length;
    let offset = Math.min(start + Math.max(0, position.character), next);
    while (offset > start && isLineBreak(this.text.charCodeAt(offset - 1))) offset--;
    return offset;
  }
}

export function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}

/**
 * Line starts alone, for offset to position conversion without keeping the text (a file read from disk whose
 * places are kept after its text is dropped).
 */
export class LineStarts {
  private readonly starts: number[];
  private readonly length: number;

  constructor(text: string) {
    this.starts = lineStarts(text);
    this.length = text.length;
  }

  positionAt(offset: number): { line: number; character: number } {
    return positionIn(this.starts, this.length, offset);
  }
}

/** Zero-based line and character of an offset in a text of `length` characters with these line starts. */
function positionIn(starts: readonly number[], length: number, offset: number): { line: number; character: number } {
  const at = Math.max(0, Math.min(offset, length));
  const line = lastAtOrBefore(starts, at);
  return { line, character: at - starts[line] };
}

/** The index of the last of these ascending offsets that is at or before `offset` (0 when none is). */
export function lastAtOrBefore(offsets: readonly number[], offset: number): number {
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Where lines of `text` start (plus `base`), after each \n; `first` adds the start of the text itself. */
export function lineStarts(text: string, base = 0, first = true): number[] {
  const starts = first ? [base] : [];
  let i = text.indexOf('\n');
  while (i !== -1) {
    starts.push(base + i + 1);
    i = text.indexOf('\n', i + 1);
  }
  return starts;
}
