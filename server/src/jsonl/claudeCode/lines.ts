/** How a session's lines are read: each record once, with its facts (records.ts) kept on the line. */
import type { Budget } from '../../common/budget';
import { buildTree } from '../../json/treeBuilder';
import { lineNodeOfReadValue } from '../../json/views';
import type { Line } from '../lines';
import { readRecord, sessionPlan, type RecordFacts } from './records';

/**
 * A line holding a record (an object with a string `type`), read in one pass; undefined leaves it to the generic
 * reader (a broken line, which it reads again for its errors and partial tree; a line that holds no record).
 */
export function readSessionLine(text: string, number: number, start: number, valueStart: number, end: number, budget?: Budget): Line | undefined {
  const read = buildTree(text, valueStart, end, sessionPlan, budget);
  if (read.errors.length > 0 || !read.root) return undefined;
  const facts = readRecord(text, read.root, start);
  if (!facts) return undefined;
  return { number, start, end, kind: 'record', root: lineNodeOfReadValue(text, read.root), errors: [], facts };
}

/** The facts of a record line. */
export function recordOf(line: Line): RecordFacts | undefined {
  return line.kind === 'record' ? (line.facts as RecordFacts | undefined) : undefined;
}
