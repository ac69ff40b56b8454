import { LineIndex } from '../common/lineIndex';
import { LruCache } from '../common/lru';
import type { DocumentInput } from '../common/service';
import { parseJsonValue } from '../json/readJson';
import { parseDatasetLine } from '../dataset/parseLine';
import { classify, type FileFormat, type Line, type LinesModel } from './lines';

/** Enough for every line a request touches, and for an outline's walk not to keep a model per line. */
const keptTraceModels = 64;
export const defaultMaxLines = 250_000;

export function parseLines(doc: DocumentInput): LinesModel {
  const text = doc.text;
  const lines: Line[] = [];
  const contentLines: Line[] = [];
  let start = 0;
  let number = 0;
  const maxLines = doc.maxLines ?? defaultMaxLines;
  while (start <= text.length && number < maxLines) {
    let newline = text.indexOf('\n', start);
    if (newline === -1) newline = text.length;
    let end = newline;
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    const line = parseLine(text, number, start, end);
    lines.push(line);
    if (line.kind !== 'blank') contentLines.push(line);
    start = newline + 1;
    number++;
  }
  // Counted, not read: a line past the limit costs no memory.
  let omittedLines = 0;
  if (start <= text.length) {
    for (let i = start - 1; i !== -1; i = text.indexOf('\n', i + 1)) omittedLines++;
  }
  // Diagnostics need no line index (the server converts offsets with its own): it is built when a feature asks.
  let lineIndex: LineIndex | undefined;
  return {
    uri: doc.uri,
    version: doc.version,
    text,
    lines,
    contentLines,
    format: detectFormat(contentLines),
    get lineIndex() {
      return (lineIndex ??= new LineIndex(text));
    },
    traceModels: new LruCache(keptTraceModels),
    omittedLines,
    maxLines,
  };
}

function parseLine(text: string, number: number, start: number, end: number): Line {
  if (isBlank(text, start, end)) return { number, start, end, kind: 'blank', errors: [] };
  // A byte order mark may open the file.
  const valueStart = number === 0 && text.charCodeAt(start) === 0xfeff ? start + 1 : start;
  if (!opensWithCallKey(text, valueStart, end)) {
    const line = parseDatasetLine(text, number, start, valueStart, end);
    if (line) return line;
  }
  const { root, errors } = parseJsonValue(text, valueStart, end);
  let kind = classify(root);
  // A broken line keeps a kind only when its partial value clearly shows one.
  if (errors.length > 0 && kind === 'other') kind = 'invalid';
  return { number, start, end, kind, root, errors };
}

/** True when the line is an object whose first key is written "call" (an agentguard TraceEntry). */
function opensWithCallKey(text: string, start: number, end: number): boolean {
  let i = start;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 0x7b) return false;
  i++;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  return text.startsWith('"call"', i);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0xfeff) return false;
  }
  return true;
}

/** Content decides: the first line of a recognisable kind names the format. */
function detectFormat(contentLines: Line[]): FileFormat {
  for (const line of contentLines) {
    if (line.kind === 'agentguard') return 'agentguard';
    if (line.kind === 'raw' || line.kind === 'annotated' || line.kind === 'metadata') return 'dataset';
  }
  return 'dataset';
}
