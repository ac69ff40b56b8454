/**
 * How a trace file is read: the tolerant tree builder (json/treeBuilder.ts) records only the containers that have
 * a meaning in a trace (the events array, events, content chunks, tool calls, functions), in a trace's words.
 */
import type { Budget } from '../common/budget';
import { runStepsInSlices, type Steps } from '../common/steps';
import { buildTree, buildTreeInSteps } from '../json/treeBuilder';
import { readValidTree, readValidTreeInSteps } from '../json/validTreeReader';
import type { Field as AnyField, JsonValue as AnyJsonValue, ParsedJson as AnyParsedJson, ReadingPlan } from '../json/tree';

export type { SyntaxProblem, ValueKind } from '../json/tree';

/** What a recorded object or array stands for in a trace. */
export type Shape = 'root' | 'events' | 'event' | 'content' | 'chunk' | 'image' | 'calls' | 'call' | 'function' | 'other';

export type JsonValue = AnyJsonValue<Shape>;
export type Field = AnyField<Shape>;
export type ParsedJson = AnyParsedJson<Shape>;

/**
 * The shape of a container inside one of the given shape (undefined: the top level) under `key`: what the trace
 * format expects there. Shared by the reader and by completion, which reads a half-typed document the same way.
 */
export function shapeOfChild(parent: Shape | undefined, key: string | undefined, isObject: boolean): Shape {
  if (parent === undefined) return isObject ? 'root' : 'events';
  switch (parent) {
    case 'root': return !isObject && key === 'messages' ? 'events' : 'other';
    case 'events': return isObject ? 'event' : 'other';
    case 'event':
      if (!isObject && key === 'content') return 'content';
      if (key === 'tool_calls') return isObject ? 'call' : 'calls';
      if (isObject && key === 'function') return 'function';
      return 'other';
    case 'content': return isObject ? 'chunk' : 'other';
    case 'chunk': return isObject && (key === 'image_url' || key === 'image') ? 'image' : 'other';
    case 'calls': return isObject ? 'call' : 'other';
    case 'call': return isObject && key === 'function' ? 'function' : 'other';
    default: return 'other';
  }
}

const tracePlan: ReadingPlan<Shape> = {
  childShape(parent, key, isObject) {
    const shape = shapeOfChild(parent, key, isObject);
    return shape === 'other' ? null : shape;
  },
  words: {
    unit: 'file',
    oneValue: 'a trace file holds one JSON value',
    expectedValueHint: ' (a trace is an array of events)',
    commentsWhere: 'in a trace',
  },
};

/** The same reading for one element of the events array read on its own (an incremental re-read of an edited event). */
const eventPlan: ReadingPlan<Shape> = {
  childShape(parent, key, isObject) {
    const shape = shapeOfChild(parent ?? 'events', parent === undefined ? undefined : key, isObject);
    return shape === 'other' ? null : shape;
  },
  words: tracePlan.words,
};

/** The JSON text inside an `arguments` string: only its errors matter, worded for the string rather than the file. */
const argumentsPlan: ReadingPlan<Shape> = {
  childShape: () => null,
  words: {
    unit: 'string',
    oneValue: 'the arguments string holds one JSON object',
    expectedValueHint: ' (the arguments are a JSON object)',
    commentsWhere: 'in JSON',
  },
};

/** The first syntax error of the JSON text an `arguments` string holds, if any. */
export function argumentsSyntaxError(json: string): ParsedJson['errors'][number] | undefined {
  return buildTree(json, 0, json.length, argumentsPlan).errors[0];
}

/** Reads text[from, end) as an element of a trace's events array would be read in place; offsets are absolute. */
export function parseEventJson(text: string, from: number, end: number): ParsedJson {
  return buildTree(text, from, end, eventPlan);
}

/**
 * Reads the trace in text[from, end); offsets are absolute. Valid text (nearly every trace) takes the fast reader;
 * text it refuses is read by the tolerant tree builder, which reports what is wrong.
 */
export function parseJson(text: string, from = 0, end = text.length, budget?: Budget): ParsedJson {
  return readValidTree(text, from, end, tracePlan, budget) ?? buildTree(text, from, end, tracePlan, budget);
}

/** Reads nothing into a tree: only whether the text is JSON, for checks of a text that is not kept (a fix's result). */
const syntaxPlan: ReadingPlan<Shape> = { childShape: () => null, words: tracePlan.words };

/** The syntax errors of text[from, end) read as a trace file; `budget` stops the read (BudgetExceeded). */
export function jsonSyntaxErrors(text: string, from = 0, end = text.length, budget?: Budget): ParsedJson['errors'] {
  return buildTree(text, from, end, syntaxPlan, budget).errors;
}

/** The same reading in slices that each end with `pause()`, so a server answers other requests meanwhile. */
export function parseJsonInSlices(
  text: string, from: number, end: number, budget: Budget | undefined, pause: () => Promise<void>, sliceMs: number,
): Promise<ParsedJson> {
  return runStepsInSlices(traceSteps(text, from, end, budget, sliceMs), pause, sliceMs);
}

function* traceSteps(text: string, from: number, end: number, budget: Budget | undefined, stepMs: number): Steps<ParsedJson> {
  const valid = yield* readValidTreeInSteps(text, from, end, tracePlan, budget, stepMs);
  return valid ?? (yield* buildTreeInSteps(text, from, end, tracePlan, budget, stepMs));
}
