import type { Problem } from '../common/types';
import { detectJsonLinesFormat, type Line, type LineKind, type LinesModel } from '../jsonl';
import { linesModel, parseLine, parseLines, type LineReader } from '../jsonl/model';
import { readCleanDatasetLine } from '../jsonl/dataset/cleanLine';
import { parseDatasetLine } from '../jsonl/dataset/parseLine';
import { isTraceLine } from '../jsonl/dataset/traceBridge';
import { lazyContainer } from '../json/validReader';

/**
 * A streamed dataset is checked in two steps per chunk of lines. The first, which any worker can take, reads each
 * line and finds the problems of the line alone (its syntax, its trace's checks, its annotations): most lines with
 * JSON.parse and a check of the value (cleanLine.ts), the others with the positioned reader. The second, in the
 * file's order, puts the chunk's model together from what the first found and runs the checks between lines (one
 * metadata row, one kind of trace, unique indexes) with what the chunks before left (DatasetCarry): the service's
 * validate, as for a document. Either way the problems are the positioned reading's, on the same characters.
 */

/** What the first step found in a chunk's lines (plain data, posted back by a worker). */
export type ReadChunk =
  /** Not read as a dataset's lines (its first line looks like a session or rollout): the second step reads it whole. */
  | { whole: true }
  | { whole: false; lines: ReadLine[] };

export type ReadLine = ValidLine | { number: number; start: number; end: number; again: true };

/** A line whose JSON is valid: what the checks between lines need, and the problems of the line alone. */
interface ValidLine {
  number: number;
  start: number;
  end: number;
  kind: LineKind;
  rootStart: number;
  rootEnd: number;
  isObject: boolean;
  traceProblems?: Problem[];
  annotationProblems?: Problem[];
}

/** Reads the chunk's lines first with JSON.parse, then (those it cannot vouch for) with the positioned reader. */
const fastReader: LineReader = (text, number, start, valueStart, end, budget) =>
  readCleanDatasetLine(text, number, start, valueStart, end) ?? parseDatasetLine(text, number, start, valueStart, end, budget);

/** The first step: `text` holds whole lines, the first numbered `firstLine` (1-based). */
export function readChunk(text: string, firstLine: number): ReadChunk {
  const format = detectJsonLinesFormat(text);
  if (format === 'claude-code' || format === 'codex') return { whole: true };
  const model = parseLines({ uri: '', version: 0, text, firstLine: firstLine - 1, maxLines: Number.MAX_SAFE_INTEGER }, fastReader);
  return { whole: false, lines: model.contentLines.map(readLine) };
}

/**
 * A broken line, a line whose value is no object or array, and a line too deep for the trace reader are read again
 * in the second step, as they would be read in one document (their partial trees are not sent).
 */
function readLine(line: Line): ReadLine {
  const { number, start, end, root } = line;
  if (line.errors.length > 0 || !root || (root.type !== 'object' && root.type !== 'array') || (isTraceLine(line) && !line.traceProblems)) {
    return { number, start, end, again: true };
  }
  return {
    number, start, end, kind: line.kind, rootStart: root.start, rootEnd: root.end, isObject: root.type === 'object',
    ...(line.traceProblems ? { traceProblems: line.traceProblems } : {}),
    ...(line.annotationProblems ? { annotationProblems: line.annotationProblems } : {}),
  };
}

/**
 * The second step's model of the chunk (the same text as the first step read), or undefined when the chunk is to be
 * read whole as a document: its lines are not a dataset's.
 */
export function chunkModel(uri: string, text: string, firstLine: number, read: ReadChunk): LinesModel | undefined {
  if (read.whole) return undefined;
  const lines = read.lines.map((line): Line => ('again' in line
    ? parseLine(text, line.number, line.start, line.end, parseDatasetLine)
    : {
      number: line.number, start: line.start, end: line.end, kind: line.kind, errors: [],
      root: lazyContainer(text, line.rootStart, line.rootEnd, line.isObject),
      ...(line.traceProblems ? { traceProblems: line.traceProblems } : {}),
      ...(line.annotationProblems ? { annotationProblems: line.annotationProblems } : {}),
    }));
  const model = linesModel({ uri, version: 0, text, firstLine: firstLine - 1, maxLines: Number.MAX_SAFE_INTEGER }, lines, 0);
  return model.format === 'dataset' ? model : undefined;
}
