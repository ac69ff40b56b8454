import type { Problem } from '../common/types';
import { detectJsonLinesFormat, type Line, type LineKind, type LinesModel } from '../jsonl';
import { linesModel, parseLine, parseLines } from '../jsonl/model';
import { parseDatasetLine } from '../jsonl/dataset/parseLine';
import { readDatasetLine } from '../jsonl/dataset/readLine';
import { isTraceLine } from '../jsonl/dataset/traceBridge';
import { lazyContainer } from '../json/validReader';
import { property } from '../json/queries';
import type { Findable, JsonArray, JsonNode, JsonObject, JsonProperty } from '../json/nodes';
import { LineIndex } from '../common/lineIndex';

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
  /** An annotated line's "index" when it is a number, null when it has none: the duplicate check needs no text then. */
  index?: JsonProperty | null;
}

/** The first step: `text` holds whole lines, the first numbered `firstLine` (1-based). */
export function readChunk(text: string, firstLine: number): ReadChunk {
  const format = detectJsonLinesFormat(text);
  if (format === 'claude-code' || format === 'codex') return { whole: true };
  const model = parseLines({ uri: '', version: 0, text, firstLine: firstLine - 1, maxLines: Number.MAX_SAFE_INTEGER }, readDatasetLine);
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
    ...(line.kind === 'annotated' ? indexOf(root) : {}),
  };
}

function indexOf(root: JsonNode): { index?: JsonProperty | null } {
  const index = property(root, 'index');
  if (!index) return { index: null };
  const value = index.value;
  if (value?.type !== 'number') return {};
  return { index: { key: index.key, keyStart: index.keyStart, keyEnd: index.keyEnd, start: index.start, end: index.end, value: { type: 'number', start: value.start, end: value.end, raw: value.raw } } };
}

/**
 * The second step's model of the chunk, or undefined when the chunk is to be read whole as a document: its lines are
 * not a dataset's. `text` gives the text the first step read, decoded only when a check visits a line's node beyond
 * what the first step sent (a problem to place, a metadata row, a line to read again): on a dataset without problems
 * between lines, never.
 */
export function chunkModel(uri: string, text: () => string, firstLine: number, read: ReadChunk): LinesModel | undefined {
  if (read.whole) return undefined;
  const lines = read.lines.map((line): Line => ('again' in line
    ? parseLine(text(), line.number, line.start, line.end, parseDatasetLine)
    : {
      number: line.number, start: line.start, end: line.end, kind: line.kind, errors: [],
      root: new SentRoot(text, line) as unknown as JsonObject,
      ...(line.traceProblems ? { traceProblems: line.traceProblems } : {}),
      ...(line.annotationProblems ? { annotationProblems: line.annotationProblems } : {}),
    }));
  const model = linesModel({ uri, version: 0, text: '', firstLine: firstLine - 1, maxLines: Number.MAX_SAFE_INTEGER }, lines, 0);
  if (model.format !== 'dataset') return undefined;
  let index: LineIndex | undefined;
  Object.defineProperties(model, {
    text: { get: text },
    lineIndex: { get: () => (index ??= new LineIndex(text())) },
  });
  return model;
}

/** A valid line's root as the first step sent it: its "index" known, the rest read from the text when visited. */
class SentRoot implements Findable {
  readonly type: 'object' | 'array';
  readonly start: number;
  readonly end: number;
  private read: JsonObject | JsonArray | undefined;

  constructor(private readonly text: () => string, private readonly line: ValidLine) {
    this.type = line.isObject ? 'object' : 'array';
    this.start = line.rootStart;
    this.end = line.rootEnd;
  }

  find(key: string): JsonProperty | undefined {
    if (key === 'index' && this.line.index !== undefined) return this.line.index ?? undefined;
    return property(this.node(), key);
  }

  get properties(): JsonProperty[] {
    return (this.node() as JsonObject).properties;
  }

  get items(): JsonNode[] {
    return (this.node() as JsonArray).items;
  }

  private node(): JsonObject | JsonArray {
    return (this.read ??= lazyContainer(this.text(), this.start, this.end, this.line.isObject));
  }
}
