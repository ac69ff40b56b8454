import type { Budget } from '../common/budget';
import { readValidJson } from './validReader';
import { nodeOfReadValue } from './views';
import type { ParsedValue } from './nodes';
import type { ReadingPlan } from './tree';
import { buildTree } from './treeBuilder';

/** A line (or JSON text inside a string) keeps every container, for the partial tree features visit. */
const valuePlan: ReadingPlan<'value'> = {
  childShape: () => 'value',
  words: { unit: 'line', oneValue: 'a line holds one JSON value', expectedValueHint: '', commentsWhere: 'in JSON Lines' },
};

/**
 * Any JSON value (a JSON Lines line, a string holding JSON) read into the nodes features visit. Valid text takes
 * the fast reader, which builds containers on first visit; broken text is read by the tolerant tree builder that
 * reads trace files, so a broken line gets the same messages (in a line's words), at the same places, and a partial
 * tree. `budget` stops the tolerant reading of a long broken line between tokens.
 */
export function parseJsonValue(text: string, start: number, end: number, budget?: Budget): ParsedValue {
  try {
    const root = readValidJson(text, start, end);
    if (root) return { root, errors: [] };
  } catch (failure) {
    if (!(failure instanceof RangeError)) throw failure;
    // Nesting deep enough to exhaust the stack: say so instead of crashing the server.
    return { errors: [{ start, end: Math.min(end, start + 1), message: 'Values are nested too deeply to be read' }] };
  }
  const read = buildTree(text, start, end, valuePlan, budget);
  // What is still open at the line's end repeats an earlier finding (a string cut there, a missing value): the first
  // error alone says it.
  const errors = read.errors
    .filter((error, i) => i === 0 || error.start < end)
    .map((error) => ({ start: error.start, end: error.end, message: error.message }));
  return { root: read.root && read.root.kind !== 'invalid' ? nodeOfReadValue(text, read.root) : undefined, errors };
}
