import type { Expr, Statement } from '../ast';
import type { Globals } from './context';
import { stringValue } from './strings';

/**
 * Text a rule needs in a trace's JSON before it can find anything there: a literal that every violation of the rule
 * contains (`"rm -rf" in out.content`, `call.function.name == "read_file"`). When one is absent from the trace's
 * JSON text, the rule cannot hold on any assignment, and it is not evaluated on that trace.
 *
 * Sound by construction, so it gives up (no literal) on anything it cannot vouch for:
 * - Every condition of the rule's body must be of a form known not to raise on a trace the analyzer's input schema
 *   accepts: a typed variable of an event type, a flow between variables, or a literal compared with (`==`) or
 *   looked up in (`in`) an attribute that every event of that type has. A body with anything else (a call, a
 *   quantifier, `or`, `not`, a constant, an index) might fail or leave a notice on a trace without the literal, and
 *   skipping it would hide that.
 * - A literal is looked up as JSON writes it: only literals without the characters JSON escapes or may escape
 *   (`"`, `\`, `/`, control characters), and only in a text without `\u` escapes (which may spell any character).
 * - A content list with an image chunk makes `"x" in message.content` raise a TypeError: a text that mentions
 *   `image_url` is evaluated in full.
 * What a skipped rule would have reported is nothing, with one exception: a rule that would have run out of its work
 * budget or time limit on the trace reports no notice, since the trace was never evaluated (its verdict is known).
 */

/** The attributes that every event of a type has once the input is read, with no exception on any of them. */
const safePaths: Record<string, string[][]> = {
  ToolOutput: [['content'], ['role']],
  Message: [['content'], ['role']],
  ToolCall: [['function', 'name']],
};

const cache = new WeakMap<Statement, string[]>();

/** The literals every violation of the rule contains in the trace's JSON text; empty when none can be vouched for. */
export function requiredLiterals(rule: Extract<Statement, { kind: 'rule' }>, globals: () => Globals, source: string): string[] {
  let literals = cache.get(rule);
  if (!literals) {
    literals = findLiterals(rule, globals(), source) ?? [];
    cache.set(rule, literals);
  }
  return literals;
}

/**
 * Texts whose presence anywhere in a trace's JSON text makes every rule run there: a `\u` escape (it may spell any
 * character, the literal's among them) and an image chunk (`"x" in message.content` raises on it).
 */
export const evaluatedInFull = ['\\u', 'image_url'];

/** Whether the rule cannot hold on a trace whose JSON text is `text` (a required literal is missing). */
export function cannotHold(literals: string[], text: string): boolean {
  if (!literals.some((literal) => !text.includes(literal))) return false;
  return !evaluatedInFull.some((marker) => text.includes(marker));
}

function findLiterals(rule: Extract<Statement, { kind: 'rule' }>, globals: Globals, source: string): string[] | null {
  const conditions: Expr[] = [];
  const split = (e: Expr): void => {
    if (e.kind === 'binary' && e.op === 'and') {
      split(e.left);
      split(e.right);
    } else conditions.push(e);
  };
  rule.body.forEach(split);
  const types = new Map<string, string>();
  const declare = (e: Expr): boolean => {
    if (e.kind !== 'typed') return false;
    const type = e.type.name;
    const name = e.variable.name;
    if (!(type in safePaths) || globals.get(type)?.kind !== 'type' || globals.has(name)) return false;
    if (types.has(name) && types.get(name) !== type) return false;
    types.set(name, type);
    return true;
  };
  // Declarations first: a condition may use a variable declared by a later one.
  for (const c of conditions) {
    if (c.kind === 'typed' && !declare(c)) return null;
    if (c.kind === 'binary' && (c.op === '->' || c.op === '~>')) {
      for (const side of [c.left, c.right]) if (side.kind === 'typed' && !declare(side)) return null;
    }
  }
  const isVariable = (e: Expr): boolean => e.kind === 'name' && types.has(e.name);
  const isSafePath = (e: Expr): boolean => {
    const path: string[] = [];
    let at = e;
    while (at.kind === 'member') {
      path.unshift(at.member.name);
      at = at.object;
    }
    if (at.kind !== 'name' || !types.has(at.name) || path.length === 0) return false;
    return safePaths[types.get(at.name)!].some((p) => p.length === path.length && p.every((name, i) => name === path[i]));
  };
  const literal = (e: Expr): string | null => {
    if (e.kind !== 'string' || e.prefix !== '') return null;
    const value = stringValue(source, e);
    return isFoundAsWritten(value) ? value : null;
  };
  const literals: string[] = [];
  for (const c of conditions) {
    if (c.kind === 'typed') continue;
    if (c.kind !== 'binary') return null;
    if (c.op === '->' || c.op === '~>') {
      if (![c.left, c.right].every((side) => side.kind === 'typed' || isVariable(side))) return null;
      continue;
    }
    if (c.op === 'in' && isSafePath(c.right)) {
      const value = literal(c.left);
      if (value === null) return null;
      literals.push(value);
      continue;
    }
    if (c.op === '==') {
      const value = isSafePath(c.right) ? literal(c.left) : isSafePath(c.left) ? literal(c.right) : null;
      if (value === null) return null;
      literals.push(value);
      continue;
    }
    return null;
  }
  return literals;
}

/** A non-empty literal with no character that JSON escapes or may escape: it appears as is in any JSON text of it. */
function isFoundAsWritten(value: string): boolean {
  if (value === '') return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x2f || c === 0x5c) return false;
  }
  return true;
}
