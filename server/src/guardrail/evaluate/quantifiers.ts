import type { Expr } from '../ast';
import { assignments } from './enumerate';
import { Interpreter, QuantifierValue } from './interpreter';
import { PyError, Unknown, typeName, type Value } from './values';

/**
 * `forall:`, `count(min=, max=):` and their negations. Like the analyzer, a quantifier whose body uses a variable
 * of the enclosing rule that is not bound yet is Unknown (so the rule binds it first); the body's own variables
 * range over the trace, and the enclosing bindings are visible as globals. `count` with only `min` stops at the
 * min-th match; it also adds the ranges of the matches it counted.
 */
export function evaluateQuantifier(interpreter: Interpreter, e: Extract<Expr, { kind: 'quantifier' }>): Value {
  let head = interpreter.eval(e.head);
  if (head === Unknown) return Unknown;
  const binding = head as { kind?: string; name?: string };
  if (binding && typeof binding === 'object' && binding.kind === 'quantifier') head = new QuantifierValue(binding.name as 'forall' | 'count', null, null);
  if (!(head instanceof QuantifierValue)) throw new PyError('AttributeError', `'${typeName(head)}' object has no attribute 'eval'`);
  for (const name of capturedVariables(e.body)) {
    if (!interpreter.store.has(name) && !interpreter.globals.has(name)) return Unknown;
  }
  const globals = new Map(interpreter.globals);
  for (const [k, v] of interpreter.store) globals.set(k, { kind: 'value', value: v });
  const result = head.name === 'forall' ? forall(interpreter, e.body, globals) : count(interpreter, head, e.body, globals);
  return e.negated ? !result : result;
}

function forall(interpreter: Interpreter, body: Expr[], globals: Map<string, import('./context').Binding>): boolean {
  let holds = true;
  assignments(body, globals, interpreter.ctx, interpreter, undefined, (m) => {
    if (!m.result) {
      holds = false;
      return true;
    }
    return false;
  });
  return holds;
}

function count(interpreter: Interpreter, q: QuantifierValue, body: Expr[], globals: Map<string, import('./context').Binding>): boolean {
  const min = typeof q.min === 'number' ? q.min : null;
  const max = typeof q.max === 'number' ? q.max : null;
  let matches = 0;
  let verdict: boolean | null = null;
  assignments(body, globals, interpreter.ctx, interpreter, undefined, (m) => {
    if (m.result) {
      matches++;
      for (const r of m.ranges) interpreter.ranges.push(r);
    }
    if (max !== null && matches > max) {
      verdict = false;
      return true;
    }
    if (min !== null && max === null && matches >= min) {
      verdict = true;
      return true;
    }
    return false;
  }, false, true);
  if (verdict !== null) return verdict;
  if (min !== null && matches < min) return false;
  return true;
}

/** Names a block uses but does not declare as typed variables (the analyzer's CapturedVariableCollector). */
function capturedVariables(body: Expr[]): Set<string> {
  const used = new Set<string>();
  const declared = new Set<string>();
  const stack: Expr[] = [...body];
  while (stack.length > 0) {
    const e = stack.pop()!;
    switch (e.kind) {
      case 'name': used.add(e.name); break;
      case 'typed': declared.add(e.variable.name); break;
      case 'assign': used.add(e.target.name); stack.push(e.value); break;
      case 'binary': stack.push(e.left, e.right); break;
      case 'unary': stack.push(e.operand); break;
      case 'ternary': stack.push(e.then, e.condition, e.otherwise); break;
      case 'member': stack.push(e.object); break;
      case 'index': stack.push(e.object, e.index); break;
      case 'call': stack.push(e.callee, ...e.args, ...e.kwargs.map((k) => k.value)); break;
      case 'tuple': case 'list': stack.push(...e.items); break;
      case 'comprehension':
        declared.add(e.variable.name);
        stack.push(e.element, e.iterable);
        if (e.condition) stack.push(e.condition);
        break;
      case 'object': stack.push(...e.entries.map((x) => x.value)); break;
      case 'tool': stack.push(...(e.args ?? [])); break;
      case 'quantifier': stack.push(e.head, ...e.body); break;
      default: break;
    }
  }
  for (const d of declared) used.delete(d);
  return used;
}

