import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { lineStarts } from './common/lineIndex';

const LF = 10;
const CR = 13;

const isLineBreak = (code: number) => code === LF || code === CR;

/**
 * The editor's document as the server keeps it. It answers as vscode-languageserver-textdocument's documents do
 * (UTF-16 positions; lines end at \n, \r\n or \r; a position past its line's end, or inside a \r\n, stops before
 * the break; edits update the line starts in place), but finds the line starts of a whole text with indexOf, which
 * the engine runs as a memory scan: that library reads them a character at a time, about 100 ms for a 50 MB trace
 * on the first edit or position conversion of each big document.
 */
export class EditorDocument implements TextDocument {
  private starts: number[] | undefined;

  private constructor(readonly uri: string, readonly languageId: string, private current: number, private content: string) {}

  static create(uri: string, languageId: string, version: number, content: string): EditorDocument {
    return new EditorDocument(uri, languageId, version, content);
  }

  /** Applies the editor's changes in order, as TextDocument.update does, and returns the same document. */
  static update(document: EditorDocument, changes: TextDocumentContentChangeEvent[], version: number): EditorDocument {
    for (const change of changes) {
      if ('range' in change) document.replace(change.range, change.text);
      else {
        document.content = change.text;
        document.starts = undefined;
      }
    }
    document.current = version;
    return document;
  }

  get version(): number {
    return this.current;
  }

  get lineCount(): number {
    return this.lineStarts().length;
  }

  getText(range?: Range): string {
    if (!range) return this.content;
    return this.content.substring(this.offsetAt(range.start), this.offsetAt(range.end));
  }

  positionAt(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.content.length));
    const starts = this.lineStarts();
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (starts[middle] > at) high = middle;
      else low = middle + 1;
    }
    const line = low - 1;
    return { line, character: this.beforeBreak(at, starts[line]) - starts[line] };
  }

  offsetAt(position: Position): number {
    const starts = this.lineStarts();
    if (position.line >= starts.length) return this.content.length;
    if (position.line < 0) return 0;
    const start = starts[position.line];
    if (position.character <= 0) return start;
    const next = position.line + 1 < starts.length ? starts[position.line + 1] : this.content.length;
    return this.beforeBreak(Math.min(start + position.character, next), start);
  }

  getLineRange(line: number): Range {
    const starts = this.lineStarts();
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.content.length - starts[last] } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const start = starts[line];
    const next = line + 1 < starts.length ? starts[line + 1] : this.content.length;
    return { start: { line, character: 0 }, end: { line, character: this.beforeBreak(next, start) - start } };
  }

  getEOLCharacters(line: number): string {
    const starts = this.lineStarts();
    if (line < 0 || line >= starts.length) return '';
    const next = line + 1 < starts.length ? starts[line + 1] : this.content.length;
    return this.content.substring(this.beforeBreak(next, starts[line]), next);
  }

  private beforeBreak(offset: number, lineStart: number): number {
    while (offset > lineStart && isLineBreak(this.content.charCodeAt(offset - 1))) offset--;
    return offset;
  }

  private lineStarts(): number[] {
    return (this.starts ??= lineStartsOf(this.content, 0, true));
  }

  private replace(range: Range, text: string): void {
    const [from, to] = isBefore(range.end, range.start) ? [range.end, range.start] : [range.start, range.end];
    const start = this.offsetAt(from);
    const end = this.offsetAt(to);
    const content = this.content.substring(0, start) + text + this.content.substring(end);
    this.content = content;
    const insertedEnd = start + text.length;
    const starts = this.starts;
    // A \r\n made across an edit's edge is one break where the line starts counted two: count them all again.
    const pairAtEdge = (at: number) => content.charCodeAt(at - 1) === CR && content.charCodeAt(at) === LF;
    if (!starts || pairAtEdge(start) || pairAtEdge(insertedEnd)) {
      this.starts = undefined;
      return;
    }
    const firstLine = Math.max(from.line, 0);
    const lastLine = Math.max(to.line, 0);
    const added = lineStartsOf(text, start, false);
    const updated = added.length === lastLine - firstLine ? starts : starts.slice(0, firstLine + 1).concat(added, starts.slice(lastLine + 1));
    if (updated === starts) for (let i = 0; i < added.length; i++) starts[firstLine + 1 + i] = added[i];
    const shift = text.length - (end - start);
    if (shift !== 0) for (let i = firstLine + 1 + added.length; i < updated.length; i++) updated[i] += shift;
    this.starts = updated;
  }
}

function isBefore(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/** The offsets (plus `base`) where lines of `text` start, after each \n, \r\n or \r; `first` adds the start of the text. */
function lineStartsOf(text: string, base: number, first: boolean): number[] {
  if (text.indexOf('\r') === -1) return lineStarts(text, base, first);
  const starts = first ? [base] : [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === CR && text.charCodeAt(i + 1) === LF) i++;
    else if (code !== CR && code !== LF) continue;
    starts.push(base + i + 1);
  }
  return starts;
}
