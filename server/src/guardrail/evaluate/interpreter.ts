/*
 * The one import circle left in server/src: interpreter.ts, enumerate.ts and quantifiers.ts import each other. It
 * is the rule language's own eval/apply recursion: an expression (evaluated here) may call a predicate, whose body's
 * conditions are enumerated over variable assignments (enumerate.ts), or hold a quantifier (quantifiers.ts), whose
 * body is enumerated the same way; each condition is an expression again. ARCHITECTURE.md and its layering test
 * allow this circle and no other.
 */
import type { Expr } from '../ast';
import { memberAccess } from './builtins';
import type { Domain, EvaluationContext, Globals } from './context';
import { assignments } from './enumerate';
import { hasFlow, isParent } from './flow';
import { Matcher, PatternError, matcherFor } from './patterns';
import { arithmetic, compare, contains, iterate, keyAccess, negate } from './pyops';
import { evaluateQuantifier } from './quantifiers';
import type { Mark } from './ranges';
import { pyFindIter } from './regex';
import { Refused } from './stdlib/refused';
import { stringValue } from './strings';
import { NOP, PyError, PyFunction, PyTuple, PyDict, Unknown, isStr, pyEquals, str, truthy, typeName, type CallContext, type Value } from './values';

/**
 * Evaluates rule-body expressions with the analyzer's semantics: a value that depends on an unbound variable is
 * `Unknown` (so the enumeration binds more variables), `and`/`or` evaluate both sides and then decide with
 * False/True winning over Unknown, typed variables register their domains, and every range marked here is also
 * marked on the interpreter that started this one (predicate, quantifier and constant evaluations report into the
 * rule's error).
 */
export class Interpreter {
  readonly ranges: Mark[] = [];
  /** The free variables this evaluation declared (made on the first one: most evaluations declare none). */
  domains: Map<string, Domain> | null = null;

  constructor(
    /** The variable store; a list comprehension swaps it for a copy, as the analyzer does. */
    public store: Map<string, Value>,
    readonly globals: Globals,
    readonly ctx: EvaluationContext,
    readonly parent: Interpreter | null,
    readonly partial = true,
  ) {}

  mark(obj: Value, start?: number, end?: number, each?: boolean): void {
    const mark: Mark = each ? { obj: obj as object, start, end, each } : { obj: obj as object, start, end };
    for (let i: Interpreter | null = this; i; i = i.parent) i.ranges.push(mark);
  }

  /** A rule or quantifier body: lines AND-ed, stopping at the first False. True, False, Unknown, or null (not boolean). */
  evalBody(lines: Expr[], topLevel = false): boolean | typeof Unknown | null {
    const results: Value[] = [];
    for (const line of lines) {
      if (topLevel) this.ctx.line = line;
      const r = this.eval(line);
      if (r === false) return false;
      if (r !== NOP) results.push(r);
    }
    return conjunction(results);
  }

  eval(e: Expr): Value {
    switch (e.kind) {
      case 'string': return stringValue(this.ctx.source, e);
      case 'number': return e.value;
      case 'bool': return e.value;
      case 'none': return null;
      case 'name': return usable(this.identifier(e.name));
      case 'typed':
        this.declare(e.variable.name, { type: e.type.name, values: null });
        return true;
      case 'assign':
        this.store.set(e.target.name, this.eval(e.value));
        return NOP;
      case 'binary': return this.binary(e);
      case 'unary': {
        const v = this.eval(e.operand);
        if (v === Unknown) return Unknown;
        if (e.op === 'not') return !truthy(v);
        return negate(e.op, v);
      }
      case 'ternary': {
        const c = this.eval(e.condition);
        if (c === Unknown) return Unknown;
        return truthy(c) ? this.eval(e.then) : this.eval(e.otherwise);
      }
      case 'member': return usable(this.member(e));
      case 'index': {
        const obj = this.eval(e.object);
        const key = this.eval(e.index);
        if (obj === Unknown || key === Unknown) return Unknown;
        return keyAccess(obj, key);
      }
      case 'call': return this.call(e);
      case 'tuple': return new PyTuple(e.items.map((x) => this.eval(x)));
      case 'list': return e.items.map((x) => this.eval(x));
      case 'object': {
        const d = new PyDict();
        d.derived = true;
        for (const entry of e.entries) d.map.set(entry.key, this.eval(entry.value));
        return d;
      }
      case 'comprehension': return this.comprehension(e);
      case 'tool': return this.pattern(e);
      case 'quantifier': return evaluateQuantifier(this, e);
      case 'wildcard':
        throw new PyError('ValueError', 'You cannot use wildcards outside of semantic patterns (e.g. tool:abc(*, 12))');
      case 'valueRef':
        throw new PyError('ValueError', 'You cannot use value references outside of semantic patterns (e.g. tool:abc(<VALUE>, 12))');
      case 'placeholder':
        throw new PyError('TemplateError', `the template placeholder {{ ${e.name} }} must be filled in before the rules can run`);
      case 'error':
        throw new PyError('SyntaxError', 'this line has a syntax error');
    }
  }

  private member(e: Extract<Expr, { kind: 'member' }>): Value {
    const obj = this.reference(e.object);
    if (obj === Unknown) return Unknown;
    return memberAccess(obj, e.member.name);
  }

  /** A callee or the object of a member access: there a refused name may stand (it is refused when called or used). */
  private reference(e: Expr): Value {
    if (e.kind === 'name') return this.identifier(e.name);
    if (e.kind === 'member') return this.member(e);
    return this.eval(e);
  }

  private pattern(e: Extract<Expr, { kind: 'tool' }>): Matcher {
    try {
      return matcherFor(e, (s) => stringValue(this.ctx.source, s));
    } catch (err) {
      if (err instanceof PatternError) throw new PyError('ValueError', err.message);
      throw err;
    }
  }

  /** Registers a free variable's domain unless it is bound already. */
  declare(name: string, domain: Domain): void {
    if (!this.store.has(name) && !this.globals.has(name)) (this.domains ??= new Map()).set(name, domain);
  }

  identifier(name: string): Value {
    if (this.store.has(name)) return this.store.get(name)!;
    const binding = this.globals.get(name);
    if (!binding) {
      if (!this.partial) throw new PyError('ValueError', `Failed to resolve variable ${name}, no binding found`);
      return Unknown;
    }
    switch (binding.kind) {
      case 'value': return binding.value;
      case 'constant': {
        const value = binding.statement.body[0];
        if (!value) return null;
        const child = new Interpreter(new Map(), this.globals, this.ctx, this);
        const r = child.eval(value);
        return r === NOP ? null : r;
      }
      case 'predicate': return binding as unknown as Value;
      case 'quantifier': return binding as unknown as Value;
      case 'type': return binding as unknown as Value;
    }
  }

  private binary(e: Extract<Expr, { kind: 'binary' }>): Value {
    const op = e.op;
    if (op === 'in' && e.left.kind === 'typed') {
      const values = this.eval(e.right);
      if (values !== Unknown) this.declare(e.left.variable.name, { type: e.left.type.name, values });
      return true;
    }
    if (op === '->' || op === '~>') {
      const name = (x: Expr): string | null => (x.kind === 'name' ? x.name : x.kind === 'typed' ? x.variable.name : null);
      const l = name(e.left);
      const r = name(e.right);
      if (l === null || r === null) throw new PyError('ValueError', `The '${op}' operator can only be used with Identifier or TypedIdentifier.`);
      if (e.left.kind === 'typed') this.declare(l, { type: e.left.type.name, values: null });
      if (e.right.kind === 'typed') this.declare(r, { type: e.right.type.name, values: null });
      const a = this.identifier(l);
      const b = this.identifier(r);
      if (a === Unknown || b === Unknown) return Unknown;
      return op === '->' ? hasFlow(a, b) : isParent(a, b);
    }
    const left = this.eval(e.left);
    const right = this.eval(e.right);
    if (op === 'and') {
      if (left === false || right === false) return false;
      if (left === Unknown || right === Unknown) return Unknown;
      return truthy(left) ? right : left;
    }
    if (op === 'or') {
      if (left === true || right === true) return true;
      if (left === Unknown || right === Unknown) return Unknown;
      return truthy(left) ? left : right;
    }
    if (left === Unknown || right === Unknown) return Unknown;
    switch (op) {
      case 'contains_only': return iterate(right).every((x) => contains(left, x));
      case '+': case '-': case '*': case '/': case '%': case '**': return arithmetic(op, left, right);
      case '==': return pyEquals(left, right);
      case '!=': return !pyEquals(left, right);
      case '<': case '>': case '<=': case '>=': return compare(op, left, right);
      case 'is': return this.is(e, left, right);
      case 'in': return this.in(left, right);
    }
    throw new PyError('NotImplementedError', `Unknown binary operator: ${op}`);
  }

  private is(e: Extract<Expr, { kind: 'binary' }>, left: Value, right: Value): Value {
    if (e.right.kind === 'unary' && e.right.op === 'not' && e.right.operand.kind === 'none') return left !== null;
    if (right instanceof Matcher) return right.match(left);
    if (left === right) return true;
    if (typeof left === 'string' && typeof right === 'string') return left === right;
    return false;
  }

  private in(left: Value, right: Value): Value {
    if (right === null) return false;
    if (Array.isArray(left)) return left.map((x) => contains(right, x));
    if (isStr(left) && isStr(right)) {
      // The analyzer marks the matches of the left side read as a pattern (re.finditer): a plain text is found
      // directly, the same places without the engine's limit on the size of a pattern (a 100 KB needle from a trace).
      const needle = str(left)!;
      const haystack = str(right)!;
      for (const m of isPlainText(needle) ? occurrences(needle, haystack) : pyFindIter(needle, haystack)) this.mark(right, m.start, m.end);
      return haystack.includes(needle);
    }
    return contains(right, left);
  }

  private call(e: Extract<Expr, { kind: 'call' }>): Value {
    const callee = this.reference(e.callee);
    const args = e.args.map((a) => this.eval(a));
    const kwargs = e.kwargs.length === 0 ? NO_KWARGS : new Map<string, Value>();
    for (const k of e.kwargs) kwargs.set(k.name.name, this.eval(k.value));
    if (callee === Unknown || args.some(deepUnknown)) return Unknown;
    for (const v of kwargs.values()) if (deepUnknown(v)) return Unknown;
    const binding = callee as { kind?: string; statement?: unknown; name?: string };
    if (binding && typeof binding === 'object' && binding.kind === 'predicate') {
      return this.predicate(binding as Extract<import('./context').Binding, { kind: 'predicate' }>, args, kwargs);
    }
    if (binding && typeof binding === 'object' && binding.kind === 'quantifier') {
      return new QuantifierValue(binding.name as 'forall' | 'count', kwargs.get('min') ?? args[0] ?? null, kwargs.get('max') ?? args[1] ?? null);
    }
    if (callee instanceof PyFunction) {
      if (!callee.cached) return callee.call(args, kwargs, this.callContext());
      // A call on one trace object or one string (the common `detector(out)`, `detector(text)`) is looked up by that
      // object or text without spelling a key.
      const single = args.length === 1 && kwargs.size === 0 ? args[0] : undefined;
      const byObject = single !== undefined && keyedByIdentity(single) ? this.ctx.cache.byObject(callee) : null;
      const text = single !== undefined && isStr(single) ? str(single)! : undefined;
      const byText = text !== undefined ? this.ctx.cache.byText(callee) : null;
      const key = byObject || byText ? null : cacheKey(callee, args, kwargs);
      const hit = byObject ? byObject.get(single as object) : byText ? byText.get(text!) : this.ctx.cache.byKey.get(key!);
      if (hit !== undefined && hit !== null) return hit;
      const value = callee.call(args, kwargs, this.callContext());
      if (byObject) byObject.set(single as object, value);
      else if (byText) byText.set(text!, value);
      else this.ctx.cache.byKey.set(key!, value);
      return value;
    }
    throw new PyError('TypeError', `'${typeName(callee)}' object is not callable`);
  }

  private callContext(): CallContext {
    return { mark: (o, s, en, each) => this.mark(o as Value, s, en, each) };
  }

  private predicate(binding: Extract<import('./context').Binding, { kind: 'predicate' }>, args: Value[], kwargs: Map<string, Value>): Value {
    const globals: Globals = new Map(this.globals);
    const params = binding.statement.params;
    params.forEach((p, i) => {
      if (i < args.length) globals.set(p.name.name, { kind: 'value', value: args[i] });
    });
    for (const [k, v] of kwargs) globals.set(k, { kind: 'value', value: v });
    let found = false;
    assignments(binding.statement.body, globals, this.ctx, this, undefined, (model) => {
      if (model.result === true) {
        found = true;
        return true;
      }
      return false;
    }, false, true);
    return found;
  }

  private comprehension(e: Extract<Expr, { kind: 'comprehension' }>): Value {
    const iterable = this.eval(e.iterable);
    if (iterable === null) return [];
    if (iterable === Unknown) return Unknown;
    const original = new Map(this.store);
    const out: Value[] = [];
    for (const item of iterate(iterable)) {
      this.ctx.tick();
      this.store.set(e.variable.name, item);
      if (e.condition) {
        const c = this.eval(e.condition);
        if (c === Unknown) {
          out.push(Unknown);
          continue;
        }
        if (c !== true) continue;
      }
      out.push(this.eval(e.element));
    }
    this.store = original;
    return out;
  }
}

/** A pattern without any character Python's `re` reads as syntax: it matches its own text, nothing else. */
function isPlainText(pattern: string): boolean {
  return pattern.length > 0 && !/[.^$*+?{}[\]\\|()]/.test(pattern);
}

/** Where `needle` occurs in `haystack`, left to right without overlapping (as re.finditer finds a plain text). */
function occurrences(needle: string, haystack: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) found.push({ start: at, end: at + needle.length });
  return found;
}

/** A value an expression gives: a refused name (from a module that is not evaluated) stops the rule here. */
function usable(v: Value): Value {
  if (v instanceof Refused) throw v.used();
  return v;
}

/** `count(min=…, max=…)` or `forall` as the head of a quantifier block. */
export class QuantifierValue {
  constructor(readonly name: 'forall' | 'count', readonly min: Value, readonly max: Value) {}
}

const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

/** Calls without keyword arguments share this (no builtin changes the map it is given). */
const NO_KWARGS: Map<string, Value> = new Map();

/** Values the cache knows by identity: objects other than strings, lists and dicts (those are keyed by content). */
function keyedByIdentity(v: Value): boolean {
  return v !== null && typeof v === 'object' && !isStr(v) && !Array.isArray(v) && !(v instanceof PyDict);
}

/** The analyzer's FunctionCache key: strings and numbers by value, lists and dicts by content, other objects by identity. */
function cacheKey(f: PyFunction, args: Value[], kwargs: Map<string, Value>): string {
  const keyOf = (v: Value): string => {
    if (v === null || typeof v === 'number' || typeof v === 'boolean') return `#${String(v)}`;
    if (isStr(v)) return JSON.stringify(str(v));
    if (Array.isArray(v)) return `[${v.map(keyOf).join(',')}]`;
    if (v instanceof PyDict) return `{${[...v.map].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, x]) => `${JSON.stringify(k)}:${keyOf(x)}`).join(',')}}`;
    let id = objectIds.get(v as object);
    if (id === undefined) objectIds.set(v as object, (id = nextObjectId++));
    return `@${id}`;
  };
  return `${f.name}(${args.map(keyOf).join(',')};${[...kwargs].map(([k, v]) => `${k}=${keyOf(v)}`).join(',')})`;
}

function deepUnknown(v: Value): boolean {
  return v === Unknown || (Array.isArray(v) && v.some(deepUnknown));
}

/** The analyzer's `eval_all`: all booleans (or Unknown) give False / Unknown / True; anything else is not boolean. */
export function conjunction(results: Value[]): boolean | typeof Unknown | null {
  if (!results.every((r) => typeof r === 'boolean' || r === Unknown)) return null;
  if (results.includes(false)) return false;
  if (results.includes(Unknown)) return Unknown;
  return true;
}

