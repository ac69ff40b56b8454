import type { LineReader } from '../model';
import { readCleanDatasetLine } from './cleanLine';
import { parseDatasetLine } from './parseLine';

/**
 * Longer lines are read by the positioned reader only: it looks at the request's budget while it reads, where
 * JSON.parse cannot be stopped (a 1 MB line takes it a few milliseconds).
 */
const maxCleanLineLength = 1024 * 1024;

/**
 * How a dataset's lines are read, in the editor and by `agent-traces check`: first with the engine's JSON.parse,
 * taken only when the line is certainly free of problems (cleanLine.ts); any other line by the positioned reader,
 * which places its problems on their characters (parseLine.ts).
 */
export const readDatasetLine: LineReader = (text, number, start, valueStart, end, budget) =>
  (end - valueStart <= maxCleanLineLength ? readCleanDatasetLine(text, number, start, valueStart, end) : undefined)
  ?? parseDatasetLine(text, number, start, valueStart, end, budget);
