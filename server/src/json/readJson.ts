import type { Budget } from '../common/budget';
import { readValidJson, readValidJsonInSteps } from './validReader';
import { nodeOfReadValue } from './views';
import type { ParsedValue } from './nodes';
import type { ParsedJson, ReadingPlan, Wording } from './tree';
import { buildTree, buildTreeInSteps } from './treeBuilder';
import type { Steps } from '../common/steps';

/** A line (or JSON text inside a string) keeps every container, for the partial tree features visit. */
const valuePlan: ReadingPlan<'value'> = {
  childShape: () => 'value',
  words: { unit: 'line', oneValue: 'a line holds one JSON value', expectedValueHint: '', commentsWhere: 'in JSON Lines' },
};

/**
 * Valid JSON of a big text read in steps of about `stepMs` by the tree builder (the fast reader reads it all in one
 * go: 30-60 ms for 10 MB), for work that must pause in between; broken text is read as parseJsonValue reads it.
 */
export function* parseValidJsonInSteps(text: string, start: number, end: number, stepMs: number): Steps<ParsedValue> {
  const read = yield* buildTreeInSteps(text, start, end, valuePlan, undefined, stepMs);
  if (read.errors.length === 0 && read.root && read.root.kind !== 'invalid') return { root: nodeOfReadValue(text, read.root), errors: [] };
  return readAsValid(text, start, end) ?? valueOfTree(text, end, read);
}

/**
 * Any JSON value (a JSON Lines line, a string holding JSON) read into the nodes features visit. Valid text takes
 * the fast reader, which builds containers on first visit; broken text is read by the tolerant tree builder that
 * reads trace files, so a broken line gets the same messages (in a line's words), at the same places, and a partial
 * tree. `budget` stops the tolerant reading of a long broken line between tokens.
 */
export function parseJsonValue(text: string, start: number, end: number, budget?: Budget): ParsedValue {
  return readAsValid(text, start, end) ?? valueOfTree(text, end, buildTree(text, start, end, valuePlan, budget));
}

/**
 * As parseJsonValue, every container of valid text built at once: for readers that visit nearly all of a value
 * (spans, their attributes and the messages inside them), which would otherwise read each level of it again.
 */
export function parseWholeJsonValue(text: string, start: number, end: number, budget?: Budget): ParsedValue {
  return readAsValid(text, start, end, true) ?? valueOfTree(text, end, buildTree(text, start, end, valuePlan, budget));
}

/**
 * A whole JSON document (a Responses body, a conversation) read into the nodes features visit, as parseJsonValue
 * reads a line, with messages in the document's own words.
 */
export function parseJsonDocument(text: string, words: Wording, budget?: Budget): ParsedValue {
  const plan: ReadingPlan<'value'> = { childShape: () => 'value', words };
  return readAsValid(text, 0, text.length) ?? valueOfTree(text, text.length, buildTree(text, 0, text.length, plan, budget));
}

/**
 * parseJsonDocument in steps, for a document big enough to hold up other work (a 100 MB Inspect log): valid text is
 * checked one member of its top containers per step, broken text read by the tolerant tree builder in steps of about
 * `stepMs`.
 */
export function* parseJsonDocumentInSteps(text: string, words: Wording, budget: Budget | undefined, stepMs: number): Steps<ParsedValue> {
  try {
    const root = yield* readValidJsonInSteps(text, 0, text.length);
    if (root) return { root, errors: [] };
  } catch (failure) {
    if (!(failure instanceof RangeError)) throw failure;
    return { errors: [{ start: 0, end: Math.min(text.length, 1), message: 'Values are nested too deeply to be read' }] };
  }
  const plan: ReadingPlan<'value'> = { childShape: () => 'value', words };
  return valueOfTree(text, text.length, yield* buildTreeInSteps(text, 0, text.length, plan, budget, stepMs));
}

/** The fast reader's value of valid text; undefined for broken text. */
function readAsValid(text: string, start: number, end: number, whole = false): ParsedValue | undefined {
  try {
    const root = readValidJson(text, start, end, whole);
    return root ? { root, errors: [] } : undefined;
  } catch (failure) {
    if (!(failure instanceof RangeError)) throw failure;
    // Nesting deep enough to exhaust the stack: say so instead of crashing the server.
    return { errors: [{ start, end: Math.min(end, start + 1), message: 'Values are nested too deeply to be read' }] };
  }
}

/** The value and errors of the tolerant tree builder's reading of text ending at `end`. */
function valueOfTree(text: string, end: number, read: ParsedJson<'value'>): ParsedValue {
  // What is still open at the line's end repeats an earlier finding (a string cut there, a missing value): the first
  // error alone says it.
  const errors = read.errors
    .filter((error, i) => i === 0 || error.start < end)
    .map((error) => ({ start: error.start, end: error.end, message: error.message }));
  return { root: read.root && read.root.kind !== 'invalid' ? nodeOfReadValue(text, read.root) : undefined, errors };
}
