import type { Expr, Statement } from '../ast';
import type { RuleModel } from '../model';
import { BUILTINS, ErrorInfo, PolicyParameters } from './builtins';
import { CallCache, Cancelled, EvaluationContext, type Binding, type Globals } from './context';
import { LIBRARY } from './detectors';
import { assignments, type Model } from './enumerate';
import { BudgetExceeded, EvaluationFailure, NotEvaluated, TimeLimitExceeded, engineError, type StopReason } from './failure';
import { buildInputStepwise, inputProblem, type TraceInput } from './input';
import { cannotHold, requiredLiterals } from './requiredText';
import { EventObject, fromParameter, toJson } from './traceObjects';
import { Interpreter } from './interpreter';
import { bindingAddresses, locate, locateRepresentatives, type Mark, type VariableBinding } from './ranges';
import { stringValue } from './strings';
import { PyDict, PyError, PyObject, Unknown, isStr, pyRepr, pyStr, str, type Value } from './values';
import { runSteps } from '../../common/steps';
import { pythonModule, pythonModuleMember } from './stdlib/modules';
import { duration } from '../../common/text';

/**
 * Evaluates a parsed rule file on one trace, with the official analyzer's semantics (see
 * `guardrails-evaluation.md`): one error per satisfying assignment, rules in file order, candidates in trace order.
 * Free of LSP types; the command line (`eval`), the server's rule checks (rulesOnTraces/) and the tests call this.
 */

export interface GuardrailError {
  /** Index of the rule in the file (the first number of `key`). */
  ruleIndex: number;
  /** The first argument of the raise, when it is a string. */
  message: string | null;
  args: unknown[];
  kwargs: Record<string, unknown>;
  /** `(rule index, (trace index of each bound variable, by variable name))`, as the analyzer writes it. */
  key: string;
  /**
   * Official addresses: `messages.<i>.<key>…[:start-end]` (code-point offsets). Spelled out on first read: an error
   * may carry one range per character of a long text, and most readers need only `placeRanges`.
   */
  readonly ranges: string[];
  /** The same ranges with each run of single-character ranges given by its first character: where to place the error. */
  placeRanges(): string[];
  /** Which trace element each variable of the rule was bound to, in the order bound (found on first read). */
  readonly bindings: VariableBinding[];
  /** The rule's `raise … if:` header in the rule file (UTF-16 offsets). */
  raiseStart: number;
  raiseEnd: number;
}

/** An error whose ranges are located in the trace only when read. */
class RuleError implements GuardrailError {
  private located: string[] | undefined;
  private bound: VariableBinding[] | undefined;
  constructor(
    readonly ruleIndex: number,
    readonly message: string | null,
    readonly args: unknown[],
    readonly kwargs: Record<string, unknown>,
    readonly key: string,
    readonly raiseStart: number,
    readonly raiseEnd: number,
    private readonly marks: Mark[],
    private readonly input: TraceInput,
    private readonly assignment: ReadonlyMap<string, Value>,
  ) {}

  get bindings(): VariableBinding[] {
    return (this.bound ??= bindingAddresses(this.assignment, this.input));
  }

  get ranges(): string[] {
    return (this.located ??= locate(this.marks, this.input));
  }

  placeRanges(): string[] {
    return this.located && !this.marks.some((m) => m.each) ? this.located : locateRepresentatives(this.marks, this.input);
  }

  toJSON(): unknown {
    const { ruleIndex, message, args, kwargs, key, ranges, bindings, raiseStart, raiseEnd } = this;
    return { ruleIndex, message, args, kwargs, key, ranges, bindings, raiseStart, raiseEnd };
  }
}

export interface EvaluationNotice {
  ruleIndex: number;
  message: string;
  /** Where in the rule file (the rule header). */
  start: number;
  end: number;
  /** The detector that could not run, for rules not evaluated. */
  detector?: string;
  kind: 'not-evaluated' | 'budget' | 'error-limit' | 'timeout';
}

export interface EvaluationOptions {
  /** Policy parameters (`input.x`). */
  parameters?: Record<string, unknown>;
  /** Monitor mode: only errors that bind an event at or after this trace index (`analyze_pending`). */
  pendingStart?: number;
  /** Steps (rule-body evaluations and comprehension iterations) allowed per rule before it stops with a notice. */
  budget?: number;
  /** Milliseconds a rule may run on the trace before it stops with a notice (default: no limit). */
  timeLimitMs?: number;
  /**
   * Rules (by index) already stopped on this trace from outside, by whoever ran an earlier attempt of this
   * evaluation and had to end it: they are not run again, and are reported as that attempt found them.
   */
  stopped?: ReadonlyMap<number, StopReason>;
  /** Told when each rule starts (its index) and ends (null): the evaluation worker's watch over the time limit. */
  watch?: (ruleIndex: number | null) => void;
  /**
   * Errors per rule: a rule that finds this many stops there, keeps them and says so (the editor cannot show more
   * than its problem limit, and a rule over many pairs can find hundreds of thousands). Default: no limit.
   */
  maxErrors?: number;
  isCancelled?: () => boolean;
  /**
   * The JSON text the trace was parsed from (nothing else: not a file it was converted from): a rule that needs a
   * literal this text lacks cannot hold, and is not evaluated (requiredText.ts). Absent: every rule is evaluated.
   */
  traceText?: string;
}

export interface EvaluationResult {
  errors: GuardrailError[];
  notices: EvaluationNotice[];
  /** Set when the evaluation failed as the analyzer's would raise; errors is then empty. */
  failure: EvaluationFailure | null;
  /** Steps done in all. */
  work: number;
  cancelled: boolean;
}

export const DEFAULT_BUDGET = 1_000_000;

export type RuleStatement = Extract<Statement, { kind: 'rule' }>;

/** Problems the official loader rejects a policy for (the others are run-time matters or plain Python imports). */
const LOAD_ERRORS = new Set([
  'gr/unknown-type', 'gr/unknown-identifier', 'gr/duplicate-variable', 'gr/duplicate-constant', 'gr/unknown-import',
  'gr/unsupported-value-type', 'gr/value-ref-outside-pattern', 'gr/wildcard-outside-pattern', 'gr/template-placeholder',
]);

/**
 * Values nested deeper than this are not evaluated: the evaluator reads values recursively, as the analyzer does,
 * and Python's own recursion limit (1,000 frames) stops the analyzer on such traces too.
 */
export const MAX_TRACE_DEPTH = 500;

/**
 * How deep arrays and objects nest in a JSON value (parsed JSON: plain objects and arrays), counted without recursion
 * and up to `limit + 1`. Every trace evaluated is walked once here: it allocates nothing per value it visits.
 */
export function nestingDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const current = values.pop();
    const depth = depths.pop()! + 1;
    if (current === null || typeof current !== 'object') continue;
    if (depth > deepest) {
      deepest = depth;
      if (deepest > limit) return deepest;
    }
    if (Array.isArray(current)) {
      for (const child of current) {
        if (child !== null && typeof child === 'object') {
          values.push(child);
          depths.push(depth);
        }
      }
    } else {
      for (const key in current) {
        const child = (current as Record<string, unknown>)[key];
        if (child !== null && typeof child === 'object') {
          values.push(child);
          depths.push(depth);
        }
      }
    }
  }
  return deepest;
}

type EvaluatedModel = Pick<RuleModel, 'text' | 'program' | 'syntaxProblems'> & Partial<Pick<RuleModel, 'semanticProblems'>>;

/**
 * Why the official loader would reject the rule file before any trace is read (syntax errors, or a problem it does
 * not load with: an unknown type, import, …), or null. It is the same for every trace: a caller that runs one rule
 * file on many traces decides it once.
 */
export function loadFailure(model: EvaluatedModel): EvaluationFailure | null {
  if (model.syntaxProblems.length > 0) {
    const p = model.syntaxProblems[0];
    return new EvaluationFailure(`The rule file has syntax errors (first: ${p.message}); fix them before evaluating`, 'SyntaxError', p.span.start, p.span.end, -1);
  }
  const loadError = (model.semanticProblems ?? []).find((p) => p.severity === 'error' && LOAD_ERRORS.has(p.code));
  if (loadError) {
    return new EvaluationFailure(`The rules cannot be loaded: ${loadError.message}`, 'PolicyLoadingError', loadError.span.start, loadError.span.end, -1);
  }
  return null;
}

export function evaluateRules(model: EvaluatedModel, trace: unknown, options: EvaluationOptions = {}): EvaluationResult {
  return runSteps(evaluateRulesStepwise(model, trace, options));
}

/**
 * The value of one expression of a rule file (an argument of its first rule's raise, by default the first), in the
 * globals its imports and declarations make, on an empty trace: what the tests compare with Python's values.
 */
export function evaluateExpression(model: EvaluatedModel, argument = 0): Value {
  const rule = model.program.statements.find((s): s is RuleStatement => s.kind === 'rule');
  const raise = rule?.message;
  if (!raise || raise.kind !== 'call' || !raise.args[argument]) throw new Error('the first rule must raise a call with the expression as an argument');
  const input = runSteps(buildInputStepwise([]));
  const ctx = new EvaluationContext(input, new CallCache(), model.text, DEFAULT_BUDGET, () => false);
  return new Interpreter(new Map(), buildGlobals(model.program.statements, {}), ctx, null, false).eval(raise.args[argument]);
}

/** evaluateRules for a rule file whose loadFailure is known to be null (decided once for many traces). */
export function evaluateLoadedRules(model: EvaluatedModel, trace: unknown, options: EvaluationOptions = {}): EvaluationResult {
  return runSteps(evaluateLoadedRulesStepwise(model, trace, options));
}

/**
 * The same evaluation, pausing after the trace's depth is checked, every few hundred events while the trace is read
 * and after each rule, so that a caller can spread a long one over several turns of the event loop (the server does,
 * for big traces) and drop it between two steps.
 */
export function* evaluateRulesStepwise(model: EvaluatedModel, trace: unknown, options: EvaluationOptions = {}): Generator<void, EvaluationResult, void> {
  const failure = loadFailure(model);
  if (failure) return { errors: [], notices: [], failure, work: 0, cancelled: false };
  return yield* evaluateLoadedRulesStepwise(model, trace, options);
}

/** evaluateRulesStepwise for a rule file whose loadFailure is known to be null. */
export function* evaluateLoadedRulesStepwise(model: EvaluatedModel, trace: unknown, options: EvaluationOptions = {}): Generator<void, EvaluationResult, void> {
  const result: EvaluationResult = { errors: [], notices: [], failure: null, work: 0, cancelled: false };
  const depth = nestingDepth(trace, MAX_TRACE_DEPTH);
  if (depth > MAX_TRACE_DEPTH) {
    result.failure = new EvaluationFailure(`The trace nests values more than ${MAX_TRACE_DEPTH} levels deep; guardrails are evaluated on traces nested up to ${MAX_TRACE_DEPTH} levels`, 'RecursionError', 0, 0, -1);
    return result;
  }
  yield;
  const rules = model.program.statements.filter((s): s is RuleStatement => s.kind === 'rule');
  const skipped = options.traceText === undefined ? undefined : rulesThatCannotHold(model, rules, options.parameters ?? {}, options.traceText);
  const unreadable = (e: unknown): EvaluationResult => {
    const raised = e instanceof PyError ? e : engineError(e);
    result.failure = new EvaluationFailure(`The trace cannot be read as the analyzer reads it: ${raised.detail}`, raised.pyType, 0, 0, -1);
    return result;
  };
  // No rule to run: the trace is only checked as the analyzer's input would be read, not built.
  if (skipped && skipped.every(Boolean)) {
    const problem = inputProblem(trace);
    return problem ? unreadable(problem) : result;
  }
  let input: TraceInput;
  try {
    input = yield* buildInputStepwise(trace);
  } catch (e) {
    return unreadable(e);
  }
  const globals = buildGlobals(model.program.statements, options.parameters ?? {});
  const cache = new CallCache();
  const timeLimitMs = options.timeLimitMs ?? Infinity;
  for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
    if (skipped?.[ruleIndex]) continue;
    const rule = rules[ruleIndex];
    const header = rule.headerSpan;
    const stopped = options.stopped?.get(ruleIndex);
    if (stopped === 'timeout') {
      result.notices.push(timeoutNotice(ruleIndex, header, timeLimitMs));
      continue;
    }
    if (stopped === 'memory') {
      result.errors = [];
      result.failure = new EvaluationFailure(`Evaluation failed (rule ${ruleIndex + 1}): MemoryError: the rule ran out of the memory allowed for rules`, 'MemoryError', header.start, header.end, ruleIndex);
      return result;
    }
    const ctx = new EvaluationContext(input, cache, model.text, options.budget ?? DEFAULT_BUDGET, options.isCancelled ?? (() => false), performance.now() + timeLimitMs, timeLimitMs);
    options.watch?.(ruleIndex);
    try {
      const { errors, limited } = evaluateRule(rule, ruleIndex, globals, ctx, input, options.pendingStart, options.maxErrors ?? Infinity);
      for (const e of errors) result.errors.push(e);
      if (limited) {
        result.notices.push({ ruleIndex, kind: 'error-limit', start: header.start, end: header.end,
          message: `Rule ${ruleIndex + 1} found more than ${errors.length.toLocaleString('en-US')} violations (the limit): it stopped there and reports those` });
      }
    } catch (e) {
      if (e instanceof NotEvaluated) {
        result.notices.push({ ruleIndex, kind: 'not-evaluated', detector: e.detector, start: header.start, end: header.end,
          message: `Rule ${ruleIndex + 1} is not evaluated: it ${e.verb} ${e.detector}, which ${e.reason}` });
      } else if (e instanceof BudgetExceeded) {
        result.notices.push({ ruleIndex, kind: 'budget', start: header.start, end: header.end,
          message: `Rule ${ruleIndex + 1} stopped after ${e.budget.toLocaleString('en-US')} steps (the work budget); its violations are not reported` });
      } else if (e instanceof TimeLimitExceeded) {
        result.notices.push(timeoutNotice(ruleIndex, header, e.limitMs));
      } else if (e instanceof RangeError && /call stack/.test(e.message)) {
        result.errors = [];
        result.failure = new EvaluationFailure(`Evaluation failed (rule ${ruleIndex + 1}): RecursionError: maximum recursion depth exceeded (a predicate or constant refers to itself)`, 'RecursionError', header.start, header.end, ruleIndex);
        result.work += ctx.work;
        return result;
      } else if (e instanceof Cancelled) {
        result.cancelled = true;
        result.errors = [];
        return result;
      } else {
        // Any other exception (a value too large for the engine, a fault of the evaluator) fails this evaluation only,
        // never the caller's run: it is reported as the analyzer reports a Python exception.
        const raised = e instanceof PyError ? e : engineError(e);
        const line = ctx.line ?? null;
        const start = line ? line.start : header.start;
        const end = line ? line.end : header.end;
        const where = lineOf(model.text, start);
        result.errors = [];
        result.failure = new EvaluationFailure(`Evaluation failed at line ${where} (rule ${ruleIndex + 1}): ${raised.pyType}: ${raised.detail}`, raised.pyType, start, end, ruleIndex);
        result.work += ctx.work;
        return result;
      }
    } finally {
      options.watch?.(null);
    }
    result.work += ctx.work;
    yield;
    if (options.isCancelled?.()) {
      result.cancelled = true;
      result.errors = [];
      return result;
    }
  }
  return result;
}

/** For each rule, whether a literal it requires is missing from the trace's text (undefined: run them all). */
function rulesThatCannotHold(model: EvaluatedModel, rules: RuleStatement[], parameters: Record<string, unknown>, traceText: string): boolean[] | undefined {
  return literalsOfRules(model, rules, parameters)?.map((literals) => cannotHold(literals, traceText));
}

/**
 * For each rule of the file, the literals it needs in a trace's JSON text (requiredText.ts; empty: it always runs),
 * or undefined when the file's globals cannot be built: the evaluation then fails where it always did, after the
 * trace is read, and every rule runs.
 */
export function literalsOfRules(model: EvaluatedModel, rules: RuleStatement[], parameters: Record<string, unknown>): string[][] | undefined {
  let globals: Globals | undefined;
  const names = () => (globals ??= buildGlobals(model.program.statements, parameters));
  try {
    return rules.map((rule) => requiredLiterals(rule, names, model.text));
  } catch {
    return undefined;
  }
}

function timeoutNotice(ruleIndex: number, header: { start: number; end: number }, limitMs: number): EvaluationNotice {
  return { ruleIndex, kind: 'timeout', start: header.start, end: header.end,
    message: `Rule ${ruleIndex + 1} stopped after running ${duration(limitMs)} on this trace (the time limit); its violations are not reported` };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Whether an assignment the body made True gives an error: the raise must be evaluable with what it binds
 * (`RaiseAction.can_eval`), or the enumeration binds more variables first.
 */
export function raiseCanEvaluate(rule: RuleStatement, globals: Globals, ctx: EvaluationContext): (assignment: Map<string, Value>) => boolean {
  const raise = rule.message;
  return (assignment) => {
    if (!raise) return false;
    if (raise.kind === 'string') return true;
    return new Interpreter(assignment, globals, ctx, null).eval(raise) !== Unknown;
  };
}

function evaluateRule(rule: RuleStatement, ruleIndex: number, globals: Globals, ctx: EvaluationContext, input: TraceInput, pendingStart: number | undefined, maxErrors: number): { errors: GuardrailError[]; limited: boolean } {
  const raise = rule.message;
  const canEvaluate = raiseCanEvaluate(rule, globals, ctx);
  const models: Model[] = [];
  let limited = false;
  assignments(rule.body, globals, ctx, null, canEvaluate, (m) => {
    if (m.result !== true) return false;
    if (pendingStart !== undefined && ![...m.assignment.values()].some((v) => v instanceof EventObject && v.traceIdx >= pendingStart)) return false;
    if (models.length >= maxErrors) return (limited = true); // one more than the limit: stop, it is not reported
    models.push(m);
    return false;
  }, true, true);
  const errors: GuardrailError[] = [];
  for (const m of models) {
    ctx.line = null;
    const { args, kwargs } = raiseArguments(raise!, m, globals, ctx);
    errors.push(new RuleError(ruleIndex, typeof args[0] === 'string' ? args[0] : null, args, kwargs, `(${ruleIndex}, ${keyOf(m.assignment)})`,
      rule.headerSpan.start, rule.headerSpan.end, m.ranges, input, m.assignment));
  }
  return { errors, limited };
}

function dumpArgument(v: Value): unknown {
  if (v instanceof EventObject || (v !== null && typeof v === 'object' && 'dump' in (v as object))) return toJson(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  if (isStr(v)) return str(v);
  return pyStr(v);
}

function raiseArguments(raise: Expr, m: Model, globals: Globals, ctx: EvaluationContext): { args: unknown[]; kwargs: Record<string, unknown> } {
  if (raise.kind === 'string') return { args: [stringValue(ctx.source, raise)], kwargs: {} };
  const value = new Interpreter(m.assignment, globals, ctx, null, false).eval(raise);
  if (value instanceof ErrorInfo) {
    const kwargs: Record<string, unknown> = {};
    for (const [k, v] of value.kwargs) kwargs[k] = dumpArgument(v);
    return { args: value.args.map(dumpArgument), kwargs };
  }
  return { args: [pyStr(value)], kwargs: {} };
}

/** The analyzer's result key: per bound variable (sorted by name) its event's trace index, a dict's "key", or -1. */
function keyOf(assignment: Map<string, Value>): string {
  const entries = [...assignment].map(([name, v]): [string, string] => {
    if (v instanceof PyDict && v.map.has('key')) return [name, pyRepr(v.map.get('key')!)];
    if (v instanceof EventObject && v.metadata.map.has('trace_idx')) return [name, pyRepr(v.metadata.map.get('trace_idx')!)];
    return [name, '-1'];
  });
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const items = entries.map((e) => e[1]);
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
}

const TYPE_NAMES = ['Event', 'Message', 'ToolCall', 'Function', 'ToolOutput', 'TextChunk', 'Image', 'Tool', 'ToolParameter', 'LLM', 'Input', 'str', 'int', 'float', 'bool', 'list', 'dict'];

export function buildGlobals(statements: Statement[], parameters: Record<string, unknown>): Globals {
  const globals: Globals = new Map();
  for (const [name, value] of Object.entries(BUILTINS)) globals.set(name, { kind: 'value', value });
  for (const name of TYPE_NAMES) if (!globals.has(name)) globals.set(name, { kind: 'type', name });
  globals.set('forall', { kind: 'quantifier', name: 'forall' });
  globals.set('count', { kind: 'quantifier', name: 'count' });
  const params = new Map<string, Value>();
  for (const [k, v] of Object.entries(parameters)) params.set(k, fromParameter(v));
  globals.set('input', { kind: 'value', value: new PolicyParameters(params) });
  for (const s of statements) {
    if (s.kind === 'import') {
      const name = s.alias?.name ?? s.module.name.split('.')[0];
      const module = s.alias ? s.module.name : name;
      globals.set(name, { kind: 'value', value: module === 'invariant' || module.startsWith('invariant.') ? new ModuleObject(module) : pythonModule(module) });
    } else if (s.kind === 'fromImport') {
      for (const n of s.names) globals.set(n.alias?.name ?? n.name.name, importBinding(s.module.name, n.name.name));
    } else if (s.kind === 'constant' && s.name.name !== '') {
      globals.set(s.name.name, { kind: 'constant', statement: s });
    } else if (s.kind === 'predicate') {
      globals.set(s.name.name, { kind: 'predicate', statement: s });
    }
  }
  return globals;
}

/** An imported module (`import invariant.detectors as d`): its functions and submodules as attributes. */
class ModuleObject extends PyObject {
  readonly typeName = 'module';
  constructor(readonly name: string) {
    super();
  }
  attribute(member: string): Value {
    const full = `${this.name}.${member}`;
    if (Object.keys(LIBRARY).some((m) => m === full || m.startsWith(full + '.'))) return new ModuleObject(full);
    const binding = importBinding(this.name, member);
    if (binding.kind === 'value') return binding.value;
    return binding as unknown as Value;
  }
}

function importBinding(module: string, name: string): Binding {
  if (module === 'invariant' && (name === 'forall' || name === 'count')) return { kind: 'quantifier', name };
  if (TYPE_NAMES.includes(name) && module.startsWith('invariant')) return { kind: 'type', name };
  const value = LIBRARY[module]?.[name] ?? (module.startsWith('invariant') ? BUILTINS[name] : undefined);
  if (value !== undefined) return { kind: 'value', value };
  return { kind: 'value', value: pythonModuleMember(module, name) };
}

