import type { Expr } from '../ast';
import { ToolCallEvent, ToolOutputEvent } from './traceObjects';
import { NotEvaluated } from './failure';
import { pyFullMatch } from './regex';
import { PyDict, isStr, str, type Value } from './values';

/**
 * `tool:name` and semantic patterns `tool:name({arg: "regex", n: 3, x: *})`, with the analyzer's matching rules:
 * the tool name and string values are full regex matches (`re.match(p + "$")`, string values with DOTALL and also
 * against the joined text chunks), numbers must be equal and of a compatible type, dicts require their keys, lists
 * match item by item, `*` matches anything. A tool output matches through the call it answers; any other value
 * gives None (so a rule line `x is tool:y` on a message never holds).
 */
export abstract class Matcher {
  abstract match(value: Value): boolean | null;
}

export class ToolPattern extends Matcher {
  constructor(readonly toolName: string, readonly args: Matcher[]) {
    super();
  }
  match(value: Value): boolean | null {
    let v = value;
    if (v instanceof ToolOutputEvent && v.call) v = v.call;
    if (!(v instanceof ToolCallEvent)) return null;
    if (!pyFullMatch(this.toolName, str(v.fn.name) ?? '')) return false;
    if (this.args.length === 0) return true;
    if (this.args.length !== 1) return false;
    return truthyMatch(this.args[0].match(v.fn.args));
  }
}

function truthyMatch(r: boolean | null): boolean {
  return r === true;
}

class DictMatcher extends Matcher {
  constructor(readonly entries: [string, Matcher][]) {
    super();
  }
  match(value: Value): boolean {
    if (!(value instanceof PyDict)) return false;
    for (const [key, m] of this.entries) {
      if (!value.map.has(key)) return false;
      if (!truthyMatch(m.match(value.map.get(key)!))) return false;
    }
    return true;
  }
}

class ListMatcher extends Matcher {
  constructor(readonly items: Matcher[]) {
    super();
  }
  match(value: Value): boolean {
    if (!Array.isArray(value) || value.length !== this.items.length) return false;
    return this.items.every((m, i) => truthyMatch(m.match(value[i])));
  }
}

class ConstantMatcher extends Matcher {
  constructor(readonly value: string | number) {
    super();
  }
  match(value: Value): boolean {
    if (typeof this.value === 'string') {
      if (!isStr(value)) return false;
      const s = str(value)!;
      return s === this.value || pyFullMatch(this.value, s, { dotAll: true });
    }
    // issubclass(type(value), type(pattern)): bool is an int; an int pattern does not take a float.
    if (typeof value === 'boolean') return Number.isInteger(this.value) && Number(value) === this.value;
    if (typeof value !== 'number') return false;
    if (Number.isInteger(this.value) && !Number.isInteger(value)) return false;
    return value === this.value;
  }
}

class WildcardMatcher extends Matcher {
  match(): boolean {
    return true;
  }
}

class ValueMatcher extends Matcher {
  constructor(readonly name: string) {
    super();
  }
  match(): boolean {
    const detector = this.name === 'MODERATED' ? 'moderated' : 'pii';
    throw new NotEvaluated(detector, `<${this.name}> in a semantic pattern calls the ${detector} detector, which needs a model`);
  }
}

/** Raised like the analyzer's "Unsupported semantic pattern" / "Unsupported value type" ValueErrors. */
export class PatternError extends Error {}

export function matcherFor(expr: Expr, stringValue: (e: Extract<Expr, { kind: 'string' }>) => string): Matcher {
  switch (expr.kind) {
    case 'tool':
      return new ToolPattern(expr.toolName.name, (expr.args ?? []).map((a) => matcherFor(a, stringValue)));
    case 'object':
      return new DictMatcher(expr.entries.map((e) => [e.key, matcherFor(e.value, stringValue)]));
    case 'list':
      return new ListMatcher(expr.items.map((e) => matcherFor(e, stringValue)));
    case 'string':
      return new ConstantMatcher(stringValue(expr));
    case 'number':
      return new ConstantMatcher(expr.value);
    case 'wildcard':
      return new WildcardMatcher();
    case 'valueRef':
      if (!['EMAIL_ADDRESS', 'LOCATION', 'PHONE_NUMBER', 'PERSON', 'MODERATED'].includes(expr.name)) {
        throw new PatternError(`Unsupported value type: ${expr.name}`);
      }
      return new ValueMatcher(expr.name);
    default:
      throw new PatternError('Unsupported semantic pattern');
  }
}

