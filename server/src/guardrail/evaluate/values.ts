/**
 * Run-time values of the rule language, modelled on the official analyzer's Python values: strings read from the
 * trace keep their identity (the analyzer locates ranges by object identity), dicts keep insertion order for any
 * key, and `Unknown` stands for a value that depends on a variable not bound yet.
 */

/** A string read from the trace: one object per occurrence, so ranges marked on it can be located. */
export class TStr {
  /** Index of the trace event this string belongs to (lets ranges be located without walking the whole trace). */
  owner = -1;
  constructor(readonly s: string) {}
  toString(): string {
    return this.s;
  }
}

/** A Python dict: insertion-ordered, string keys (JSON objects, object literals). */
export class PyDict {
  readonly map: Map<string, Value>;
  /** Made by the rule (a literal, `dict()`, a parameter), so never found in the trace: a range on it has no place. */
  derived = false;
  constructor(entries?: Iterable<[string, Value]>) {
    this.map = new Map(entries);
  }
}

export class PyTuple {
  constructor(readonly items: Value[]) {}
}

export const Unknown = Symbol('unknown');
export type UnknownT = typeof Unknown;
/** What an assignment line evaluates to (dropped from the body's conjunction). */
export const NOP = Symbol('nop');

/** An object with a restricted attribute interface (trace events, detector results). */
export abstract class PyObject {
  abstract readonly typeName: string;
  /** Attributes a policy may read; anything else is an InvariantAttributeError. */
  abstract attribute(name: string): Value;
}

/** A callable: a builtin, a detector, a bound method. */
export class PyFunction {
  constructor(
    readonly name: string,
    readonly call: (args: Value[], kwargs: Map<string, Value>, ctx: CallContext) => Value,
    /** Set for detectors that need a model or an external program: they are never run. */
    readonly notEvaluated?: string,
    /** The analyzer caches this function's results per evaluation (`@cached`): a repeated call marks nothing. */
    readonly cached = false,
  ) {}
}

/** What a builtin may need from the evaluation that calls it. */
export interface CallContext {
  /** `each`: every character of [start, end) is a range of its own. */
  mark(obj: object, start?: number, end?: number, each?: boolean): void;
}

export type Value =
  | null
  | boolean
  | number
  | string
  | TStr
  | PyDict
  | PyTuple
  | Value[]
  | PyObject
  | PyFunction
  | UnknownT
  | typeof NOP
  | object;

/** A raised Python exception: the evaluation stops with it. */
export class PyError extends Error {
  constructor(readonly pyType: string, readonly detail: string) {
    super(`${pyType}: ${detail}`);
  }
}

export function str(v: Value): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof TStr) return v.s;
  return undefined;
}

export function isStr(v: Value | undefined): v is string | TStr {
  return typeof v === 'string' || v instanceof TStr;
}

/** Python's type name of a value (for messages and `issubclass` checks). */
export function typeName(v: Value): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (isStr(v)) return 'str';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyDict) return 'dict';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof PyObject) return v.typeName;
  if (v instanceof PyFunction) return 'function';
  return 'object';
}

/** Python truthiness. */
export function truthy(v: Value): boolean {
  if (v === null || v === false || v === 0 || v === '') return false;
  if (v instanceof TStr) return v.s.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyDict) return v.map.size > 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PyObject && 'length' in v) return (v as unknown as { length: number }).length > 0;
  return true;
}

/** Python `==`. */
export function pyEquals(a: Value, b: Value): boolean {
  if (a === b) return true;
  const sa = str(a);
  if (sa !== undefined) return sa === str(b);
  if (typeof a === 'number' || typeof a === 'boolean') {
    return (typeof b === 'number' || typeof b === 'boolean') && Number(a) === Number(b);
  }
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (a instanceof PyTuple) return b instanceof PyTuple && a.items.length === b.items.length && a.items.every((x, i) => pyEquals(x, b.items[i]));
  if (a instanceof PyDict) {
    if (!(b instanceof PyDict) || a.map.size !== b.map.size) return false;
    for (const [k, v] of a.map) if (!b.map.has(k) || !pyEquals(v, b.map.get(k)!)) return false;
    return true;
  }
  if (a instanceof PyObject && b instanceof PyObject && 'equals' in a) return (a as unknown as { equals(o: Value): boolean }).equals(b);
  return false;
}

/** Python `repr()` of a value, as far as messages and keys need it. */
export function pyRepr(v: Value): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return pyNumber(v);
  if (isStr(v)) return reprString(str(v)!);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (v instanceof PyTuple) return v.items.length === 1 ? `(${pyRepr(v.items[0])},)` : `(${v.items.map(pyRepr).join(', ')})`;
  if (v instanceof PyDict) return `{${[...v.map].map(([k, x]) => `${reprString(k)}: ${pyRepr(x)}`).join(', ')}}`;
  if (v instanceof PyObject && 'repr' in v) return (v as unknown as { repr(): string }).repr();
  if (v instanceof PyFunction) return `<function ${v.name}>`;
  if (v === Unknown) return '<unknown>';
  return String(v);
}

/** Python `str()`. */
export function pyStr(v: Value): string {
  const s = str(v);
  return s !== undefined ? s : pyRepr(v);
}

export function pyNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  return pyFloatRepr(n);
}

/** Python's repr() of a float: the shortest digits that read back the same, in exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = Math.abs(n).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  const sign = n < 0 ? '-' : '';
  if (exponent < -4 || exponent >= 16) {
    const e = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
    return `${sign}${digits[0]}${digits.length > 1 ? '.' + digits.slice(1) : ''}e${e}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  return `${sign}${whole}.${digits.slice(exponent + 1) || '0'}`;
}

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).padStart(2, '0');
    else out += ch;
  }
  return out + quote;
}

/** Number of code points (Python's len of a str). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const ASTRAL = /[\uD800-\uDBFF]/;
const prefixCache = new Map<string, Int32Array>();

/** Code-point offset of UTF-16 offset `offset` in `s` (constant time for strings without astral characters). */
export function codePointOffset(s: string, offset: number): number {
  if (s.length < 64 ? !ASTRAL.test(s) : !hasAstral(s)) return Math.min(offset, s.length);
  let table = prefixCache.get(s);
  if (!table) {
    table = new Int32Array(s.length + 1);
    let n = 0;
    for (let i = 0; i < s.length; i++, n++) {
      table[i] = n;
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) table[++i] = n;
      }
    }
    table[s.length] = n;
    if (prefixCache.size > 64) prefixCache.clear();
    prefixCache.set(s, table);
  }
  return table[Math.min(offset, s.length)];
}

const astralCache = new Map<string, boolean>();

function hasAstral(s: string): boolean {
  let known = astralCache.get(s);
  if (known === undefined) {
    known = ASTRAL.test(s);
    if (astralCache.size > 256) astralCache.clear();
    astralCache.set(s, known);
  }
  return known;
}
