import { checkItems, checkLength } from './limits';
import { Contents } from './traceObjects';
import { Refused } from './stdlib/refused';
import { PyDict, PyError, PyObject, PyTuple, codePointLength, isStr, pyEquals, pyStr, str, truthy, typeName, type Value } from './values';

/** Python's operators and iteration on run-time values (what the analyzer delegates to Python). */

export function iterate(v: Value): Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  if (isStr(v)) return characters(str(v)!);
  if (v instanceof PyDict) return [...v.map.keys()];
  if (v instanceof Contents) return v.chunks;
  throw new PyError('TypeError', `'${typeName(v)}' object is not iterable`);
}

/** Python `item in container` (not the analyzer's string special case, which the interpreter handles). */
export function contains(container: Value, item: Value): boolean {
  if (isStr(container)) {
    const s = str(item);
    if (s === undefined) throw new PyError('TypeError', `'in <string>' requires string as left operand, not ${typeName(item)}`);
    return str(container)!.includes(s);
  }
  if (container instanceof PyDict) {
    const k = str(item);
    return k !== undefined && container.map.has(k);
  }
  if (container instanceof Contents) return container.contains(item);
  if (Array.isArray(container) || container instanceof PyTuple) return iterate(container).some((x) => pyEquals(x, item));
  throw new PyError('TypeError', `argument of type '${typeName(container)}' is not iterable`);
}

/** A string's characters (code points) as a list, checked against the item limit first. */
function characters(s: string): string[] {
  if (s.length > 1000) checkItems(codePointLength(s));
  return [...s];
}

/** The `index`-th character (code point) of `s`, counted from the end when negative; undefined past either end. */
function characterAt(s: string, index: number): string | undefined {
  let i = index < 0 ? codePointLength(s) + index : index;
  if (i < 0) return undefined;
  for (const ch of s) if (i-- === 0) return ch;
  return undefined;
}

function numeric(v: Value): v is number | boolean {
  return typeof v === 'number' || typeof v === 'boolean';
}

export function compare(op: '<' | '>' | '<=' | '>=', a: Value, b: Value): boolean {
  let c: number;
  if (numeric(a) && numeric(b)) c = Number(a) - Number(b);
  else if (isStr(a) && isStr(b)) c = str(a)! < str(b)! ? -1 : str(a)! > str(b)! ? 1 : 0;
  else if ((Array.isArray(a) && Array.isArray(b)) || (a instanceof PyTuple && b instanceof PyTuple)) {
    const x = iterate(a);
    const y = iterate(b);
    let i = 0;
    while (i < x.length && i < y.length && pyEquals(x[i], y[i])) i++;
    if (i < x.length && i < y.length) return compare(op, x[i], y[i]);
    c = x.length - y.length;
  } else {
    throw new PyError('TypeError', `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  }
  switch (op) {
    case '<': return c < 0;
    case '>': return c > 0;
    case '<=': return c <= 0;
    case '>=': return c >= 0;
  }
}

function unsupported(op: string, a: Value, b: Value): PyError {
  return new PyError('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

export function arithmetic(op: '+' | '-' | '*' | '/' | '%' | '**', a: Value, b: Value): Value {
  if (numeric(a) && numeric(b)) {
    const x = Number(a);
    const y = Number(b);
    switch (op) {
      case '+': return x + y;
      case '-': return x - y;
      case '*': return x * y;
      case '/':
        if (y === 0) throw new PyError('ZeroDivisionError', 'division by zero');
        return x / y;
      case '%':
        if (y === 0) throw new PyError('ZeroDivisionError', 'integer modulo by zero');
        return ((x % y) + y) % y;
      case '**': return x ** y;
    }
  }
  if (op === '+' && isStr(a) && isStr(b)) {
    checkLength(str(a)!.length + str(b)!.length);
    return str(a)! + str(b)!;
  }
  if (op === '+' && Array.isArray(a) && Array.isArray(b)) {
    checkItems(a.length + b.length);
    return [...a, ...b];
  }
  if (op === '+' && a instanceof PyTuple && b instanceof PyTuple) {
    checkItems(a.items.length + b.items.length);
    return new PyTuple([...a.items, ...b.items]);
  }
  if (op === '*' && isStr(a) && typeof b === 'number') {
    const times = Math.max(0, Math.trunc(b));
    if (str(a)!.length > 0) checkLength(str(a)!.length * times);
    return str(a)!.repeat(times);
  }
  if (op === '*' && Array.isArray(a) && typeof b === 'number') return repeatList(a, Math.max(0, Math.trunc(b)));
  if (op === '%' && isStr(a)) return percentFormat(str(a)!, b);
  throw unsupported(op, a, b);
}

/** `list * n`, its size checked before it is made. */
function repeatList(items: Value[], times: number): Value[] {
  if (items.length === 0 || times === 0) return [];
  checkItems(items.length * times);
  const out = new Array<Value>(items.length * times);
  for (let t = 0, k = 0; t < times; t++) for (let i = 0; i < items.length; i++) out[k++] = items[i];
  return out;
}

function percentFormat(format: string, args: Value): string {
  const list = args instanceof PyTuple ? args.items : [args];
  let i = 0;
  return format.replace(/%([sdrf%])/g, (_, c: string) => {
    if (c === '%') return '%';
    const v = list[i++] ?? null;
    return c === 'd' ? String(Math.trunc(Number(v))) : pyStr(v as Value);
  });
}

export function negate(op: '-' | '+', v: Value): Value {
  if (!numeric(v)) throw new PyError('TypeError', `bad operand type for unary ${op}: '${typeName(v)}'`);
  return op === '-' ? -Number(v) : Number(v);
}

export function not(v: Value): boolean {
  return !truthy(v);
}

/** Python `len`. */
export function length(v: Value): number {
  if (isStr(v)) return codePointLength(str(v)!);
  if (Array.isArray(v)) return v.length;
  if (v instanceof PyDict) return v.map.size;
  if (v instanceof PyTuple) return v.items.length;
  if (v instanceof Contents) return v.chunks.length;
  throw new PyError('TypeError', `object of type '${typeName(v)}' has no len()`);
}

/** `obj[key]` as the analyzer's KeyAccess does it. */
export function keyAccess(obj: Value, key: Value): Value {
  if (obj instanceof Refused) throw obj.used();
  // Objects with __getitem__ (a Match: m[1]) take an int key; anything else needs keys, as the analyzer's KeyAccess.
  if (typeof key === 'number' && Number.isInteger(key) && obj instanceof PyObject && 'getItem' in obj) {
    return (obj as PyObject & { getItem(k: Value): Value }).getItem(key);
  }
  if (typeof key === 'number' && Number.isInteger(key) && (isStr(obj) || Array.isArray(obj) || obj instanceof PyTuple || obj instanceof Contents || obj instanceof PyDict)) {
    if (obj instanceof PyDict) throw new PyError('KeyError', String(key));
    if (isStr(obj)) {
      const ch = characterAt(str(obj)!, key);
      if (ch === undefined) throw new PyError('IndexError', `${typeName(obj)} index out of range`);
      return ch;
    }
    const items = iterate(obj);
    const i = key < 0 ? items.length + key : key;
    if (i < 0 || i >= items.length) throw new PyError('IndexError', `${typeName(obj)} index out of range`);
    return items[i];
  }
  if (!(obj instanceof PyDict)) {
    throw new PyError('TypeError', `Object ${pyStr(obj)} has no keys (type: <class '${typeName(obj)}'>)`);
  }
  const k = str(key);
  if (k === undefined || !obj.map.has(k)) {
    throw new PyError('KeyError', `"Object ${pyStr(obj)} has no key ${pyStr(key)} (type: <class 'dict'>)"`);
  }
  return obj.map.get(k)!;
}

