import { PyError, pyRepr } from '../values';
import { FLAG, GLOBAL_FLAGS, MAXREPEAT, TYPE_FLAGS, type At, type Category, type ClassItem, type Item, type Parsed } from './syntax';
import { lookupName } from './unicode';

/**
 * Parses a Python 3.11 pattern (str) as `re` does, with its errors: the same message, the same position (in code
 * points) and the same exception type (`re.error`, or OverflowError and ValueError where `re` raises those).
 */

/** `re.error`: the message with Python's " at position N" (and line and column when the pattern has a newline). */
export class RegexError extends PyError {
  constructor(readonly msg: string, pattern?: readonly string[], pos?: number) {
    super('re.error', describe(msg, pattern, pos));
  }
}

function describe(msg: string, pattern: readonly string[] | undefined, pos: number | undefined): string {
  if (pattern === undefined || pos === undefined) return msg;
  let text = `${msg} at position ${pos}`;
  if (pattern.includes('\n')) {
    let line = 1;
    let lastNewline = -1;
    for (let i = 0; i < pos; i++) {
      if (pattern[i] === '\n') {
        line++;
        lastNewline = i;
      }
    }
    text += ` (line ${line}, column ${pos - lastNewline})`;
  }
  return text;
}

const SPECIAL = new Set([...'.\\[{()*+?^$|']);
const REPEAT = new Set([...'*+?{']);
const DIGITS = /^[0-9]$/;
const OCT = /^[0-7]$/;
const HEX = /^[0-9a-fA-F]$/;
const ASCII_LETTER = /^[a-zA-Z]$/;
const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\v', '\f']);
const FLAGS: Record<string, number> = {
  i: FLAG.IGNORECASE, L: FLAG.LOCALE, m: FLAG.MULTILINE, s: FLAG.DOTALL, x: FLAG.VERBOSE, a: FLAG.ASCII, t: FLAG.TEMPLATE, u: FLAG.UNICODE,
};
const ESCAPES: Record<string, number> = { '\\a': 7, '\\b': 8, '\\f': 12, '\\n': 10, '\\r': 13, '\\t': 9, '\\v': 11, '\\\\': 92 };
const CATEGORIES: Record<string, { name: Category; negate: boolean }> = {
  '\\d': { name: 'digit', negate: false }, '\\D': { name: 'digit', negate: true },
  '\\s': { name: 'space', negate: false }, '\\S': { name: 'space', negate: true },
  '\\w': { name: 'word', negate: false }, '\\W': { name: 'word', negate: true },
};
const ATS: Record<string, At> = { '\\A': 'beginningString', '\\b': 'boundary', '\\B': 'nonBoundary', '\\Z': 'endString' };
/** Identifiers as str.isidentifier() reads them (group names). */
const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;
/** Python 3.11's MAXGROUPS on 64-bit builds. */
const MAXGROUPS = 2147483647;

/** Reads the pattern a token at a time: one character, or a backslash and the character after it. */
class Tokenizer {
  readonly chars: string[];
  private index = 0;
  next: string | null = null;

  constructor(readonly pattern: string) {
    this.chars = Array.from(pattern);
    this.advance();
  }

  private advance(): void {
    let index = this.index;
    if (index >= this.chars.length) {
      this.next = null;
      return;
    }
    let char = this.chars[index];
    if (char === '\\') {
      index++;
      if (index >= this.chars.length) throw new RegexError('bad escape (end of pattern)', this.chars, this.chars.length - 1);
      char += this.chars[index];
    }
    this.index = index + 1;
    this.next = char;
  }

  match(char: string): boolean {
    if (char === this.next) {
      this.advance();
      return true;
    }
    return false;
  }

  get(): string | null {
    const t = this.next;
    this.advance();
    return t;
  }

  getWhile(n: number, set: RegExp): string {
    let result = '';
    for (let i = 0; i < n; i++) {
      const c = this.next;
      if (c === null || !set.test(c)) break;
      result += c;
      this.advance();
    }
    return result;
  }

  getUntil(terminator: string, name: string): string {
    let result = '';
    for (;;) {
      const c = this.next;
      this.advance();
      if (c === null) {
        if (!result) throw this.error(`missing ${name}`);
        throw this.error(`missing ${terminator}, unterminated name`, Array.from(result).length);
      }
      if (c === terminator) {
        if (!result) throw this.error(`missing ${name}`, 1);
        break;
      }
      result += c;
    }
    return result;
  }

  tell(): number {
    return this.index - (this.next === null ? 0 : this.next.length);
  }

  seek(index: number): void {
    this.index = index;
    this.advance();
  }

  error(msg: string, offset = 0): RegexError {
    return new RegexError(msg, this.chars, this.tell() - offset);
  }

  checkGroupName(name: string, offset: number): void {
    if (!IDENTIFIER.test(name)) throw this.error(`bad character in group name ${pyRepr(name)}`, Array.from(name).length + offset);
  }
}

class State {
  flags = 0;
  groupIndex = new Map<string, number>();
  /** Width of each closed group; null while it is open (index 0 unused). */
  groupWidths: ([number, number] | null)[] = [null];
  lookbehindGroups: number | null = null;
  groupRefPos = new Map<number, number>();

  get groups(): number {
    return this.groupWidths.length;
  }

  openGroup(name: string | null, source: Tokenizer): number {
    const gid = this.groups;
    this.groupWidths.push(null);
    if (this.groups > MAXGROUPS) throw new RegexError('too many groups');
    if (name !== null) {
      const old = this.groupIndex.get(name);
      if (old !== undefined) {
        throw source.error(`redefinition of group name ${pyRepr(name)} as group ${gid}; was group ${old}`, Array.from(name).length + 1);
      }
      this.groupIndex.set(name, gid);
    }
    return gid;
  }

  checkGroup(gid: number): boolean {
    return gid < this.groups && this.groupWidths[gid] !== null;
  }

  checkLookbehindGroup(gid: number, source: Tokenizer): void {
    if (this.lookbehindGroups === null) return;
    if (!this.checkGroup(gid)) throw source.error('cannot refer to an open group');
    if (gid >= this.lookbehindGroups) throw source.error('cannot refer to group defined in the same lookbehind subpattern');
  }
}

/** Code points of a Python str literal escape's hex digits (\x, \u, \U): exactly `count` digits. */
function hexEscape(source: Tokenizer, escape: string, count: number): number {
  const digits = source.getWhile(count, HEX);
  const whole = escape + digits;
  if (digits.length !== count) throw source.error(`incomplete escape ${whole}`, Array.from(whole).length);
  const cp = parseInt(digits, 16);
  if (cp > 0x10ffff) throw source.error(`bad escape ${whole}`, Array.from(whole).length);
  return cp;
}

function namedEscape(source: Tokenizer): number {
  if (!source.match('{')) throw source.error('missing {');
  const name = source.getUntil('}', 'character name');
  const cp = lookupName(name);
  if (cp === undefined) throw source.error(`undefined character name ${pyRepr(name)}`, Array.from(name).length + 4);
  return cp;
}

function octal(source: Tokenizer, escape: string): number {
  const cp = parseInt(escape.slice(1), 8);
  if (cp > 0o377) throw source.error(`octal escape value ${escape} outside of range 0-0o377`, escape.length);
  return cp;
}

type ClassEscape = { op: 'literal'; cp: number } | { op: 'category'; name: Category; negate: boolean };

function classEscape(source: Tokenizer, escape: string): ClassEscape {
  if (escape in ESCAPES) return { op: 'literal', cp: ESCAPES[escape] };
  if (escape in CATEGORIES) return { op: 'category', ...CATEGORIES[escape] };
  const c = escape[1];
  if (c === 'x') return { op: 'literal', cp: hexEscape(source, escape, 2) };
  if (c === 'u') return { op: 'literal', cp: hexEscape(source, escape, 4) };
  if (c === 'U') return { op: 'literal', cp: hexEscape(source, escape, 8) };
  if (c === 'N') return { op: 'literal', cp: namedEscape(source) };
  if (OCT.test(c)) return { op: 'literal', cp: octal(source, escape + source.getWhile(2, OCT)) };
  if (!DIGITS.test(c) && !ASCII_LETTER.test(c)) return { op: 'literal', cp: escape.codePointAt(1)! };
  throw source.error(`bad escape ${escape}`, Array.from(escape).length);
}

function escapeItem(source: Tokenizer, escape: string, state: State): Item {
  if (escape in ATS) return { op: 'at', at: ATS[escape] };
  if (escape in CATEGORIES) return { op: 'in', negate: false, items: [{ op: 'category', ...CATEGORIES[escape] }] };
  if (escape in ESCAPES) return { op: 'literal', cp: ESCAPES[escape] };
  const c = escape[1];
  if (c === 'x') return { op: 'literal', cp: hexEscape(source, escape, 2) };
  if (c === 'u') return { op: 'literal', cp: hexEscape(source, escape, 4) };
  if (c === 'U') return { op: 'literal', cp: hexEscape(source, escape, 8) };
  if (c === 'N') return { op: 'literal', cp: namedEscape(source) };
  if (c === '0') return { op: 'literal', cp: parseInt((escape + source.getWhile(2, OCT)).slice(1), 8) };
  if (DIGITS.test(c)) {
    // An octal escape (three octal digits) or a group reference.
    let text = escape;
    if (source.next !== null && DIGITS.test(source.next)) {
      text += source.get();
      if (OCT.test(text[1]) && OCT.test(text[2]) && source.next !== null && OCT.test(source.next)) {
        text += source.get();
        return { op: 'literal', cp: octal(source, text) };
      }
    }
    const group = Number(text.slice(1));
    if (group < state.groups) {
      if (!state.checkGroup(group)) throw source.error('cannot refer to an open group', text.length);
      state.checkLookbehindGroup(group, source);
      return { op: 'groupref', group };
    }
    throw source.error(`invalid group reference ${group}`, text.length - 1);
  }
  if (!ASCII_LETTER.test(c)) return { op: 'literal', cp: escape.codePointAt(1)! };
  throw source.error(`bad escape ${escape}`, Array.from(escape).length);
}

function parseAlternation(source: Tokenizer, state: State, verbose: boolean, nested: number): Item[] {
  const branches: Item[][] = [];
  for (;;) {
    branches.push(parseSequence(source, state, verbose, nested + 1, nested === 0 && branches.length === 0));
    if (!source.match('|')) break;
    if (nested === 0) verbose = (state.flags & FLAG.VERBOSE) !== 0;
  }
  return branches.length === 1 ? branches[0] : [{ op: 'branch', branches }];
}

function parseClass(source: Tokenizer, here: number): Item {
  const items: ClassItem[] = [];
  const negate = source.match('^');
  for (;;) {
    const token = source.get();
    if (token === null) throw source.error('unterminated character set', source.tell() - here);
    if (token === ']' && items.length > 0) break;
    const first: ClassEscape = token[0] === '\\' ? classEscape(source, token) : { op: 'literal', cp: token.codePointAt(0)! };
    if (source.match('-')) {
      const that = source.get();
      if (that === null) throw source.error('unterminated character set', source.tell() - here);
      if (that === ']') {
        items.push(first, { op: 'literal', cp: 0x2d });
        break;
      }
      const second: ClassEscape = that[0] === '\\' ? classEscape(source, that) : { op: 'literal', cp: that.codePointAt(0)! };
      const rangeText = `${token}-${that}`;
      if (first.op !== 'literal' || second.op !== 'literal' || second.cp < first.cp) {
        throw source.error(`bad character range ${rangeText}`, Array.from(rangeText).length);
      }
      items.push({ op: 'range', lo: first.cp, hi: second.cp });
    } else {
      items.push(first);
    }
  }
  if (items.length === 1 && items[0].op === 'literal') return negate ? { op: 'notLiteral', cp: items[0].cp } : { op: 'literal', cp: items[0].cp };
  return { op: 'in', negate, items };
}

/** A `{…}` repeat's bounds, or null when the brace is a literal (and the source is left after it). */
function braceBounds(source: Tokenizer): { min: number; max: number } | null | 'literal-close' {
  const here = source.tell();
  if (source.next === '}') return 'literal-close';
  let lo = '';
  let hi = '';
  while (source.next !== null && DIGITS.test(source.next)) lo += source.get();
  if (source.match(',')) {
    while (source.next !== null && DIGITS.test(source.next)) hi += source.get();
  } else {
    hi = lo;
  }
  if (!source.match('}')) {
    source.seek(here);
    return null;
  }
  let min = 0;
  let max = MAXREPEAT;
  if (lo) {
    min = Number(lo);
    if (min >= MAXREPEAT) throw new PyError('OverflowError', 'the repetition number is too large');
  }
  if (hi) {
    max = Number(hi);
    if (max >= MAXREPEAT) throw new PyError('OverflowError', 'the repetition number is too large');
    if (max < min) throw source.error('min repeat greater than max repeat', source.tell() - here);
  }
  return { min, max };
}

function parseSequence(source: Tokenizer, state: State, verbose: boolean, nested: number, first: boolean): Item[] {
  const items: Item[] = [];
  for (;;) {
    const current = source.next;
    if (current === null || current === '|' || current === ')') break;
    source.get();
    if (verbose) {
      if (WHITESPACE.has(current)) continue;
      if (current === '#') {
        for (let t = source.get(); t !== null && t !== '\n'; t = source.get());
        continue;
      }
    }
    if (current[0] === '\\') {
      items.push(escapeItem(source, current, state));
    } else if (!SPECIAL.has(current)) {
      items.push({ op: 'literal', cp: current.codePointAt(0)! });
    } else if (current === '[') {
      items.push(parseClass(source, source.tell() - 1));
    } else if (REPEAT.has(current)) {
      const here = source.tell();
      let min: number;
      let max: number;
      if (current === '?') [min, max] = [0, 1];
      else if (current === '*') [min, max] = [0, MAXREPEAT];
      else if (current === '+') [min, max] = [1, MAXREPEAT];
      else {
        const bounds = braceBounds(source);
        if (bounds === null || bounds === 'literal-close') {
          items.push({ op: 'literal', cp: 0x7b });
          continue;
        }
        ({ min, max } = bounds);
      }
      const last = items[items.length - 1];
      if (!last || last.op === 'at') throw source.error('nothing to repeat', source.tell() - here + 1);
      if (last.op === 'repeat') throw source.error('multiple repeat', source.tell() - here + 1);
      const body = last.op === 'subpattern' && last.group === null && !last.add && !last.del ? last.body : [last];
      const kind = source.match('?') ? 'lazy' : source.match('+') ? 'possessive' : 'greedy';
      items[items.length - 1] = { op: 'repeat', kind, min, max, body };
    } else if (current === '.') {
      items.push({ op: 'any' });
    } else if (current === '(') {
      const item = parseGroup(source, state, verbose, nested, first && items.length === 0);
      if (item === 'global-flags') {
        verbose = (state.flags & FLAG.VERBOSE) !== 0;
        continue;
      }
      if (item !== null) items.push(item);
    } else if (current === '^') {
      items.push({ op: 'at', at: 'beginning' });
    } else if (current === '$') {
      items.push({ op: 'at', at: 'end' });
    }
  }
  // Non-capturing groups without flags are spliced into the sequence, as Python does.
  const out: Item[] = [];
  for (const item of items) {
    if (item.op === 'subpattern' && item.group === null && !item.add && !item.del) out.push(...item.body);
    else out.push(item);
  }
  return out;
}

/** After `(`: a group, an extension, a comment (null) or global flags. */
function parseGroup(source: Tokenizer, state: State, verbose: boolean, nested: number, atStart: boolean): Item | null | 'global-flags' {
  const start = source.tell() - 1;
  let capture = true;
  let atomic = false;
  let name: string | null = null;
  let add = 0;
  let del = 0;
  if (source.match('?')) {
    const char = source.get();
    if (char === null) throw source.error('unexpected end of pattern');
    if (char === 'P') {
      if (source.match('<')) {
        name = source.getUntil('>', 'group name');
        source.checkGroupName(name, 1);
      } else if (source.match('=')) {
        const ref = source.getUntil(')', 'group name');
        source.checkGroupName(ref, 1);
        const gid = state.groupIndex.get(ref);
        if (gid === undefined) throw source.error(`unknown group name ${pyRepr(ref)}`, Array.from(ref).length + 1);
        if (!state.checkGroup(gid)) throw source.error('cannot refer to an open group', Array.from(ref).length + 1);
        state.checkLookbehindGroup(gid, source);
        return { op: 'groupref', group: gid };
      } else {
        const next = source.get();
        if (next === null) throw source.error('unexpected end of pattern');
        throw source.error(`unknown extension ?P${next}`, next.length + 2);
      }
    } else if (char === ':') {
      capture = false;
    } else if (char === '#') {
      for (;;) {
        if (source.next === null) throw source.error('missing ), unterminated comment', source.tell() - start);
        if (source.get() === ')') break;
      }
      return null;
    } else if (char === '=' || char === '!' || char === '<') {
      let kind = char;
      let behind = false;
      let outerLookbehind: number | null = null;
      if (char === '<') {
        const next = source.get();
        if (next === null) throw source.error('unexpected end of pattern');
        if (next !== '=' && next !== '!') throw source.error(`unknown extension ?<${next}`, next.length + 2);
        kind = next;
        behind = true;
        outerLookbehind = state.lookbehindGroups;
        if (outerLookbehind === null) state.lookbehindGroups = state.groups;
      }
      const body = parseAlternation(source, state, verbose, nested + 1);
      if (behind && outerLookbehind === null) state.lookbehindGroups = null;
      if (!source.match(')')) throw source.error('missing ), unterminated subpattern', source.tell() - start);
      return { op: 'assert', behind, negate: kind === '!', body };
    } else if (char === '(') {
      return parseConditional(source, state, verbose, nested, start);
    } else if (char === '>') {
      capture = false;
      atomic = true;
    } else if (char in FLAGS || char === '-') {
      const flags = parseFlags(source, state, char);
      if (flags === null) {
        if (!atStart) throw source.error('global flags not at the start of the expression', source.tell() - start);
        return 'global-flags';
      }
      [add, del] = flags;
      capture = false;
    } else {
      throw source.error(`unknown extension ?${char}`, char.length + 1);
    }
  }
  const group = capture ? state.openGroup(name, source) : null;
  const subVerbose = (verbose || (add & FLAG.VERBOSE) !== 0) && (del & FLAG.VERBOSE) === 0;
  const body = parseAlternation(source, state, subVerbose, nested + 1);
  if (!source.match(')')) throw source.error('missing ), unterminated subpattern', source.tell() - start);
  if (group !== null) state.groupWidths[group] = width(body, state);
  if (atomic) return { op: 'atomic', body };
  return { op: 'subpattern', group, add, del, body };
}

function parseConditional(source: Tokenizer, state: State, verbose: boolean, nested: number, start: number): Item {
  const condName = source.getUntil(')', 'group name');
  let group: number;
  const nameLength = Array.from(condName).length;
  if (IDENTIFIER.test(condName)) {
    const gid = state.groupIndex.get(condName);
    if (gid === undefined) throw source.error(`unknown group name ${pyRepr(condName)}`, nameLength + 1);
    group = gid;
  } else {
    // int() reads surrounding whitespace, a sign, underscores between digits and any Unicode decimal digits.
    const number = pythonInt(condName);
    if (number === null || number < 0) throw source.error(`bad character in group name ${pyRepr(condName)}`, nameLength + 1);
    if (number === 0) throw source.error('bad group number', nameLength + 1);
    if (number >= MAXGROUPS) throw source.error(`invalid group reference ${number}`, nameLength + 1);
    group = number;
    if (!state.groupRefPos.has(group)) state.groupRefPos.set(group, source.tell() - nameLength - 1);
  }
  state.checkLookbehindGroup(group, source);
  const yes = parseSequence(source, state, verbose, nested + 1, false);
  let no: Item[] | null = null;
  if (source.match('|')) {
    no = parseSequence(source, state, verbose, nested + 1, false);
    if (source.next === '|') throw source.error('conditional backref with more than two branches');
  }
  if (!source.match(')')) throw source.error('missing ), unterminated subpattern', source.tell() - start);
  return { op: 'groupExists', group, yes, no };
}

/** Python's int() of a str, or null where it raises ValueError. */
function pythonInt(text: string): number | null {
  const digits = text.trim().replace(/\p{Nd}/gu, (d) => String(digitValue(d)));
  if (!/^[+-]?\d+(?:_\d+)*$/.test(digits)) return null;
  return Number(digits.replace(/_/g, ''));
}

function digitValue(d: string): number {
  const cp = d.codePointAt(0)!;
  // Decimal digits come in runs of ten starting at a code point ending in 0 (or 6 for some scripts): find the zero.
  for (let zero = cp; zero > cp - 10; zero--) {
    if (!/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) return cp - zero;
  }
  return cp % 10;
}

function parseFlags(source: Tokenizer, state: State, first: string): [number, number] | null {
  let add = 0;
  let del = 0;
  let char: string | null = first;
  if (char !== '-') {
    for (;;) {
      const flag: number = FLAGS[char!];
      if (char === 'L') throw source.error("bad inline flags: cannot use 'L' flag with a str pattern");
      add |= flag;
      if ((flag & TYPE_FLAGS) !== 0 && (add & TYPE_FLAGS) !== flag) throw source.error("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
      char = source.get();
      if (char === null) throw source.error('missing -, : or )');
      if (char === ')' || char === '-' || char === ':') break;
      if (!(char in FLAGS)) throw source.error(/^\p{L}$/u.test(char) ? 'unknown flag' : 'missing -, : or )', char.length);
    }
  }
  if (char === ')') {
    state.flags |= add;
    return null;
  }
  if (add & GLOBAL_FLAGS) throw source.error('bad inline flags: cannot turn on global flag', 1);
  if (char === '-') {
    char = source.get();
    if (char === null) throw source.error('missing flag');
    if (!(char in FLAGS)) throw source.error(/^\p{L}$/u.test(char) ? 'unknown flag' : 'missing flag', char.length);
    for (;;) {
      const flag: number = FLAGS[char!];
      if (flag & TYPE_FLAGS) throw source.error("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
      del |= flag;
      char = source.get();
      if (char === null) throw source.error('missing :');
      if (char === ':') break;
      if (!(char in FLAGS)) throw source.error(/^\p{L}$/u.test(char) ? 'unknown flag' : 'missing :', char.length);
    }
  }
  if (del & GLOBAL_FLAGS) throw source.error('bad inline flags: cannot turn off global flag', 1);
  if (add & del) throw source.error('bad inline flags: flag turned on and off', 1);
  return [add, del];
}

const MAXWIDTH = 2 ** 64;

/** The (min, max) number of code points a sequence can match (Python's getwidth). */
export function width(items: Item[], state: { groupWidths: ([number, number] | null)[] }): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const item of items) {
    switch (item.op) {
      case 'branch': {
        let i = MAXWIDTH;
        let j = 0;
        for (const b of item.branches) {
          const [l, h] = width(b, state);
          i = Math.min(i, l);
          j = Math.max(j, h);
        }
        lo += i;
        hi += j;
        break;
      }
      case 'atomic': case 'subpattern': {
        const [l, h] = width(item.body, state);
        lo += l;
        hi += h;
        break;
      }
      case 'repeat': {
        const [l, h] = width(item.body, state);
        lo += l * item.min;
        hi = item.max === MAXREPEAT && h ? MAXWIDTH : hi + h * item.max;
        break;
      }
      case 'literal': case 'notLiteral': case 'in': case 'any':
        lo++;
        hi++;
        break;
      case 'groupref': {
        const [l, h] = state.groupWidths[item.group] ?? [0, 0];
        lo += l;
        hi += h;
        break;
      }
      case 'groupExists': {
        let [l, h] = width(item.yes, state);
        if (item.no !== null) {
          const [l2, h2] = width(item.no, state);
          l = Math.min(l, l2);
          h = Math.max(h, h2);
        } else {
          l = 0;
        }
        lo += l;
        hi += h;
        break;
      }
      case 'at': case 'assert':
        break;
    }
  }
  return [Math.min(lo, MAXWIDTH), Math.min(hi, MAXWIDTH)];
}

export function parse(pattern: string, flags: number): Parsed {
  const source = new Tokenizer(pattern);
  const state = new State();
  state.flags = flags;
  const body = parseAlternation(source, state, (flags & FLAG.VERBOSE) !== 0, 0);
  let final = state.flags;
  if (final & FLAG.LOCALE) throw new PyError('ValueError', 'cannot use LOCALE flag with a str pattern');
  if (!(final & FLAG.ASCII)) final |= FLAG.UNICODE;
  else if (final & FLAG.UNICODE) throw new PyError('ValueError', 'ASCII and UNICODE flags are incompatible');
  if (source.next !== null) throw source.error('unbalanced parenthesis');
  for (const [group, pos] of state.groupRefPos) {
    if (group >= state.groups) throw new RegexError(`invalid group reference ${group}`, source.chars, pos);
  }
  return {
    body, flags: final, groups: state.groups - 1, groupIndex: state.groupIndex,
    groupWidths: state.groupWidths.map((w) => w ?? [0, 0]),
  };
}
