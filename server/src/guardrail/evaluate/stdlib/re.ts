import { compile, FLAG, RegexError, type CompiledPattern, type Spans } from '../regex';
import { PyDict, PyError, PyFunction, PyObject, PyTuple, codePointLength, codePointOffset, isStr, pyRepr, str, typeName, type CallContext, type Value } from '../values';
import { intArgument, pyFunction, type Bound } from './arguments';
import { refuseInternals } from './refused';

/**
 * Python's `re` module for rules: `compile`, `search`, `match`, `fullmatch`, `findall`, `finditer`, `sub`, `subn`,
 * `split`, `escape`, `purge` and the flags, with Pattern and Match objects (`group`, `groups`, `groupdict`, `start`,
 * `end`, `span`, `expand`, `m[g]`, …) on the regex engine of ../regex. Offsets are code points, as Python's; the
 * strings a match hands out are new strings, except a group that spans the whole subject, which is the subject
 * itself (CPython slices that way), so ranges found on it are found in the trace.
 */

const MAXSIZE = Number.MAX_SAFE_INTEGER;

export const RE_FLAGS: Record<string, number> = {
  NOFLAG: 0, A: FLAG.ASCII, ASCII: FLAG.ASCII, DEBUG: FLAG.DEBUG, I: FLAG.IGNORECASE, IGNORECASE: FLAG.IGNORECASE,
  L: FLAG.LOCALE, LOCALE: FLAG.LOCALE, M: FLAG.MULTILINE, MULTILINE: FLAG.MULTILINE, S: FLAG.DOTALL, DOTALL: FLAG.DOTALL,
  U: FLAG.UNICODE, UNICODE: FLAG.UNICODE, X: FLAG.VERBOSE, VERBOSE: FLAG.VERBOSE, T: FLAG.TEMPLATE, TEMPLATE: FLAG.TEMPLATE,
};

const FLAG_NAMES: [number, string][] = [
  [FLAG.TEMPLATE, 're.TEMPLATE'], [FLAG.IGNORECASE, 're.IGNORECASE'], [FLAG.LOCALE, 're.LOCALE'], [FLAG.MULTILINE, 're.MULTILINE'],
  [FLAG.DOTALL, 're.DOTALL'], [FLAG.UNICODE, 're.UNICODE'], [FLAG.VERBOSE, 're.VERBOSE'], [FLAG.DEBUG, 're.DEBUG'], [FLAG.ASCII, 're.ASCII'],
];

/** UTF-16 offset of code point index `index` in `s` (clamped to the string). */
function utf16Offset(s: string, index: number): number {
  if (index <= 0) return 0;
  let cps = 0;
  for (let i = 0; i < s.length; i++) {
    if (cps === index) return i;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    cps++;
  }
  return s.length;
}

function subject(v: Value | undefined): string {
  if (v !== undefined && isStr(v)) return str(v)!;
  throw new PyError('TypeError', `expected string or bytes-like object, got '${typeName(v ?? null)}'`);
}

function flagsArgument(v: Value | undefined): number {
  if (v === undefined) return 0;
  if (typeof v === 'boolean' || (typeof v === 'number' && Number.isInteger(v))) return Number(v);
  throw new PyError('TypeError', `unsupported operand type(s) for &: '${typeName(v)}' and 'RegexFlag'`);
}

/** The compiled pattern a module function is given: a string (compiled with the flags) or a Pattern object. */
function patternOf(p: Value | undefined, flags: number): PatternObject {
  if (p instanceof PatternObject) {
    if (flags) throw new PyError('ValueError', 'cannot process flags argument with a compiled pattern');
    return p;
  }
  if (p === undefined || !isStr(p)) throw new PyError('TypeError', 'first argument must be string or compiled pattern');
  return new PatternObject(compile(str(p)!, flags), p);
}

/** A str or Pattern; its group index for a group argument (int, bool or name), or IndexError. */
function groupNumber(pattern: CompiledPattern, g: Value): number {
  if (typeof g === 'boolean') g = Number(g);
  if (typeof g === 'number' && Number.isInteger(g)) {
    if (g >= 0 && g <= pattern.groups) return g;
  } else if (isStr(g)) {
    const n = pattern.groupIndex.get(str(g)!);
    if (n !== undefined) return n;
  }
  throw new PyError('IndexError', 'no such group');
}

export class MatchObject extends PyObject {
  readonly typeName = 're.Match';

  constructor(
    readonly re: PatternObject,
    /** The subject as the rule gave it (a trace string keeps its identity). */
    readonly subjectValue: Value,
    readonly s: string,
    /** UTF-16 offsets of group 0 and each group (-1: did not take part). */
    readonly spans: Spans,
    readonly pos: number,
    readonly endpos: number,
  ) {
    super();
  }

  /** A group's text: null when it did not take part; the subject itself when it spans all of it. */
  groupValue(g: number, fallback: Value = null): Value {
    const start = this.spans[2 * g];
    const end = this.spans[2 * g + 1];
    if (start < 0 || end < 0) return fallback;
    if (start === 0 && end === this.s.length) return this.subjectValue;
    return this.s.slice(start, end);
  }

  private offset(i: number): number {
    return this.spans[i] < 0 ? -1 : codePointOffset(this.s, this.spans[i]);
  }

  span(g: number): PyTuple {
    return new PyTuple([this.offset(2 * g), this.offset(2 * g + 1)]);
  }

  get lastIndex(): number | null {
    if (this.re.compiled.groups === 0) return null;
    const last = this.re.compiled.lastIndex(this.s, utf16Offset(this.s, this.endpos), this.spans);
    return last < 0 ? null : last;
  }

  attribute(name: string): Value {
    refuseInternals('re.Match', name);
    const pattern = this.re.compiled;
    const groupArgs = (args: Value[]): number[] => args.map((a) => groupNumber(pattern, a));
    switch (name) {
      case 'group': return method('group', (args) => {
        if (args.length === 0) return this.groupValue(0);
        const values = groupArgs(args).map((g) => this.groupValue(g));
        return values.length === 1 ? values[0] : new PyTuple(values);
      });
      case 'groups': return pyFunction({ name: 'groups', params: ['default'], required: 0 }, (a) => {
        const fallback = a.get('default') ?? null;
        return new PyTuple(Array.from({ length: pattern.groups }, (_, i) => this.groupValue(i + 1, fallback)));
      });
      case 'groupdict': return pyFunction({ name: 'groupdict', params: ['default'], required: 0 }, (a) => {
        const fallback = a.get('default') ?? null;
        const d = new PyDict();
        d.derived = true;
        for (const [key, g] of pattern.groupIndex) d.map.set(key, this.groupValue(g, fallback));
        return d;
      });
      case 'start': case 'end': case 'span': return pyFunction({ name, params: ['group'], required: 0 }, (a) => {
        const g = groupNumber(pattern, a.get('group') ?? 0);
        const span = this.span(g);
        return name === 'span' ? span : span.items[name === 'start' ? 0 : 1];
      });
      case 'expand': return pyFunction({ name: 'expand', params: ['template'], required: 1 }, (a) => {
        return expandTemplate(parseTemplate(subject(a.get('template')), pattern), this);
      });
      case 'pos': return this.pos;
      case 'endpos': return this.endpos;
      case 're': return this.re;
      case 'string': return this.subjectValue;
      case 'lastindex': return this.lastIndex;
      case 'lastgroup': {
        const last = this.lastIndex;
        if (last === null) return null;
        for (const [key, g] of pattern.groupIndex) if (g === last) return key;
        return null;
      }
      case 'regs': return new PyTuple(Array.from({ length: pattern.groups + 1 }, (_, g) => this.span(g)));
    }
    throw new PyError('AttributeError', `'re.Match' object has no attribute '${name}'`);
  }

  /** `m[g]`. */
  getItem(key: Value): Value {
    return this.groupValue(groupNumber(this.re.compiled, key));
  }

  repr(): string {
    const [start, end] = this.span(0).items as number[];
    return `<re.Match object; span=(${start}, ${end}), match=${pyRepr(this.groupValue(0)).slice(0, 50)}>`;
  }
}

function method(name: string, call: (args: Value[], kwargs: Map<string, Value>, ctx: CallContext) => Value): PyFunction {
  return new PyFunction(name, call);
}

export class PatternObject extends PyObject {
  readonly typeName = 're.Pattern';

  constructor(readonly compiled: CompiledPattern, readonly patternValue: Value) {
    super();
  }

  /** Clamps pos/endpos (code points) as Python does and runs one search, match or fullmatch. */
  private run(mode: 'search' | 'match' | 'fullmatch', a: Bound): Value {
    const subjectValue = a.get('string')!;
    const s = subject(subjectValue);
    const { pos, endpos, start, end } = window(s, a);
    const spans = this.compiled.exec(s, start, end, mode);
    return spans ? new MatchObject(this, subjectValue, s, spans, pos, endpos) : null;
  }

  /** Every match, as finditer finds them. */
  matches(subjectValue: Value, a?: Bound): MatchObject[] {
    const s = subject(subjectValue);
    const { pos, endpos, start, end } = a ? window(s, a) : { pos: 0, endpos: codePointLength(s), start: 0, end: s.length };
    return [...this.compiled.iterate(s, start, end)].map((spans) => new MatchObject(this, subjectValue, s, spans, pos, endpos));
  }

  findall(subjectValue: Value, a?: Bound): Value[] {
    const groups = this.compiled.groups;
    return this.matches(subjectValue, a).map((m) => {
      if (groups === 0) return m.groupValue(0);
      if (groups === 1) return m.groupValue(1, '');
      return new PyTuple(Array.from({ length: groups }, (_, i) => m.groupValue(i + 1, '')));
    });
  }

  split(subjectValue: Value, maxsplit: number): Value[] {
    const s = subject(subjectValue);
    if (maxsplit < 0) return [subjectValue];
    const out: Value[] = [];
    let last = 0;
    let n = 0;
    for (const spans of this.compiled.iterate(s)) {
      if (maxsplit && n >= maxsplit) break;
      out.push(s.slice(last, spans[0]));
      for (let g = 1; g <= this.compiled.groups; g++) out.push(spans[2 * g] < 0 ? null : s.slice(spans[2 * g], spans[2 * g + 1]));
      last = spans[1];
      n++;
    }
    out.push(last === 0 ? subjectValue : s.slice(last));
    return out;
  }

  sub(repl: Value, subjectValue: Value, count: number, ctx: CallContext): [Value, number] {
    const s = subject(subjectValue);
    let replace: (m: MatchObject) => string;
    if (repl instanceof PyFunction) {
      replace = (m) => {
        const r = repl.call([m], new Map(), ctx);
        if (r === null) return '';
        if (!isStr(r)) throw new PyError('TypeError', `expected str instance, ${typeName(r)} found`);
        return str(r)!;
      };
    } else if (isStr(repl)) {
      const template = parseTemplate(str(repl)!, this.compiled);
      replace = (m) => expandTemplate(template, m);
    } else {
      throw new PyError('TypeError', `expected str instance, ${typeName(repl)} found`);
    }
    if (count < 0) return [subjectValue, 0];
    let out = '';
    let last = 0;
    let n = 0;
    for (const spans of this.compiled.iterate(s)) {
      if (count && n >= count) break;
      out += s.slice(last, spans[0]) + replace(new MatchObject(this, subjectValue, s, spans, 0, codePointLength(s)));
      last = spans[1];
      n++;
    }
    if (n === 0) return [subjectValue, 0];
    return [out + s.slice(last), n];
  }

  attribute(name: string): Value {
    refuseInternals('re.Pattern', name);
    const windowed = ['string', 'pos', 'endpos'];
    switch (name) {
      case 'search': case 'match': case 'fullmatch':
        return pyFunction({ name, params: windowed, required: 1 }, (a) => this.run(name, a));
      case 'findall': return pyFunction({ name, params: windowed, required: 1 }, (a) => this.findall(a.get('string')!, a));
      case 'finditer': return pyFunction({ name, params: windowed, required: 1 }, (a) => this.matches(a.get('string')!, a));
      case 'split': return pyFunction({ name, params: ['string', 'maxsplit'], required: 1 }, (a) =>
        this.split(a.get('string')!, intArgument(a.get('maxsplit'), 0, '')));
      case 'sub': case 'subn': return pyFunction({ name, params: ['repl', 'string', 'count'], required: 2 }, (a, ctx) => {
        const [text, n] = this.sub(a.get('repl')!, a.get('string')!, intArgument(a.get('count'), 0, ''), ctx);
        return name === 'sub' ? text : new PyTuple([text, n]);
      });
      case 'pattern': return this.patternValue;
      case 'flags': return this.compiled.flags;
      case 'groups': return this.compiled.groups;
      case 'groupindex': {
        const d = new PyDict([...this.compiled.groupIndex]);
        d.derived = true;
        return d;
      }
    }
    throw new PyError('AttributeError', `'re.Pattern' object has no attribute '${name}'`);
  }

  repr(): string {
    let flags = this.compiled.flags & ~FLAG.UNICODE;
    const names: string[] = [];
    for (const [bit, flagName] of FLAG_NAMES) {
      if (flags & bit && bit !== FLAG.UNICODE) {
        names.push(flagName);
        flags &= ~bit;
      }
    }
    if (flags) names.push(`0x${flags.toString(16)}`);
    const pattern = pyRepr(this.patternValue).slice(0, 200);
    return names.length ? `re.compile(${pattern}, ${names.join('|')})` : `re.compile(${pattern})`;
  }

  equals(other: Value): boolean {
    return other instanceof PatternObject && other.compiled.pattern === this.compiled.pattern && other.compiled.flags === this.compiled.flags;
  }
}

/** pos and endpos (code points, clamped as Python clamps them) and the UTF-16 window they make. */
function window(s: string, a: Bound): { pos: number; endpos: number; start: number; end: number } {
  const length = codePointLength(s);
  const clamp = (v: number) => Math.max(0, Math.min(v, length));
  const pos = clamp(intArgument(a.get('pos'), 0, ''));
  const endpos = clamp(intArgument(a.get('endpos'), MAXSIZE, ''));
  return { pos, endpos, start: utf16Offset(s, pos), end: utf16Offset(s, endpos) };
}

type Template = (string | number)[];

const TEMPLATE_ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** A replacement template (`\1`, `\g<name>`, `\g<0>`, escapes) as `re` parses it: literal pieces and group numbers. */
function parseTemplate(template: string, pattern: CompiledPattern): Template {
  const chars = Array.from(template);
  const out: Template = [];
  let literal = '';
  const error = (msg: string, pos: number) => new RegexError(msg, chars, pos);
  const addGroup = (index: number, pos: number) => {
    if (index > pattern.groups) throw error(`invalid group reference ${index}`, pos);
    if (literal) out.push(literal);
    literal = '';
    out.push(index);
  };
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c !== '\\') {
      literal += c;
      continue;
    }
    if (i + 1 >= chars.length) throw error('bad escape (end of pattern)', chars.length - 1);
    const d = chars[++i];
    if (d === 'g') {
      if (chars[i + 1] !== '<') throw error('missing <', i + 1);
      const close = chars.indexOf('>', i + 2);
      const name = chars.slice(i + 2, close < 0 ? chars.length : close).join('');
      if (close < 0) throw name ? error('missing >, unterminated name', i + 2) : error('missing group name', i + 2);
      if (!name) throw error('missing group name', i + 2);
      const namePos = i + 2;
      i = close;
      let index: number;
      if (/^[\p{ID_Start}_][\p{ID_Continue}]*$/u.test(name)) {
        const g = pattern.groupIndex.get(name);
        if (g === undefined) throw new PyError('IndexError', `unknown group name ${pyRepr(name)}`);
        index = g;
      } else {
        if (!/^\d+$/.test(name)) throw error(`bad character in group name ${pyRepr(name)}`, namePos);
        index = Number(name);
      }
      addGroup(index, namePos);
    } else if (d === '0') {
      let digits = '0';
      for (let k = 0; k < 2 && /[0-7]/.test(chars[i + 1] ?? ''); k++) digits += chars[++i];
      literal += String.fromCharCode(parseInt(digits, 8) & 0xff);
    } else if (/[0-9]/.test(d)) {
      const start = i;
      let digits = d;
      if (/[0-9]/.test(chars[i + 1] ?? '')) {
        digits += chars[++i];
        if (/[0-7]/.test(d) && /[0-7]/.test(digits[1]) && /[0-7]/.test(chars[i + 1] ?? '')) {
          digits += chars[++i];
          const code = parseInt(digits, 8);
          if (code > 0o377) throw error(`octal escape value \\${digits} outside of range 0-0o377`, start - 1);
          literal += String.fromCharCode(code);
          continue;
        }
      }
      addGroup(Number(digits), start);
    } else if (d in TEMPLATE_ESCAPES) {
      literal += TEMPLATE_ESCAPES[d];
    } else if (/[a-zA-Z]/.test(d)) {
      throw error(`bad escape \\${d}`, i - 1);
    } else {
      literal += '\\' + d;
    }
  }
  if (literal) out.push(literal);
  return out;
}

function expandTemplate(template: Template, m: MatchObject): string {
  let out = '';
  for (const piece of template) {
    if (typeof piece === 'string') out += piece;
    else out += str(m.groupValue(piece, '')) ?? '';
  }
  return out;
}

const SPECIAL = new Set([...'()[]{}?*+-|^$\\.&~# \t\n\r\v\f']);

/** `re.escape`. */
export function escape(s: string): string {
  let out = '';
  for (const ch of s) out += SPECIAL.has(ch) ? '\\' + ch : ch;
  return out;
}

/** The module's functions, by name. */
export function reFunctions(): Record<string, PyFunction> {
  /** `required` of `params`, then `flags`. */
  const withPattern = (name: string, params: string[], required: number, body: (p: PatternObject, a: Bound, ctx: CallContext) => Value) =>
    pyFunction({ name, params: [...params, 'flags'], required }, (a, ctx) => body(patternOf(a.get('pattern'), flagsArgument(a.get('flags'))), a, ctx));
  const whole = (mode: 'search' | 'match' | 'fullmatch') => withPattern(mode, ['pattern', 'string'], 2, (p, a) => {
    const s = subject(a.get('string'));
    const spans = p.compiled.exec(s, 0, s.length, mode);
    return spans ? new MatchObject(p, a.get('string')!, s, spans, 0, codePointLength(s)) : null;
  });
  return {
    compile: pyFunction({ name: 'compile', params: ['pattern', 'flags'], required: 1 }, (a) => patternOf(a.get('pattern'), flagsArgument(a.get('flags')))),
    search: whole('search'),
    match: whole('match'),
    fullmatch: whole('fullmatch'),
    findall: withPattern('findall', ['pattern', 'string'], 2, (p, a) => p.findall(a.get('string')!)),
    finditer: withPattern('finditer', ['pattern', 'string'], 2, (p, a) => p.matches(a.get('string')!)),
    split: withPattern('split', ['pattern', 'string', 'maxsplit'], 2, (p, a) => p.split(a.get('string')!, intArgument(a.get('maxsplit'), 0, ''))),
    sub: withPattern('sub', ['pattern', 'repl', 'string', 'count'], 3, (p, a, ctx) => p.sub(a.get('repl')!, a.get('string')!, intArgument(a.get('count'), 0, ''), ctx)[0]),
    subn: withPattern('subn', ['pattern', 'repl', 'string', 'count'], 3, (p, a, ctx) => new PyTuple(p.sub(a.get('repl')!, a.get('string')!, intArgument(a.get('count'), 0, ''), ctx))),
    escape: pyFunction({ name: 'escape', params: ['pattern'], required: 1 }, (a) => {
      const p = a.get('pattern')!;
      if (!isStr(p)) throw new PyError('TypeError', `'${typeName(p)}' object is not iterable`);
      return escape(str(p)!);
    }),
    purge: pyFunction({ name: 'purge', params: [], required: 0 }, () => null),
  };
}
