import { childExprs, type Expr } from '../ast';
import { CallCache, EvaluationContext, type Domain } from './context';
import { assignments } from './enumerate';
import { buildGlobals, DEFAULT_BUDGET, loadFailure, nestingDepth, MAX_TRACE_DEPTH, raiseCanEvaluate, type RuleStatement } from './evaluator';
import { BudgetExceeded, NotEvaluated, TimeLimitExceeded, engineError } from './failure';
import { buildInput, type TraceInput } from './input';
import { Interpreter } from './interpreter';
import { bindingAddresses, type VariableBinding } from './ranges';
import { Contents, EventObject, MessageEvent, ToolCallEvent, ToolOutputEvent, toJson } from './traceObjects';
import { PyDict, PyError, PyObject, PyTuple, Unknown, isStr, pyNumber, str, typeName, type Value } from './values';
export { buildInput } from './input';
import type { RuleModel } from '../model';

/**
 * "Why not here?": a rule evaluated with one trace element (an event, or a call inside a message) bound to the rule's
 * first free variable of its type, by the evaluator's own enumeration of the other variables. The answer is whether
 * the rule would fire there, and for the assignment that got furthest (the most conditions held), the first
 * condition that was false and the values it compared: the values the evaluator computed, recorded as it evaluated
 * that assignment again. It never decides anything the evaluator would not.
 */

export interface ExplainedValue {
  /** The expression as written in the rule file. */
  source: string;
  start: number;
  end: number;
  /** The value, written as Python would (shortened). */
  value: string;
  /** Where the value is in the trace, when it is a trace element or a string of the trace. */
  address?: string;
}

export interface FalseCondition {
  /** The top-level line of the rule's body that was false. */
  line: { start: number; end: number; index: number };
  /** The innermost part of it that decided (a comparison, a call, a `not`), with the values it compared. */
  part: { start: number; end: number; source: string; operator?: string };
  values: ExplainedValue[];
}

export interface Explanation {
  ruleIndex: number;
  /** The variable the element was bound to and its type; null when no free variable of the rule has its type. */
  variable: { name: string; type: string; start: number; end: number } | null;
  /** The element's type, as the rule language names it (Message, ToolCall, ToolOutput, …). */
  elementType: string;
  wouldFire: boolean;
  /** The assignment the answer is about: the one that fires, or the one that got furthest. */
  bindings: VariableBinding[];
  /** Conditions (top-level lines of the body) that held for it before the false one. */
  held: number;
  falseCondition?: FalseCondition;
  /** Assignments tried with the element bound. */
  assignments: number;
  /** Why there is no answer, or only part of one (the rule raises, needs a detector, or ran out of its budget). */
  problem?: string;
}

export interface ExplainOptions {
  parameters?: Record<string, unknown>;
  budget?: number;
  timeLimitMs?: number;
}

/** The trace element an address names: `messages.3` (an event) or `messages.3.tool_calls.0` (a call in a message). */
export function elementAt(input: TraceInput, address: string): EventObject | undefined {
  const match = /^messages\.(\d+)(?:\.tool_calls\.(\d+))?$/.exec(address);
  if (!match) return undefined;
  const event = input.events[Number(match[1])];
  if (match[2] === undefined) return event instanceof EventObject ? event : undefined;
  return event instanceof MessageEvent ? event.toolCalls?.[Number(match[2])] : undefined;
}

/** A trace element "why not here?" can bind: its address, its type as rules name it, and a short label. */
export interface TraceElement {
  address: string;
  typeName: string;
  label: string;
}

/** A trace's events and the calls inside its messages, in the order of the trace. */
export function traceElements(input: TraceInput): TraceElement[] {
  const out: TraceElement[] = [];
  input.events.forEach((event, index) => {
    if (!(event instanceof EventObject)) return;
    const role = event instanceof MessageEvent ? str(event.role) : undefined;
    const answered = event instanceof ToolOutputEvent && event.call ? ` of ${callName(event.call)}` : '';
    out.push({ address: `messages.${index}`, typeName: event.typeName, label: `#${index} ${event.typeName}${role !== undefined ? ` (${role.slice(0, 40)})` : ''}${answered}` });
    if (!(event instanceof MessageEvent)) return;
    (event.toolCalls ?? []).forEach((call, c) => {
      out.push({ address: `messages.${index}.tool_calls.${c}`, typeName: call.typeName, label: `#${index} ToolCall ${callName(call)}` });
    });
  });
  return out;
}

function callName(call: ToolCallEvent): string {
  return str(call.fn.name)?.slice(0, 80) ?? '(unnamed)';
}

/** The rule's free typed variables, in the order the body declares them (`(x: T) in expr` ranges over a value: left out). */
export function freeVariables(rule: RuleStatement): { name: string; type: string; start: number; end: number }[] {
  const found: { name: string; type: string; start: number; end: number }[] = [];
  // A quantifier's variables are its own: each of its evaluations binds them anew.
  const stack: Expr[] = [...rule.body].reverse();
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.kind === 'quantifier') continue;
    if (e.kind === 'typed' && !found.some((v) => v.name === e.variable.name)) found.push({ name: e.variable.name, type: e.type.name, start: e.start, end: e.end });
    // `(x: T) in expr` ranges over a value, not over the trace: left out.
    const children = e.kind === 'binary' && e.op === 'in' && e.left.kind === 'typed' ? [e.right] : childExprs(e);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return found;
}

export function rulesOf(model: Pick<RuleModel, 'program'>): RuleStatement[] {
  return model.program.statements.filter((s): s is RuleStatement => s.kind === 'rule');
}

/** Explains rule `ruleIndex` of the file on the trace element at `address` (see elementAt). */
export function explainRule(model: Pick<RuleModel, 'text' | 'program' | 'syntaxProblems' | 'semanticProblems'>, trace: unknown, ruleIndex: number, address: string, options: ExplainOptions = {}): Explanation {
  const rule = rulesOf(model)[ruleIndex];
  const base: Explanation = { ruleIndex, variable: null, elementType: '', wouldFire: false, bindings: [], held: 0, assignments: 0 };
  if (!rule) return { ...base, problem: `the rule file has no rule ${ruleIndex + 1}` };
  const notLoaded = loadFailure(model);
  if (notLoaded) return { ...base, problem: notLoaded.message };
  if (nestingDepth(trace, MAX_TRACE_DEPTH) > MAX_TRACE_DEPTH) return { ...base, problem: `the trace nests values more than ${MAX_TRACE_DEPTH} levels deep` };
  let input: TraceInput;
  try {
    input = buildInput(trace);
  } catch (e) {
    return { ...base, problem: `the trace cannot be read as the analyzer reads it: ${(e instanceof PyError ? e : engineError(e)).detail}` };
  }
  const element = elementAt(input, address);
  if (!element) return { ...base, problem: `${address} is not an event or a tool call of the trace` };
  base.elementType = element.typeName;
  const variable = freeVariables(rule).find((v) => v.type === element.typeName) ?? null;
  if (!variable) return { ...base, problem: `no variable of rule ${ruleIndex + 1} is a ${element.typeName}` };
  base.variable = variable;

  const globals = buildGlobals(model.program.statements, options.parameters ?? {});
  const ctx = new EvaluationContext(input, new CallCache(), model.text, options.budget ?? DEFAULT_BUDGET, () => false,
    performance.now() + (options.timeLimitMs ?? Infinity), options.timeLimitMs ?? Infinity);
  const canEvaluate = raiseCanEvaluate(rule, globals, ctx);
  const declared = new Map<string, Domain>([[variable.name, { type: variable.type, values: [element] }]]);
  let firing: Map<string, Value> | undefined;
  let best: { assignment: Map<string, Value>; line: number } | undefined;
  let tried = 0;
  let problem: string | undefined;
  try {
    assignments(rule.body, globals, ctx, null, canEvaluate, (m) => {
      tried++;
      if (m.result === true) {
        firing = m.assignment;
        return true;
      }
      const line = ctx.line ? rule.body.indexOf(ctx.line) : -1;
      if (!best || line > best.line) best = { assignment: m.assignment, line };
      return false;
    }, true, false, declared);
  } catch (e) {
    if (e instanceof NotEvaluated) problem = `it ${e.verb} ${e.detector}, which ${e.reason}`;
    else if (e instanceof BudgetExceeded) problem = `it stopped after ${e.budget.toLocaleString('en-US')} steps (the work budget) before it was decided`;
    else if (e instanceof TimeLimitExceeded) problem = `it stopped at its time limit (${e.limitMs} ms) before it was decided`;
    else if (e instanceof RangeError && /call stack/.test(e.message)) problem = 'RecursionError: maximum recursion depth exceeded';
    else {
      const raised = e instanceof PyError ? e : engineError(e);
      problem = `the rule raises ${raised.pyType}: ${raised.detail.replace(/\.$/, '')}, as the analyzer would (its whole evaluation on this trace fails)`;
    }
  }
  const result: Explanation = { ...base, assignments: tried, ...(problem ? { problem } : {}) };
  if (firing) return { ...result, wouldFire: true, bindings: bindingAddresses(firing, input), held: rule.body.length };
  if (!best) return result;
  result.bindings = bindingAddresses(best.assignment, input);
  if (problem) return result;
  return { ...result, ...replay(rule, best.assignment, globals, input, model.text, options) };
}

/** Evaluates the best assignment again, recording every value, and reads off the first false line and what it compared. */
function replay(rule: RuleStatement, assignment: Map<string, Value>, globals: ReturnType<typeof buildGlobals>, input: TraceInput, text: string, options: ExplainOptions): Pick<Explanation, 'held' | 'falseCondition'> {
  const store = new Map(assignment);
  // Names the body assigns (`x := …`) are made again as the lines run.
  for (const line of rule.body) if (line.kind === 'assign') store.delete(line.target.name);
  const ctx = new EvaluationContext(input, new CallCache(), text, options.budget ?? DEFAULT_BUDGET, () => false);
  const recorder = new RecordingInterpreter(store, globals, ctx);
  let result: ReturnType<Interpreter['evalBody']>;
  try {
    result = recorder.evalBody(rule.body, true);
  } catch {
    return { held: 0 };
  }
  const index = ctx.line ? rule.body.indexOf(ctx.line) : -1;
  if (result !== false || index < 0) return { held: Math.max(0, index) };
  const line = rule.body[index];
  const part = decidingPart(line, recorder.values);
  const values = comparedValues(part, recorder, text, input);
  return {
    held: index,
    falseCondition: {
      line: { start: line.start, end: line.end, index },
      part: { start: part.start, end: part.end, source: text.slice(part.start, part.end), ...(part.kind === 'binary' ? { operator: part.op } : part.kind === 'unary' ? { operator: part.op } : {}) },
      values,
    },
  };
}

/** An interpreter that keeps the last value of every expression it evaluates (the rule's own line evaluations only). */
class RecordingInterpreter extends Interpreter {
  readonly values = new Map<Expr, Value>();

  constructor(store: Map<string, Value>, globals: ReturnType<typeof buildGlobals>, ctx: EvaluationContext) {
    super(store, globals, ctx, null);
  }

  override eval(e: Expr): Value {
    const value = super.eval(e);
    this.values.set(e, value);
    return value;
  }
}

/** The part of a false line that made it false: down through `and`, `or` and parentheses to a comparison, a call or a `not`. */
function decidingPart(line: Expr, values: Map<Expr, Value>): Expr {
  let current = line;
  for (;;) {
    // `and` is false when a side is False (both are evaluated): the first such side decided.
    if (current.kind === 'binary' && current.op === 'and') {
      current = values.get(current.left) === false ? current.left : current.right;
      continue;
    }
    return current;
  }
}

/** The values a deciding part compared: both sides of a comparison, the operand of `not`, a call's arguments and result. */
function comparedValues(part: Expr, recorder: RecordingInterpreter, text: string, input: TraceInput): ExplainedValue[] {
  const show = (e: Expr, value: Value | undefined): ExplainedValue => describe(text.slice(e.start, e.end), e.start, e.end, value, input);
  const recorded = (e: Expr) => recorder.values.get(e);
  switch (part.kind) {
    case 'binary': {
      if (part.op === '->' || part.op === '~>') {
        const name = (x: Expr) => (x.kind === 'name' ? x.name : x.kind === 'typed' ? x.variable.name : '');
        return [part.left, part.right].map((x) => show(x, recorder.store.get(name(x))));
      }
      if (part.op === 'is' && part.right.kind === 'tool') return [show(part.left, recorded(part.left)), { source: text.slice(part.right.start, part.right.end), start: part.right.start, end: part.right.end, value: 'a call of that tool (by its name, as a regex)' }];
      return [show(part.left, recorded(part.left)), show(part.right, recorded(part.right))];
    }
    case 'unary': return [show(part.operand, recorded(part.operand))];
    case 'call': return [...part.args.map((a) => show(a, recorded(a))), show(part, recorded(part))];
    default: return [show(part, recorded(part))];
  }
}

const MAX_SHOWN = 160;

function describe(source: string, start: number, end: number, value: Value | undefined, input: TraceInput): ExplainedValue {
  const out: ExplainedValue = { source, start, end, value: value === undefined ? '(not evaluated)' : shortRepr(value, MAX_SHOWN) };
  if (value !== undefined && value !== null && typeof value === 'object') {
    const [found] = bindingAddresses(new Map([['', value]]), input);
    if (found) out.address = found.address;
  }
  return out;
}

/** A value as Python writes it, cut at about `max` characters (a trace's strings and events can be huge). */
export function shortRepr(value: Value, max: number): string {
  let out = '';
  const write = (v: Value, depth: number): void => {
    if (out.length > max) return;
    if (v === null) out += 'None';
    else if (v === true) out += 'True';
    else if (v === false) out += 'False';
    else if (v === Unknown) out += '(unknown)';
    else if (typeof v === 'number') out += pyNumber(v);
    else if (isStr(v)) {
      const s = str(v)!;
      out += `'${s.slice(0, max).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}${s.length > max ? '…' : ''}'`;
    } else if (Array.isArray(v) || v instanceof PyTuple) {
      const items = Array.isArray(v) ? v : v.items;
      out += Array.isArray(v) ? '[' : '(';
      items.forEach((x, i) => {
        if (i > 0) out += ', ';
        if (depth < 3) write(x, depth + 1);
        else out += '…';
      });
      out += Array.isArray(v) ? ']' : ')';
    } else if (v instanceof PyDict) {
      out += '{';
      [...v.map].forEach(([k, x], i) => {
        if (i > 0) out += ', ';
        out += `'${k}': `;
        if (depth < 3) write(x, depth + 1);
        else out += '…';
      });
      out += '}';
    } else if (v instanceof ToolCallEvent) {
      out += `<ToolCall ${str(v.fn.name) ?? '?'}(`;
      write(v.fn.args, depth + 1);
      out += ')>';
    } else if (v instanceof MessageEvent || v instanceof ToolOutputEvent) {
      out += `<${v.typeName} ${str(v.role) ?? ''}: `;
      write(v.content instanceof Contents ? (toJson(v.content) as Value) : v.content, depth + 1);
      out += '>';
    } else if (v instanceof EventObject) out += `<${v.typeName}>`;
    else if (v instanceof PyObject) out += `<${v.typeName}>`;
    else out += `<${typeName(v)}>`;
  };
  write(value, 0);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}
