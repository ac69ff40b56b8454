import type { Position, Range, TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from './common/lineIndex';
import type { ParsedDocument } from './documentModels';

/**
 * The editor's document as the requests see it, converting positions with the parsed version's line index when it
 * has one (a big document read in slices). The editor's document computes its own line offsets a character at a
 * time on its first conversion, which made the first request on a 50 MB trace wait about half a second.
 */
export function documentView(document: TextDocument, parsed: ParsedDocument): TextDocument {
  const positions = parsed.positions;
  if (!(positions instanceof LineIndex) || positions.text !== document.getText()) return document;
  return {
    uri: document.uri,
    languageId: document.languageId,
    version: document.version,
    lineCount: positions.lineCount,
    getText: (range?: Range) => (range ? positions.text.substring(positions.offsetAt(range.start), positions.offsetAt(range.end)) : positions.text),
    positionAt: (offset: number) => positions.positionAt(offset),
    offsetAt: (position: Position) => positions.offsetAt(position),
    getLineRange: (line: number) => lineRange(positions, line),
    getEOLCharacters: (line: number) => (line + 1 < positions.lineCount ? '\n' : ''),
  };
}

function lineRange(positions: LineIndex, line: number): Range {
  const last = positions.lineCount - 1;
  const at = Math.max(0, Math.min(line, last));
  if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const start = positions.lineStart(at);
  const end = at < last ? positions.lineStart(at + 1) - 1 : positions.text.length;
  return { start: { line: at, character: 0 }, end: { line: at, character: end - start } };
}
