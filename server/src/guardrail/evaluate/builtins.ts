import { EventObject, InvariantAttributeError, ToolOutputEvent, fromJson, setMethodFactory } from './traceObjects';
import { iterate, length, compare } from './pyops';
import { MAX_ITEMS, checkItems, checkLength } from './limits';
import { pyFindIter, pyMatch } from './regex';
import { Refused, refuseInternals } from './stdlib/refused';
import { imagesOf, textsOf } from './text';
import { PyDict, PyError, PyFunction, PyObject, PyTuple, isStr, pyRepr, pyStr, str, truthy, typeName, type CallContext, type Value } from './values';

/**
 * Builtins, string and dict methods with the analyzer's allow-lists (`strip lower upper splitlines split format
 * join` on str; `keys values items get` on dict), and member access as the analyzer resolves it.
 */

export class ExcessivePolicyError extends PyError {
  constructor(detail: string) {
    super('ExcessivePolicyError', `Excessive Policy: ${detail}`);
  }
}

export class MissingPolicyParameter extends PyError {
  constructor(name: string) {
    super('MissingPolicyParameter', `Missing Policy Parameter: '${name}' (policy relies on \`input.${name}\`), which is required for evaluation of a rule.`);
  }
}

/** What `raise PolicyViolation(...)` (or `Violation`) builds. */
export class ErrorInfo extends PyObject {
  readonly typeName = 'ErrorInformation';
  constructor(readonly args: Value[], readonly kwargs: Map<string, Value>) {
    super();
  }
  attribute(name: string): Value {
    throw new InvariantAttributeError(`Attribute ${name} not found in ErrorInformation.`);
  }
}

/** `input` in a rule: the policy parameters. */
export class PolicyParameters extends PyObject {
  readonly typeName = 'PolicyParameters';
  constructor(readonly values: Map<string, Value>) {
    super();
  }
  attribute(name: string): Value {
    if (!this.values.has(name)) throw new MissingPolicyParameter(name);
    return this.values.get(name)!;
  }
}

function fn(name: string, call: (args: Value[], kwargs: Map<string, Value>, ctx: CallContext) => Value): PyFunction {
  return new PyFunction(name, call);
}

function method(name: string, impl: (args: Value[], kwargs: Map<string, Value>) => Value): PyFunction {
  return fn(name, (args, kwargs) => impl(args, kwargs));
}

setMethodFactory((name, impl) => method(name, () => impl()));

const SPLITLINES = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

function pyStrip(s: string, chars: Value | undefined): string {
  if (chars === undefined || chars === null) return s.replace(/^\s+|\s+$/gu, '');
  const set = new Set([...(str(chars) ?? '')]);
  const cps = [...s];
  let a = 0;
  let b = cps.length;
  while (a < b && set.has(cps[a])) a++;
  while (b > a && set.has(cps[b - 1])) b--;
  return cps.slice(a, b).join('');
}

function pySplit(s: string, sep: Value | undefined, maxsplit: Value | undefined): string[] {
  const max = typeof maxsplit === 'number' ? maxsplit : -1;
  if (sep === undefined || sep === null) {
    const parts: string[] = [];
    const re = /\S+/gu;
    let m: RegExpExecArray | null;
    while ((m = re.exec(s))) {
      if (max >= 0 && parts.length === max) {
        parts.push(s.slice(m.index).replace(/\s+$/u, ''));
        break;
      }
      if (parts.length === MAX_ITEMS) checkItems(parts.length + 1);
      parts.push(m[0]);
    }
    return parts;
  }
  const d = str(sep);
  if (d === undefined) throw new PyError('TypeError', `must be str or None, not ${typeName(sep)}`);
  if (d === '') throw new PyError('ValueError', 'empty separator');
  // Counted before the engine splits: splitting runs whole, as one call that nothing can interrupt.
  if (s.length > MAX_ITEMS) checkItems(Math.min(max >= 0 ? max + 1 : Infinity, occurrences(s, d, MAX_ITEMS) + 1));
  const parts = s.split(d);
  if (max >= 0 && parts.length > max + 1) return [...parts.slice(0, max), parts.slice(max).join(d)];
  return parts;
}

/** How many times `part` occurs in `s`, counted up to `upTo + 1`. */
function occurrences(s: string, part: string | RegExp, upTo: number): number {
  let count = 0;
  if (typeof part === 'string') {
    for (let at = s.indexOf(part); at >= 0 && count <= upTo; at = s.indexOf(part, at + part.length)) count++;
    return count;
  }
  const re = new RegExp(part.source, 'g');
  while (count <= upTo && re.exec(s)) count++;
  return count;
}

/**
 * A str method bound to `value`. Like CPython, split, splitlines and strip hand back the very same string object
 * when they change nothing, so ranges found on the result are found on the original.
 */
function stringMethod(value: Value, name: string): PyFunction {
  const s = str(value)!;
  const same = (r: string): Value => (r === s ? value : r);
  switch (name) {
    case 'strip': return method(name, ([chars]) => same(pyStrip(s, chars)));
    case 'lower': return method(name, () => s.toLowerCase());
    case 'upper': return method(name, () => s.toUpperCase());
    case 'splitlines': return method(name, () => {
      if (s.length > MAX_ITEMS) checkItems(occurrences(s, SPLITLINES, MAX_ITEMS) + 1);
      const lines: Value[] = s.split(SPLITLINES);
      if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
      return lines.length === 1 && lines[0] === s ? [value] : lines;
    });
    case 'split': return method(name, ([sep, max], kwargs) => {
      const parts: Value[] = pySplit(s, sep ?? kwargs.get('sep'), max ?? kwargs.get('maxsplit'));
      return parts.length === 1 && parts[0] === s ? [value] : parts;
    });
    case 'join': return method(name, ([items]) => {
      const list = iterate(items);
      if (list.length === 1 && isStr(list[0])) return list[0];
      const parts = list.map((x) => {
        const t = str(x);
        if (t === undefined) throw new PyError('TypeError', `sequence item: expected str instance, ${typeName(x)} found`);
        return t;
      });
      checkLength(parts.reduce((total, part) => total + part.length, s.length * Math.max(0, parts.length - 1)));
      return parts.join(s);
    });
    case 'format': return method(name, (args, kwargs) => {
      let i = 0;
      return s.replace(/\{([^{}]*)\}/g, (_, key: string) => pyStr(key === '' ? args[i++] : /^\d+$/.test(key) ? args[Number(key)] : kwargs.get(key) ?? null));
    });
  }
  throw new ExcessivePolicyError(`Unavailable attribute ${name} for str values.`);
}

function dictMethod(d: PyDict, name: string): PyFunction {
  switch (name) {
    case 'keys': return method(name, () => [...d.map.keys()]);
    case 'values': return method(name, () => [...d.map.values()]);
    case 'items': return method(name, () => [...d.map].map(([k, v]) => new PyTuple([k, v])));
    case 'get': return method(name, ([key, fallback]) => {
      const k = str(key);
      return k !== undefined && d.map.has(k) ? d.map.get(k)! : fallback ?? null;
    });
  }
  throw new ExcessivePolicyError(`Unavailable attribute ${name} for dict values.`);
}

/** `obj.name` as the analyzer evaluates it (policy parameters, JSON strings, dict keys, allow-listed attributes). */
export function memberAccess(obj: Value, name: string): Value {
  if (obj instanceof PolicyParameters) return obj.attribute(name);
  if (obj instanceof Refused) return obj.member(name);
  if (isStr(obj)) {
    const s = str(obj)!;
    let parsed: unknown;
    let isJson = true;
    try {
      parsed = JSON.parse(s);
    } catch {
      // Python's json also reads NaN and ±Infinity (as floats).
      const t = s.trim();
      if (t === 'NaN' || t === 'Infinity' || t === '-Infinity') parsed = 0.5;
      else isJson = false;
    }
    if (isJson) {
      const v = fromJson(parsed);
      if (v instanceof PyDict) {
        if (!v.map.has(name)) throw new PyError('KeyError', `'${name}'`);
        return v.map.get(name)!;
      }
      throw new PyError('TypeError', `${typeName(v)} indices must be integers or slices, not str`);
    }
    return stringMethod(obj, name);
  }
  if (obj instanceof PyDict) {
    if (obj.map.has(name)) return obj.map.get(name)!;
    return dictMethod(obj, name);
  }
  if (obj instanceof PyObject) return obj.attribute(name);
  if (obj === null) throw new PyError('AttributeError', `Attribute ${name} not found on None.`);
  if (Array.isArray(obj)) throw new PyError('AttributeError', `Attribute ${name} not found on list. Use list[index] to access elements.`);
  // The analyzer hands out a function's `__globals__` or `__self__` (a way to any module): refused, never followed.
  if (obj instanceof PyFunction) refuseInternals(obj.name, name);
  throw new PyError('AttributeError', `Attribute ${name} not found in ${typeName(obj)}.`);
}

function requireString(v: Value): string {
  const s = str(v);
  if (s === undefined) throw new PyError('TypeError', `expected string or bytes-like object, got '${typeName(v)}'`);
  return s;
}

function minMax(which: 'min' | 'max', args: Value[]): Value {
  const items = args.length === 1 ? iterate(args[0]) : args;
  if (items.length === 0) throw new PyError('ValueError', `${which}() iterable argument is empty`);
  let best = items[0];
  for (const x of items.slice(1)) if (compare(which === 'min' ? '<' : '>', x, best)) best = x;
  return best;
}

function violation(args: Value[], kwargs: Map<string, Value>): ErrorInfo {
  const k = new Map(kwargs);
  k.delete('ranges');
  return new ErrorInfo(args, k);
}

/** The builtins in scope without import. */
export const BUILTINS: Record<string, Value> = {
  any: fn('any', ([x]) => iterate(x).some(truthy)),
  empty: fn('empty', ([x]) => length(x) === 0),
  len: fn('len', ([x]) => length(x)),
  json_loads: fn('json_loads', ([s]) => {
    const t = str(s);
    if (t === undefined) throw new PyError('TypeError', `the JSON object must be str, bytes or bytearray, not ${typeName(s)}`);
    try {
      return fromJson(JSON.parse(t));
    } catch {
      throw new PyError('JSONDecodeError', `Invalid JSON string: ${t}`);
    }
  }),
  match: fn('match', ([pattern, s]) => {
    const p = str(pattern);
    if (p === undefined) throw new PyError('TypeError', 'first argument must be string or compiled pattern');
    return pyMatch(p, requireString(s)) !== null;
  }),
  find: fn('find', ([pattern, s], _k, ctx) => {
    const p = str(pattern);
    if (p === undefined) throw new PyError('TypeError', 'first argument must be string or compiled pattern');
    const text = requireString(s);
    return pyFindIter(p, text).map((m) => {
      ctx.mark(s as object, m.start, m.end);
      return m.text;
    });
  }),
  min: fn('min', (args) => minMax('min', args)),
  max: fn('max', (args) => minMax('max', args)),
  sum: fn('sum', ([x, start]) => iterate(x).reduce<number>((a, b) => a + Number(b), typeof start === 'number' ? start : 0)),
  print: fn('print', () => true),
  tuple: fn('tuple', ([x]) => new PyTuple(x === undefined ? [] : iterate(x))),
  tool_call: fn('tool_call', ([output]) => {
    if (!(output instanceof ToolOutputEvent)) throw new PyError('ValueError', 'tool_output argument must be a ToolOutput.');
    return output.call;
  }),
  server: fn('server', ([event]) => {
    if (event instanceof EventObject) return event.server;
    throw new PyError('AttributeError', `'${typeName(event)}' object has no attribute 'server'`);
  }),
  text: fn('text', (args) => textsOf(args)),
  image: fn('image', (args) => imagesOf(args)),
  Violation: fn('Violation', violation),
  PolicyViolation: fn('PolicyViolation', violation),
  str: fn('str', ([x]) => pyStr(x ?? '')),
  int: fn('int', ([x]) => {
    const n = Number(str(x) ?? x);
    if (!Number.isFinite(n)) throw new PyError('ValueError', `invalid literal for int() with base 10: ${pyRepr(x)}`);
    return Math.trunc(n);
  }),
  float: fn('float', ([x]) => Number(str(x) ?? x)),
  bool: fn('bool', ([x]) => truthy(x ?? false)),
  list: fn('list', ([x]) => (x === undefined ? [] : copy(iterate(x)))),
  dict: fn('dict', (_a, kwargs) => derived(new PyDict(kwargs))),
};

/** A new list of the items, checked against the item limit (a list of a list is a copy of it). */
function copy(items: Value[]): Value[] {
  checkItems(items.length);
  return [...items];
}

function derived(d: PyDict): PyDict {
  d.derived = true;
  return d;
}
