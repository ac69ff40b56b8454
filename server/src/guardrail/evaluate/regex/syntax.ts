/**
 * The parsed form of a Python pattern, before flags are applied (Python's own parse: `re._parser`): flags can be set
 * at the start of the pattern and scoped to groups, so what a literal or a class matches is decided afterwards
 * (see compile.ts).
 */

export const FLAG = {
  TEMPLATE: 1,
  IGNORECASE: 2,
  LOCALE: 4,
  MULTILINE: 8,
  DOTALL: 16,
  UNICODE: 32,
  VERBOSE: 64,
  DEBUG: 128,
  ASCII: 256,
} as const;

export const TYPE_FLAGS = FLAG.ASCII | FLAG.LOCALE | FLAG.UNICODE;
export const GLOBAL_FLAGS = FLAG.DEBUG | FLAG.TEMPLATE;
/** Python's MAXREPEAT: the largest repeat count is one below it; an open repeat is written with it. */
export const MAXREPEAT = 4294967295;
/** Python's MAXCODE (4-byte codes): a look-behind wider than this is refused. */
export const MAXCODE = 4294967295;

export type Category = 'digit' | 'space' | 'word';
export type At = 'beginning' | 'end' | 'beginningString' | 'endString' | 'boundary' | 'nonBoundary';

export type ClassItem =
  | { op: 'literal'; cp: number }
  | { op: 'range'; lo: number; hi: number }
  | { op: 'category'; name: Category; negate: boolean };

export type Item =
  | { op: 'literal'; cp: number }
  | { op: 'notLiteral'; cp: number }
  | { op: 'in'; negate: boolean; items: ClassItem[] }
  | { op: 'any' }
  | { op: 'at'; at: At }
  | { op: 'repeat'; kind: 'greedy' | 'lazy' | 'possessive'; min: number; max: number; body: Item[] }
  | { op: 'subpattern'; group: number | null; add: number; del: number; body: Item[] }
  | { op: 'atomic'; body: Item[] }
  | { op: 'assert'; behind: boolean; negate: boolean; body: Item[] }
  | { op: 'branch'; branches: Item[][] }
  | { op: 'groupref'; group: number }
  | { op: 'groupExists'; group: number; yes: Item[]; no: Item[] | null };

export interface Parsed {
  body: Item[];
  /** The pattern's flags: those given, those set at its start, and UNICODE unless ASCII. */
  flags: number;
  /** Capturing groups (not counting group 0). */
  groups: number;
  groupIndex: Map<string, number>;
  /** Each group's width (min, max code points), by group number (index 0 unused). */
  groupWidths: [number, number][];
}
