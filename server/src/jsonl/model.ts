import { LineIndex } from '../common/lineIndex';
import { LruCache } from '../common/lru';
import type { DocumentInput } from '../common/service';
import { defaultSettings, type ServiceContext } from '../common/service';
import type { Problem } from '../common/types';
import { parseTrace } from '../trace/model';
import { collectProblems } from '../trace/validate';
import { primeAnnotations, type LineAnnotations } from '../dataset/annotations';
import { parseJsonValue, property, type JsonNode, type JsonSyntaxError } from '../json/tree';
import { lineNodeOfTraceValue, nodeOfTraceValue } from '../dataset/traceTree';

/**
 * What a line holds. Datasets (Invariant Explorer): `metadata` row, `raw` event array, `annotated`
 * object with `messages`. agentguard logs: `agentguard` TraceEntry. `other`: valid JSON of neither shape.
 */
export type LineKind = 'blank' | 'invalid' | 'metadata' | 'raw' | 'annotated' | 'agentguard' | 'other';

export type FileFormat = 'dataset' | 'agentguard';

export interface Line {
  /** Zero-based line number in the document. */
  number: number;
  /** Offsets of the line's text, without its line break. */
  start: number;
  end: number;
  kind: LineKind;
  /** The parsed value; partial when the line has syntax errors. */
  root?: JsonNode;
  errors: JsonSyntaxError[];
  /**
   * For a trace line without syntax errors: every problem the single-trace service finds in it (unknown-key hints
   * included), found while the line's one parse was at hand.
   */
  traceProblems?: Problem[];
  /** The annotations of an annotated line with their addresses resolved (see annotationsOf), once read. */
  annotations?: LineAnnotations;
}

export interface LinesModel {
  uri: string;
  version: number;
  text: string;
  lines: Line[];
  /** Lines that are not blank, in order. */
  contentLines: Line[];
  format: FileFormat;
  /** Built on first use. */
  readonly lineIndex: LineIndex;
  /** Per-line models of the single-trace service, built on first use (keyed by line number), the latest few kept. */
  traceModels: LruCache<number, unknown>;
  /** Lines past the line limit (DocumentInput.maxLines), not read; 0 when the whole file was read. */
  omittedLines: number;
  maxLines: number;
}

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

/** Trace problems are found once, all of them; validate leaves out the unknown-key hints when they are off. */
const checkEverything: ServiceContext = { settings: { ...defaultSettings, unknownKeyHints: true } };

/**
 * A dataset line is parsed once, by the trace parser, and everything that needs its whole tree is done while the
 * tree is at hand: the line's kind, the trace checks, the annotation addresses. The line then keeps a light tree
 * (containers below the second level are read again only when a feature visits them), so a large dataset costs
 * little memory and its trace models are collected young. Undefined for a broken (or absurdly deep) line: the
 * JSON Lines parser reads it, for its messages and partial tree.
 */
function parseDatasetLine(text: string, number: number, start: number, valueStart: number, end: number): Line | undefined {
  const trace = parseTrace(text, valueStart, end);
  // The JSON Lines parser reads nesting recursively: it reports what is too deep for it to read.
  if (trace.syntaxErrors.length > 0 || !trace.root || trace.depth > maxTraceDepth) return undefined;
  const whole = nodeOfTraceValue(text, trace.root);
  const kind = classify(whole);
  const line: Line = { number, start, end, kind, root: lineNodeOfTraceValue(text, trace.root), errors: [] };
  if (kind === 'raw' || kind === 'annotated') line.traceProblems = collectProblems(trace, checkEverything);
  if (kind === 'annotated') primeAnnotations(text, line, whole);
  return line;
}

/** Deeper lines go through the JSON Lines parser too, which says when they are too deep for it to read. */
const maxTraceDepth = 1000;

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

export function classify(root: JsonNode | undefined): LineKind {
  if (!root) return 'invalid';
  if (root.type === 'array') return 'raw';
  if (root.type !== 'object') return 'other';
  const first = root.properties[0];
  if (first?.key === 'call' && property(first.value, 'call_id')) return 'agentguard';
  if (property(root, 'messages')) return 'annotated';
  if (property(root, 'metadata')) return 'metadata';
  return 'other';
}

/** Content decides: the first line of a recognisable kind names the format. */
function detectFormat(contentLines: Line[]): FileFormat {
  for (const line of contentLines) {
    if (line.kind === 'agentguard') return 'agentguard';
    if (line.kind === 'raw' || line.kind === 'annotated' || line.kind === 'metadata') return 'dataset';
  }
  return 'dataset';
}

/** The line holding offset (a line break belongs to the line it ends). */
export function lineAt(model: LinesModel, offset: number): Line | undefined {
  const lines = model.lines;
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid].start <= offset) lo = mid;
    else hi = mid - 1;
  }
  const line = lines[lo];
  return line && offset >= line.start && offset <= line.end ? line : undefined;
}

/** Traces of a dataset: raw and annotated lines. */
export function traceLines(model: LinesModel): Line[] {
  return model.contentLines.filter((line) => line.kind === 'raw' || line.kind === 'annotated');
}
