/** Offsets of line starts, for offset <-> line/character conversion without re-scanning the text. */
export class LineIndex {
  private readonly starts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    let i = text.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }

  /** Zero-based line and character of an offset. */
  positionAt(offset: number): { line: number; character: number } {
    offset = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo] };
  }

  /** The offset of a position; a character past the end of its line stops before the line break, as in the editor. */
  offsetAt(position: { line: number; character: number }): number {
    if (position.line >= this.starts.length) return this.text.length;
    const start = this.starts[Math.max(0, position.line)];
    const next = position.line + 1 < this.starts.length ? this.starts[position.line + 1] : this.text.length;
    let offset = Math.min(start + Math.max(0, position.character), next);
    while (offset > start && isLineBreak(this.text.charCodeAt(offset - 1))) offset--;
    return offset;
  }
}

function isLineBreak(code: number): boolean {
  return code === 10 || code === 13;
}
