import type { Position, Range, TextDocument, TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';
import { isLineBreak, lastAtOrBefore, lineStarts } from '../common/lineIndex';
import { ChunkedText, type TextSource } from '../common/textSource';

const LF = 10;
const CR = 13;

/** Characters per chunk of an edited document: an edit copies the chunk it falls in, not the whole text. */
const defaultChunkLength = 1 << 16;

/**
 * The editor's document as the server keeps it. It answers as vscode-languageserver-textdocument's documents do
 * (UTF-16 positions; lines end at \n, \r\n or \r; a position past its line's end, or inside a \r\n, stops before
 * the break; edits update the line starts in place), but
 * - finds the line starts of a whole text with indexOf, which the engine runs as a memory scan (that library reads
 *   them a character at a time, about 100 ms for a 50 MB trace);
 * - keeps an edited text in chunks (see ChunkedText), joined only when the whole text is asked for: that library
 *   joins it on every edit, 100 MB copied per keystroke in a 50 MB trace.
 */
export class EditorDocument implements TextDocument {
  private lines: number[] | undefined;
  /** The text as opened or last joined, while no edit has come since. */
  private whole: string | undefined;
  private chunks: string[] = [];
  private chunkStarts: number[] = [];
  private snapshot: ChunkedText | undefined;
  private size = 0;

  private constructor(
    readonly uri: string, readonly languageId: string, private current: number, content: string, private readonly chunkLength: number,
  ) {
    this.setWhole(content);
  }

  /** `chunkLength`: smaller chunks let tests cross chunk edges with small texts. */
  static create(uri: string, languageId: string, version: number, content: string, chunkLength = defaultChunkLength): EditorDocument {
    return new EditorDocument(uri, languageId, version, content, Math.max(1, chunkLength));
  }

  /** Applies the editor's changes in order, as TextDocument.update does, and returns the same document. */
  static update(document: EditorDocument, changes: TextDocumentContentChangeEvent[], version: number): EditorDocument {
    for (const change of changes) {
      if ('range' in change) document.replace(change.range, change.text);
      else {
        document.setWhole(change.text);
        document.lines = undefined;
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

  /** The text's length, without joining an edited text. */
  get length(): number {
    return this.size;
  }

  /** The text to read: a string, or for an edited text its chunks (an immutable snapshot of this version). */
  source(): TextSource {
    if (this.whole !== undefined) return this.whole;
    return (this.snapshot ??= new ChunkedText(this.chunks, this.chunkStarts, this.size));
  }

  getText(range?: Range): string {
    if (range) return this.source().substring(this.offsetAt(range.start), this.offsetAt(range.end));
    if (this.whole === undefined) {
      const joined = this.source().toString();
      // Chunks of the joined text let go of the pieces they replace, and the next edit is as cheap as ever.
      this.setWhole(joined);
    }
    return this.whole!;
  }

  positionAt(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.size));
    const starts = this.lineStarts();
    const line = lastAtOrBefore(starts, at);
    return { line, character: this.beforeBreak(at, starts[line]) - starts[line] };
  }

  offsetAt(position: Position): number {
    const starts = this.lineStarts();
    if (position.line >= starts.length) return this.size;
    if (position.line < 0) return 0;
    const start = starts[position.line];
    if (position.character <= 0) return start;
    const next = position.line + 1 < starts.length ? starts[position.line + 1] : this.size;
    return this.beforeBreak(Math.min(start + position.character, next), start);
  }

  getLineRange(line: number): Range {
    const starts = this.lineStarts();
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.size - starts[last] } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const start = starts[line];
    const next = line + 1 < starts.length ? starts[line + 1] : this.size;
    return { start: { line, character: 0 }, end: { line, character: this.beforeBreak(next, start) - start } };
  }

  getEOLCharacters(line: number): string {
    const starts = this.lineStarts();
    if (line < 0 || line >= starts.length) return '';
    const next = line + 1 < starts.length ? starts[line + 1] : this.size;
    return this.source().substring(this.beforeBreak(next, starts[line]), next);
  }

  private beforeBreak(offset: number, lineStart: number): number {
    const text = this.source();
    while (offset > lineStart && isLineBreak(text.charCodeAt(offset - 1))) offset--;
    return offset;
  }

  private lineStarts(): number[] {
    return (this.lines ??= lineStartsOf(this.getText(), 0, true));
  }

  private setWhole(content: string): void {
    this.whole = content;
    this.size = content.length;
    this.snapshot = undefined;
    this.chunks = [];
    this.chunkStarts = [];
    // Slices of a flat string share its characters: chunking costs no copy.
    for (let at = 0; at < content.length || at === 0; at += this.chunkLength) {
      this.chunks.push(content.slice(at, at + this.chunkLength));
      this.chunkStarts.push(at);
    }
  }

  /** Replaces text[start, end) by `text` in the chunks, copying only the chunks the edit touches. */
  private replaceInChunks(start: number, end: number, text: string): void {
    // The chunks holding the edit's ends (the last chunk for the text's end).
    const first = lastAtOrBefore(this.chunkStarts, start);
    const last = lastAtOrBefore(this.chunkStarts, end);
    const joined = this.chunks[first].substring(0, start - this.chunkStarts[first]) + text + this.chunks[last].substring(end - this.chunkStarts[last]);
    const pieces: string[] = [];
    if (joined.length <= 2 * this.chunkLength) pieces.push(joined);
    else for (let at = 0; at < joined.length; at += this.chunkLength) pieces.push(joined.slice(at, at + this.chunkLength));
    // A new array per version: the snapshot of the version before (held by its model) stays as it was.
    const chunks = this.chunks.slice(0, first).concat(pieces.filter((piece) => piece.length > 0), this.chunks.slice(last + 1));
    if (chunks.length === 0) chunks.push('');
    const starts = this.chunkStarts.slice(0, first);
    let at = first === 0 ? 0 : this.chunkStarts[first - 1] + this.chunks[first - 1].length;
    for (let k = first; k < chunks.length; k++) {
      starts.push(at);
      at += chunks[k].length;
    }
    this.chunks = chunks;
    this.chunkStarts = starts;
    this.size = at;
    this.whole = chunks.length === 1 ? chunks[0] : undefined;
    this.snapshot = undefined;
  }

  private replace(range: Range, text: string): void {
    const [from, to] = isBefore(range.end, range.start) ? [range.end, range.start] : [range.start, range.end];
    const start = this.offsetAt(from);
    const end = this.offsetAt(to);
    this.replaceInChunks(start, end, text);
    const content = this.source();
    const insertedEnd = start + text.length;
    const starts = this.lines;
    // A \r\n made across an edit's edge is one break where the line starts counted two: count them all again.
    const pairAtEdge = (at: number) => content.charCodeAt(at - 1) === CR && content.charCodeAt(at) === LF;
    if (!starts || pairAtEdge(start) || pairAtEdge(insertedEnd)) {
      this.lines = undefined;
      return;
    }
    const firstLine = Math.max(from.line, 0);
    const lastLine = Math.max(to.line, 0);
    const added = lineStartsOf(text, start, false);
    const updated = added.length === lastLine - firstLine ? starts : starts.slice(0, firstLine + 1).concat(added, starts.slice(lastLine + 1));
    if (updated === starts) for (let i = 0; i < added.length; i++) starts[firstLine + 1 + i] = added[i];
    const shift = text.length - (end - start);
    if (shift !== 0) for (let i = firstLine + 1 + added.length; i < updated.length; i++) updated[i] += shift;
    this.lines = updated;
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
