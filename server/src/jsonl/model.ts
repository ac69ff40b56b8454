import { LineIndex } from '../common/lineIndex';
import { LruCache } from '../common/lru';
import type { DocumentInput } from '../common/languageService';
import { spend, type Budget } from '../common/budget';
import { parseJsonValue } from '../json/readJson';
import { classify, type FileFormat, type Line, type LinesModel } from './lines';

/** Enough for every line a request touches, and for an outline's walk not to keep a model per line. */
export const defaultCachedLineModels = 64;
export const defaultMaxLines = 250_000;
/** More entries than this make an outline nobody reads, and cost seconds to send (the editor asks on every edit). */
export const defaultMaxOutlineEntries = 10_000;

/**
 * A member's own reading of a line (valid JSON of a shape it knows, read in one pass with what it needs from the
 * whole tree); undefined leaves the line to the generic reader. The dispatcher hands it to the family's reading.
 */
export type LineReader = (text: string, number: number, start: number, valueStart: number, end: number, budget?: Budget) => Line | undefined;

/** `doc.budget` is checked between lines and inside each trace line: a spent budget throws BudgetExceeded. */
export function parseLines(doc: DocumentInput, readLine: LineReader): LinesModel {
  const text = doc.text;
  const maxLines = doc.maxLines ?? defaultMaxLines;
  const lines: Line[] = [];
  const first = doc.firstLine ?? 0;
  const next = readLines(text, 0, text.length + 1, first, first + maxLines, doc.budget, lines, readLine);
  // Counted, not read: a line past the limit costs no memory.
  let omittedLines = 0;
  if (next <= text.length) {
    let steps = 0;
    for (let i = next - 1; i !== -1; i = text.indexOf('\n', i + 1)) {
      steps = spend(doc.budget, steps);
      omittedLines++;
    }
  }
  return linesModel(doc, lines, omittedLines);
}

/** The model over lines already read (all of them, or up to the line limit). */
export function linesModel(doc: DocumentInput, lines: Line[], omittedLines: number): LinesModel {
  const text = doc.text;
  const contentLines = lines.filter((line) => line.kind !== 'blank');
  return {
    uri: doc.uri,
    version: doc.version,
    text,
    lines,
    contentLines,
    format: detectFormat(contentLines),
    // Its line starts are found when a feature first asks (diagnostics need none: the server converts offsets itself).
    lineIndex: new LineIndex(text),
    traceModels: new LruCache(doc.cachedLineModels ?? defaultCachedLineModels),
    omittedLines,
    maxLines: doc.maxLines ?? defaultMaxLines,
    maxOutlineEntries: doc.maxOutlineEntries ?? defaultMaxOutlineEntries,
  };
}

/**
 * Reads the lines starting at `start` (a line start) before `stop` (a line start, or text.length + 1 for the end of
 * the text), numbering them from `number`, at most until line number `maxLines`; appends them to `into` and returns
 * where reading stopped.
 */
export function readLines(
  text: string, start: number, stop: number, number: number, maxLines: number, budget: Budget | undefined, into: Line[], readLine: LineReader,
): number {
  let steps = 0;
  while (start < stop && number < maxLines) {
    steps = spend(budget, steps);
    let newline = text.indexOf('\n', start);
    if (newline === -1) newline = text.length;
    let end = newline;
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    into.push(parseLine(text, number, start, end, readLine, budget));
    start = newline + 1;
    number++;
  }
  return start;
}

export function parseLine(text: string, number: number, start: number, end: number, readLine: LineReader, budget?: Budget): Line {
  if (isBlank(text, start, end)) return { number, start, end, kind: 'blank', errors: [] };
  // A byte order mark may open the file.
  const valueStart = number === 0 && text.charCodeAt(start) === 0xfeff ? start + 1 : start;
  if (!opensWithCallKey(text, valueStart, end)) {
    const line = readLine(text, number, start, valueStart, end, budget);
    if (line) return line;
  }
  const { root, errors } = parseJsonValue(text, valueStart, end, budget);
  let kind = classify(root);
  // A broken line keeps a kind only when its partial value clearly shows one.
  if (errors.length > 0 && kind === 'other') kind = 'invalid';
  return { number, start, end, kind, root, errors };
}

/** True when the line is an object whose first key is written "call" (an agentguard TraceEntry). */
function opensWithCallKey(text: string, start: number, end: number): boolean {
  let i = start;
  while (i < end && isJsonSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 0x7b) return false;
  i++;
  while (i < end && isJsonSpace(text.charCodeAt(i))) i++;
  return text.startsWith('"call"', i);
}

/** JSON's whitespace: space, tab, carriage return, line feed. */
export function isJsonSpace(c: number): boolean {
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
    if (line.kind === 'record') return 'claude-code';
    if (line.kind === 'rollout') return 'codex';
    if (line.kind === 'agentguard') return 'agentguard';
    if (line.kind === 'raw' || line.kind === 'annotated' || line.kind === 'metadata') return 'dataset';
  }
  return 'dataset';
}
