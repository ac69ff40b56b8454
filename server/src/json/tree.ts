/** The light tree the tolerant reader (treeBuilder.ts) records, and what a reader of one kind of document asks of it. */
export type ValueKind = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array' | 'invalid';

/** `S` names what a recorded container stands for in the document being read (see ReadingPlan). */
export interface JsonValue<S extends string = string> {
  kind: ValueKind;
  start: number;
  /** Exclusive. */
  end: number;
  /** Decoded value of a short string (see maxKeptString in treeBuilder.ts). */
  str?: string;
  /** Set on strings whose decoded value differs from the raw text between the quotes. */
  escaped?: boolean;
  /** For recorded containers. */
  shape?: S;
  /** For recorded objects. */
  fields?: Field<S>[];
  /** For recorded arrays. */
  items?: JsonValue<S>[];
  /** True when the container was not closed properly (recovered). */
  unclosed?: boolean;
}

export interface Field<S extends string = string> {
  name: string;
  keyStart: number;
  keyEnd: number;
  /** Null when the value is missing (e.g. `"role": }`). */
  value: JsonValue<S> | null;
}

export type SyntaxCode = 'json/syntax' | 'json/comment' | 'json/trailing-comma';

export interface SyntaxProblem {
  start: number;
  end: number;
  code: SyntaxCode;
  message: string;
}

export interface ParsedJson<S extends string = string> {
  root: JsonValue<S> | null;
  errors: SyntaxProblem[];
  /** Start/end pairs of objects and arrays that span more than one line. */
  folds: number[];
  /** The deepest nesting of objects and arrays (0 for a scalar). */
  depth: number;
}

/** The words a reader's messages use for the text it reads. */
export interface Wording {
  /** What the text is, as in "Unexpected end of file": `file`, `line`. */
  unit: string;
  /** Why a second value is wrong, e.g. `a trace file holds one JSON value`. */
  oneValue: string;
  /** Appended to "expected a JSON value" on empty text, e.g. ` (a trace is an array of events)`. */
  expectedValueHint: string;
  /** Where comments are not allowed, e.g. `in a trace`. */
  commentsWhere: string;
}

/** What one kind of document wants from the reader: which containers to record and the words of its messages. */
export interface ReadingPlan<S extends string> {
  /** The shape of a container inside a recorded one of shape `parent` (undefined: the top level) under `key`; null: not recorded. */
  childShape(parent: S | undefined, key: string | undefined, isObject: boolean): S | null;
  words: Wording;
}

/** A value's kind as messages say it: `a string`, `an object`. */
export function describeKind(kind: ValueKind): string {
  switch (kind) {
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'boolean': return 'a boolean';
    case 'null': return 'null';
    case 'object': return 'an object';
    case 'array': return 'an array';
    default: return 'an invalid value';
  }
}
