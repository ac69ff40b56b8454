import { PyError, PyFunction, isStr, str, typeName, type CallContext, type Value } from '../values';

/**
 * Binding a call's arguments to a standard-library function's parameters, with the TypeErrors Python raises for a
 * call that does not fit (missing, unexpected or repeated arguments, too many positional ones).
 */

export interface Signature {
  name: string;
  /** Positional-or-keyword parameters, in order; the first `required` have no default. */
  params: readonly string[];
  required: number;
  /** Keyword-only parameters (all optional). */
  keywordOnly?: readonly string[];
  /** Further positional arguments are collected (`*args`) instead of refused. */
  varargs?: boolean;
}

export interface Bound {
  get(name: string): Value | undefined;
  /** Positional arguments beyond `params` (with `varargs`). */
  rest: Value[];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function quoteList(names: string[]): string {
  const q = names.map((n) => `'${n}'`);
  if (q.length === 1) return q[0];
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(', ')}, and ${q[q.length - 1]}`;
}

export function bind(sig: Signature, args: Value[], kwargs: Map<string, Value>): Bound {
  const values = new Map<string, Value>();
  const positional = sig.varargs ? args.slice(0, sig.params.length) : args;
  if (positional.length > sig.params.length) {
    const takes = sig.required === sig.params.length ? `${sig.params.length}` : `from ${sig.required} to ${sig.params.length}`;
    const given = positional.length;
    throw new PyError('TypeError', `${sig.name}() takes ${takes} positional argument${sig.params.length === 1 && sig.required === 1 ? '' : 's'} but ${given} ${given === 1 ? 'was' : 'were'} given`);
  }
  positional.forEach((v, i) => values.set(sig.params[i], v));
  for (const [key, v] of kwargs) {
    if (!sig.params.includes(key) && !(sig.keywordOnly ?? []).includes(key)) {
      throw new PyError('TypeError', `${sig.name}() got an unexpected keyword argument '${key}'`);
    }
    if (values.has(key)) throw new PyError('TypeError', `${sig.name}() got multiple values for argument '${key}'`);
    values.set(key, v);
  }
  const missing = sig.params.slice(0, sig.required).filter((p) => !values.has(p));
  if (missing.length > 0) {
    throw new PyError('TypeError', `${sig.name}() missing ${plural(missing.length, 'required positional argument')}: ${quoteList(missing)}`);
  }
  return { get: (name) => values.get(name), rest: sig.varargs ? args.slice(sig.params.length) : [] };
}

/** A standard-library function: its arguments bound to `sig` before `body` runs. */
export function pyFunction(sig: Signature, body: (a: Bound, ctx: CallContext) => Value): PyFunction {
  return new PyFunction(sig.name, (args, kwargs, ctx) => body(bind(sig, args, kwargs), ctx));
}

/** A str argument, or Python's TypeError for another type (`what` completes "… must be str, not int"). */
export function strArgument(v: Value | undefined, message: (type: string) => string): string {
  if (v !== undefined && isStr(v)) return str(v)!;
  throw new PyError('TypeError', message(typeName(v ?? null)));
}

/** An int argument (bool counts, as in Python), or a TypeError. */
export function intArgument(v: Value | undefined, fallback: number, what: string): number {
  if (v === undefined) return fallback;
  if (typeof v === 'boolean') return Number(v);
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw new PyError('TypeError', `'${typeName(v)}' object cannot be interpreted as an integer${what ? ` (${what})` : ''}`);
}
