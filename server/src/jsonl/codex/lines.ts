/** How a rollout's lines are read: each record once, with its facts (records.ts) kept on the line. */
import type { Budget } from '../../common/budget';
import { parseJsonValue } from '../../json/readJson';
import type { Line } from '../lines';
import { readRolloutRecord, type RolloutFacts } from './records';

/** A line holding a record (an object with a string `type`), read in one pass; undefined leaves it to the generic reader. */
export function readRolloutLine(text: string, number: number, start: number, valueStart: number, end: number, budget?: Budget): Line | undefined {
  const { root, errors } = parseJsonValue(text, valueStart, end, budget);
  if (!root || errors.length > 0) return undefined;
  const facts = readRolloutRecord(root, start);
  if (!facts) return undefined;
  return { number, start, end, kind: 'rollout', root, errors: [], facts };
}

/** The facts of a record line. */
export function rolloutRecordOf(line: Line): RolloutFacts | undefined {
  return line.kind === 'rollout' ? (line.facts as RolloutFacts | undefined) : undefined;
}
