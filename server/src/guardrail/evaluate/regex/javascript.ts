import type { Anchor, Node, Program } from './compile';
import { CodePointSet, MAX_CODE_POINT } from './codePointSet';
import { category } from './unicode';

/**
 * The JavaScript source (flag `u`, nothing else) that matches as the compiled Python pattern does, or null where
 * JavaScript's engine would match differently: there the backtracking matcher runs instead. Every class is spelled
 * out as code point ranges from Python's tables and every anchor as a look-around, so no JavaScript flag (`i`, `m`,
 * `s`) nor JavaScript's own `\s`, `\w`, `\b` or case folding is involved.
 *
 * Where JavaScript differs, and the pattern is left to the matcher:
 * - a repeat that can iterate optionally over a subpattern that can match nothing (`(a|)*`, `(?:x?)+?`): JavaScript
 *   rejects an empty iteration and backtracks into it, Python accepts it and stops;
 * - a group inside a repeat that an iteration can leave unset (`(?:(a)|b)+`): JavaScript clears it at each
 *   iteration, Python keeps the earlier value;
 * - a back-reference to a group that may not have taken part, or under IGNORECASE, and conditionals `(?(1)…)`;
 * - a possessive repeat of more than one character (Python makes each iteration atomic; `(?=(…))\1` would make the
 *   whole repeat atomic), and repeat counts above MAX_JS_COUNT.
 */

const MAX_JS_COUNT = 65535;

export interface JavaScriptPattern {
  source: string;
  /** JavaScript group number of each Python group (index 0: 0). */
  groupMap: number[];
}

export function toJavaScript(program: Program): JavaScriptPattern | null {
  if (certainAfter(program.root, new Set()) === null) return null;
  const groupMap = new Array<number>(program.groups + 1).fill(0);
  let next = 1;
  const emit = (n: Node): string => {
    switch (n.type) {
      case 'chars': return charClass(n.set);
      case 'seq': return n.items.map(emit).join('');
      case 'alt': return `(?:${n.branches.map(emit).join('|')})`;
      case 'group': {
        groupMap[n.index] = next++;
        return `(${emit(n.body)})`;
      }
      case 'repeat': {
        const bounds = n.max === Infinity ? `{${n.min},}` : n.min === n.max ? `{${n.min}}` : `{${n.min},${n.max}}`;
        if (n.kind === 'possessive') {
          const holder = next++;
          return `(?=(${charClass((n.body as Extract<Node, { type: 'chars' }>).set)}${bounds}))\\${holder}`;
        }
        // A character (a class or a single one) takes the quantifier itself: the engine loops over it fastest.
        const atom = n.body.type === 'chars' ? emit(n.body) : `(?:${emit(n.body)})`;
        return `${atom}${bounds}${n.kind === 'lazy' ? '?' : ''}`;
      }
      case 'atomic': {
        const holder = next++;
        const body = emit(n.body);
        return `(?=(${body}))(?:\\${holder})`;
      }
      case 'look': return `(?${n.behind ? '<' : ''}${n.negate ? '!' : '='}${emit(n.body)})`;
      case 'anchor': return anchor(n.anchor);
      case 'backref': return `(?:\\${groupMap[n.group]})`;
      case 'cond': throw new Error('conditionals are not translated');
    }
  };
  const source = emit(program.root);
  return { source, groupMap };
}

/**
 * The groups certainly set after `n` matched, given those certainly set before it; null where JavaScript would match
 * `n` differently.
 */
function certainAfter(n: Node, before: Set<number>): Set<number> | null {
  switch (n.type) {
    case 'chars': case 'anchor': return before;
    case 'seq': {
      let set: Set<number> | null = before;
      for (const item of n.items) if ((set = certainAfter(item, set)) === null) return null;
      return set;
    }
    case 'alt': {
      let common: Set<number> | undefined;
      for (const branch of n.branches) {
        const after = certainAfter(branch, before);
        if (after === null) return null;
        const previous = common;
        common = previous === undefined ? after : new Set([...previous].filter((g) => after.has(g)));
      }
      return common ?? before;
    }
    case 'group': {
      const after = certainAfter(n.body, before);
      return after === null ? null : new Set([...after, n.index]);
    }
    case 'repeat': {
      if (n.min > MAX_JS_COUNT || (n.max !== Infinity && n.max > MAX_JS_COUNT)) return null;
      if (n.kind === 'possessive' && n.body.type !== 'chars') return null;
      const optional = n.max > n.min;
      if (optional && minWidth(n.body) === 0) return null;
      const iterates = n.max > 1;
      const after = certainAfter(n.body, before);
      if (after === null) return null;
      // Every group of a body that iterates must be set by each iteration (JavaScript clears them per iteration).
      if (iterates && groupsIn(n.body).some((g) => !after.has(g))) return null;
      return n.min > 0 ? after : before;
    }
    case 'atomic': return certainAfter(n.body, before);
    case 'look': {
      const after = certainAfter(n.body, before);
      if (after === null) return null;
      return n.negate ? before : after;
    }
    case 'backref': return n.cases === null && before.has(n.group) ? before : null;
    case 'cond': return null;
  }
}

function groupsIn(n: Node): number[] {
  switch (n.type) {
    case 'group': return [n.index, ...groupsIn(n.body)];
    case 'seq': return n.items.flatMap(groupsIn);
    case 'alt': return n.branches.flatMap(groupsIn);
    case 'repeat': case 'atomic': case 'look': return groupsIn(n.body);
    case 'cond': return [...groupsIn(n.yes), ...groupsIn(n.no)];
    default: return [];
  }
}

/** The fewest code points `n` can match (0: it can match nothing). */
function minWidth(n: Node): number {
  switch (n.type) {
    case 'chars': return n.set.isEmpty ? Infinity : 1;
    case 'seq': return n.items.reduce((sum, item) => sum + minWidth(item), 0);
    case 'alt': return Math.min(...n.branches.map(minWidth));
    case 'group': case 'atomic': return minWidth(n.body);
    case 'repeat': return n.min === 0 ? 0 : n.min * minWidth(n.body);
    case 'look': case 'anchor': return 0;
    case 'backref': return 0;
    case 'cond': return Math.min(minWidth(n.yes), minWidth(n.no));
  }
}

const WORD = () => charClass(category('word', false));
const ASCII_WORD = '[0-9A-Z_a-z]';

function anchor(a: Anchor): string {
  switch (a) {
    case 'beginning': case 'beginningString': return '(?<![^])';
    case 'beginningLine': return '(?<![^\\n])';
    case 'end': return '(?=\\n?(?![^]))';
    case 'endLine': return '(?![^\\n])';
    case 'endString': return '(?![^])';
    case 'boundary': case 'asciiBoundary': {
      const w = a === 'boundary' ? WORD() : ASCII_WORD;
      return `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
    }
    case 'nonBoundary': case 'asciiNonBoundary': {
      const w = a === 'nonBoundary' ? WORD() : ASCII_WORD;
      // Python finds no position in an empty string, not even a non-boundary.
      return `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w})(?:(?<=[^])|(?=[^])))`;
    }
  }
}

const classCache = new WeakMap<CodePointSet, string>();
const SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);

/**
 * A JavaScript class (u mode) matching exactly the set; a single character as itself, so that the engine's
 * searches for a literal prefix still apply.
 */
export function charClass(set: CodePointSet): string {
  let text = classCache.get(set);
  if (text !== undefined) return text;
  const r = set.ranges;
  if (r.length === 2 && r[0] === r[1] && !(r[0] >= 0xd800 && r[0] <= 0xdfff)) {
    const ch = String.fromCodePoint(r[0]);
    text = SYNTAX.has(ch) ? '\\' + ch : r[0] < 0x20 || r[0] > 0x7e ? `\\u{${r[0].toString(16)}}` : ch;
  } else if (r.length === 0) text = '[]';
  else if (r.length === 2 && r[0] === 0 && r[1] === MAX_CODE_POINT) text = '[^]';
  else {
    const complement = set.complement();
    // The shorter spelling: the set or its complement.
    const negate = complement.ranges.length < r.length;
    const ranges = negate ? complement.ranges : r;
    let body = '';
    for (let i = 0; i < ranges.length; i += 2) {
      body += escapeCodePoint(ranges[i]);
      if (ranges[i + 1] > ranges[i]) body += (ranges[i + 1] > ranges[i] + 1 ? '-' : '') + escapeCodePoint(ranges[i + 1]);
    }
    text = `[${negate ? '^' : ''}${body}]`;
  }
  classCache.set(set, text);
  return text;
}

function escapeCodePoint(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCharCode(cp);
  return `\\u{${cp.toString(16)}}`;
}

/** Whether the JavaScript translation of `set` must be a class (used by callers that build literal fast paths). */
export function singleCodePoint(set: CodePointSet): number | null {
  return set.ranges.length === 2 && set.ranges[0] === set.ranges[1] ? set.ranges[0] : null;
}

export { CodePointSet };
