import { Backtracker, MatcherTooDeep } from './backtrack';
import { compileParsed, type Program } from './compile';
import { NotEvaluated } from '../failure';
import { charClass, toJavaScript, type JavaScriptPattern } from './javascript';
import { category } from './unicode';
import { parse } from './parser';
import { FLAG } from './syntax';

/**
 * Python 3.11's `re` on str patterns, for rules: a pattern is parsed as Python parses it (same errors), its flags
 * applied as Python's compiler applies them, then matched by JavaScript's engine on a translation that matches the
 * same, or by a backtracking matcher with sre's semantics where JavaScript's would differ (see javascript.ts).
 * Offsets that leave this module are UTF-16 offsets into the JavaScript string; callers convert to code points.
 */

export { RegexError } from './parser';
export { FLAG } from './syntax';

export interface PyRegexFlags {
  ignoreCase?: boolean;
  dotAll?: boolean;
  multiline?: boolean;
  verbose?: boolean;
}

/** One match: [start, end] of group 0 then of each group (UTF-16 offsets, -1 for a group that did not take part). */
export type Spans = Int32Array;

type Mode = 'search' | 'match' | 'fullmatch';

export class CompiledPattern {
  readonly groups: number;
  readonly groupIndex: Map<string, number>;
  /** The flags as Python reports them (`Pattern.flags`): those given, those set inline, and UNICODE unless ASCII. */
  readonly flags: number;
  private js: JavaScriptPattern | null;
  private readonly regExps = new Map<string, RegExp>();
  private backtracker: Backtracker | undefined;
  /** The pattern is plain non-empty text (no groups, no flags that change a character): found with indexOf. */
  private readonly literal: string | null;

  /** `javascript: false`: always the backtracking matcher (the tests run every case both ways). */
  constructor(readonly pattern: string, private readonly program: Program, javascript = true) {
    this.groups = program.groups;
    this.groupIndex = program.groupIndex;
    this.flags = program.flags;
    this.js = javascript ? toJavaScript(program) : null;
    this.literal = javascript ? literalText(program) : null;
  }

  /** Whether JavaScript's engine matches it (else the backtracking matcher). */
  get translated(): boolean {
    return this.js !== null;
  }

  /**
   * The first match in `s[0:end]` from `pos`: anywhere after it (search), at it (match), or at it and reaching `end`
   * (fullmatch). `mustAdvance`: a match at `pos` must not be empty. `groups`: whether group offsets are needed.
   */
  exec(s: string, pos: number, end: number, mode: Mode, groups = true, mustAdvance = false): Spans | null {
    if (pos > end) return null;
    if (mustAdvance && mode === 'search') {
      // Python first looks for a non-empty match at `pos`, then searches on from the next character.
      const here = this.literal === null ? this.exec(s, pos, end, 'match', groups, true) : null;
      return here ?? this.exec(s, nextCodePoint(s, pos), end, 'search', groups);
    }
    if (this.literal !== null && mode === 'search') {
      const at = s.indexOf(this.literal, pos);
      if (at < 0 || at + this.literal.length > end) return null;
      return Int32Array.of(at, at + this.literal.length);
    }
    const re = mustAdvance ? null : this.regExp(mode, groups);
    if (re === null) return this.backtrack(s, pos, end, mode, mustAdvance);
    const subject = end < s.length ? s.slice(0, end) : s;
    re.lastIndex = pos;
    let m: RegExpExecArray | null;
    try {
      m = re.exec(subject);
    } catch (e) {
      // The engine compiles on first use and may refuse then (a pattern beyond its size limits): the matcher takes it.
      if (!(e instanceof SyntaxError)) throw e;
      this.js = null;
      return this.backtrack(s, pos, end, mode, mustAdvance);
    }
    if (!m) return null;
    const spans = new Int32Array(2 * (this.groups + 1)).fill(-1);
    spans[0] = m.index;
    spans[1] = m.index + m[0].length;
    if (groups && this.groups > 0) {
      const indices = m.indices!;
      for (let g = 1; g <= this.groups; g++) {
        const at = indices[this.js!.groupMap[g]];
        if (at) {
          spans[2 * g] = at[0];
          spans[2 * g + 1] = at[1];
        }
      }
    }
    return spans;
  }

  /** Every match from `pos` as Python's finditer finds them: an empty match may follow a match, but not another empty one at the same place. */
  *iterate(s: string, pos = 0, end = s.length, groups = true): Generator<Spans> {
    let at = pos;
    let mustAdvance = false;
    while (at <= end) {
      const m = this.exec(s, at, end, 'search', groups, mustAdvance);
      if (!m) return;
      yield m;
      mustAdvance = m[1] === m[0];
      at = m[1];
    }
  }

  /**
   * The group that closed last on the way to a match found in `s[0:end]` (Python's `Match.lastindex`), or -1: the
   * match replayed on the backtracking matcher, which records it (JavaScript's engine does not; a group in a
   * look-around closes before groups that end earlier in the text, so the spans alone cannot tell).
   */
  lastIndex(s: string, end: number, match: Spans): number {
    return this.guarded(() => this.matcher().matchAt(s, end, match[0], false, false, match[1])?.lastIndex ?? -1);
  }

  private matcher(): Backtracker {
    return (this.backtracker ??= new Backtracker(this.program));
  }

  private backtrack(s: string, pos: number, end: number, mode: Mode, mustAdvance: boolean): Spans | null {
    return this.guarded(() => {
      if (mode === 'search') return this.matcher().search(s, end, pos, mustAdvance)?.spans ?? null;
      return this.matcher().matchAt(s, end, pos, mode === 'fullmatch', mustAdvance)?.spans ?? null;
    });
  }

  private guarded<T>(run: () => T): T {
    try {
      return run();
    } catch (e) {
      if (e instanceof MatcherTooDeep) {
        throw new NotEvaluated(`the regular expression ${JSON.stringify(this.pattern)}`,
          `backtracks deeper on this text than the local evaluator's stack allows (Python's matcher has no such limit)`);
      }
      throw e;
    }
  }

  /** The JavaScript expression for this use, or null where the pattern is left to the backtracking matcher. */
  private regExp(mode: Mode, groups: boolean): RegExp | null {
    if (this.js === null) return null;
    const key = `${mode}${groups ? 'd' : ''}`;
    let re = this.regExps.get(key);
    if (!re) {
      const source = mode === 'fullmatch' ? `(?:${this.js.source})(?![^])` : this.js.source;
      try {
        re = new RegExp(source, `${mode === 'search' ? 'g' : 'y'}u${groups && this.groups > 0 ? 'd' : ''}`);
      } catch {
        // Beyond what the engine compiles (its size limits): the matcher takes the pattern.
        this.js = null;
        return null;
      }
      this.regExps.set(key, re);
    }
    return re;
  }
}

function nextCodePoint(s: string, pos: number): number {
  const c = s.charCodeAt(pos);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = s.charCodeAt(pos + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return pos + 2;
  }
  return pos + 1;
}

function literalText(program: Program): string | null {
  const items = program.root.type === 'seq' ? program.root.items : [program.root];
  let text = '';
  for (const item of items) {
    if (item.type !== 'chars' || item.set.ranges.length !== 2 || item.set.ranges[0] !== item.set.ranges[1]) return null;
    text += String.fromCodePoint(item.set.ranges[0]);
  }
  // A lone surrogate could pair with its neighbour in the subject, where Python sees two characters.
  return text === '' || /[\ud800-\udfff]/.test(text) ? null : text;
}

const cache = new Map<string, CompiledPattern>();
/** As many patterns as Python's own cache keeps (re._MAXCACHE). */
const MAX_CACHED = 512;

/** The compiled pattern (cached), or the error Python raises for it. */
export function compile(pattern: string, flags: PyRegexFlags | number = 0): CompiledPattern {
  const bits = typeof flags === 'number' ? flags : flagBits(flags);
  const key = `${bits}\u0000${pattern}`;
  let compiled = cache.get(key);
  if (compiled) {
    cache.delete(key);
    cache.set(key, compiled);
    return compiled;
  }
  compiled = compileUncached(pattern, bits);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

export function compileUncached(pattern: string, flags: number, javascript = true): CompiledPattern {
  return new CompiledPattern(pattern, compileParsed(parse(pattern, flags)), javascript);
}

function flagBits(flags: PyRegexFlags): number {
  return (flags.ignoreCase ? FLAG.IGNORECASE : 0) | (flags.dotAll ? FLAG.DOTALL : 0) | (flags.multiline ? FLAG.MULTILINE : 0) | (flags.verbose ? FLAG.VERBOSE : 0);
}

/** `re.match(pattern, s)`: a match anchored at the start (its offsets), or null. */
export function pyMatch(pattern: string, s: string, flags?: PyRegexFlags): Spans | null {
  return compile(pattern, flags).exec(s, 0, s.length, 'match', false);
}

/** `re.match(pattern + "$", s)`: whether the whole string (or all but a final newline) matches. */
export function pyFullMatch(pattern: string, s: string, flags?: PyRegexFlags): boolean {
  return pyMatch(pattern + '$', s, flags) !== null;
}

/** `re.finditer(pattern, s)`: every match as [start, end) UTF-16 offsets, and its text. */
export function pyFindIter(pattern: string, s: string, flags?: PyRegexFlags): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  for (const m of compile(pattern, flags).iterate(s, 0, s.length, false)) out.push({ start: m[0], end: m[1], text: s.slice(m[0], m[1]) });
  return out;
}

let whitespace: RegExp | undefined;

/** Runs of what Python's str.isspace() takes (str.split() and str.strip() without arguments split and strip those). */
export function pythonWhitespace(): RegExp {
  return (whitespace ??= new RegExp(`${charClass(category('space', false))}+`, 'gu'));
}
