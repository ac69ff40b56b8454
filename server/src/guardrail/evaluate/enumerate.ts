import { walkExpr, type Expr } from '../ast';
import type { Domain, EvaluationContext, Globals } from './context';
import { select } from './select';
import { EventObject } from './traceObjects';
import { Interpreter } from './interpreter';
import { Matcher, matcherFor } from './patterns';
import { stringValue } from './strings';
import type { Mark } from './ranges';
import type { Value } from './values';

/** One assignment the body decided: its variables (and the assignments the body made) and the ranges it marked. */
export interface Model {
  result: boolean;
  assignment: Map<string, Value>;
  ranges: Mark[];
}

/**
 * Enumerates variable assignments as the analyzer does: evaluate the body with what is bound; when it is False, or
 * True and the caller's check passes, report it; when it is still undecided and the body declared more variables,
 * bind those too (the cross product of their candidates, in trace order) and evaluate again. Variables the body
 * never needs are never bound, so `raise "x" if: (o: ToolOutput)` fires once. Expansions run after the
 * assignments already queued (the analyzer schedules them as tasks in FIFO order). `onModel` returns true to stop.
 *
 * When the caller ignores False results (rules, predicates, count), the body's leading conditions that can
 * neither raise nor mark anything (typed declarations, flows between two variables, `v is tool:name(...)` without
 * value references, which would call a detector) prune the
 * product: candidates of `v` that are not calls of that tool, and pairs out of flow order, are not enumerated at
 * all. Such an assignment is False at one of those lines before anything else is evaluated, so skipping it
 * changes no result.
 */
export function assignments(
  body: Expr[],
  globals: Globals,
  ctx: EvaluationContext,
  parent: Interpreter | null,
  extraCheck: ((assignment: Map<string, Value>) => boolean) | undefined,
  onModel: (model: Model) => boolean,
  topLevel = false,
  falseIgnored = false,
  /** Variables declared before the body runs (an explanation binds one to the event it is asked about). */
  declared: Map<string, Domain> = new Map(),
): void {
  const pure = falseIgnored ? leadingPureConditions(body) : null;
  const queue: Map<string, Domain>[] = [declared];
  while (queue.length > 0) {
    const domains = queue.shift()!;
    const names = [...domains.keys()];
    const candidates = names.map((n) => candidatesOf(domains.get(n)!, ctx));
    if (pure) {
      for (const check of pure.tools) {
        const k = names.indexOf(check.variable);
        if (k < 0) continue;
        let matcher: Matcher;
        try {
          matcher = matcherFor(check.pattern, (e) => stringValue(ctx.source, e));
        } catch {
          continue;
        }
        candidates[k] = candidates[k].filter((c) => {
          try {
            return matcher.match(c) !== false;
          } catch {
            return true;
          }
        });
      }
      // Only for a rule itself: its False results and their marks are dropped, while a quantifier's or a
      // predicate's marks reach the enclosing rule.
      // A flow before it raises on values that are not trace events: then every assignment must run as it is.
      const flowsOnEvents = pure.flows.every((f) => [f.left, f.right].every((n) => {
        const i = names.indexOf(n);
        return i < 0 || candidates[i].every((c) => c instanceof EventObject && c.position >= 0);
      }));
      // Consecutive such lines filter in turn while none of the earlier ones raised for a candidate kept: then every
      // assignment reaches the next line, and one that is False there is False.
      for (const filter of flowsOnEvents && topLevel && parent === null ? pure.filters : []) {
        const k = globals.has(filter.variable) ? -1 : names.indexOf(filter.variable);
        if (k < 0 || candidates[k].length <= 1) break;
        let raised = false;
        candidates[k] = candidates[k].filter((c) => {
          try {
            return new Interpreter(new Map([[filter.variable, c]]), globals, ctx, null).eval(filter.line) !== false;
          } catch {
            // It raises here: keep it, so the evaluation raises where the analyzer's does.
            raised = true;
            return true;
          }
        });
        if (raised) break;
      }
    }
    if (candidates.some((c) => c.length === 0)) continue;
    const flow = pure?.flows.find((f) => names.includes(f.left) && names.includes(f.right));
    const prune = flow ? flowPruning(flow, names, candidates) : null;
    const chosen = new Array<number>(names.length).fill(0);
    const evaluate = (): boolean => {
      const assignment = new Map<string, Value>();
      names.forEach((n, i) => assignment.set(n, candidates[i][chosen[i]]));
      ctx.tick();
      const interpreter = new Interpreter(assignment, globals, ctx, parent);
      const result = interpreter.evalBody(body, topLevel);
      if (result === false || (result === true && (!extraCheck || extraCheck(assignment)))) {
        const ranges = interpreter.ranges.slice();
        for (const v of assignment.values()) ranges.push({ obj: v as object });
        return onModel({ result, assignment, ranges });
      }
      if (interpreter.domains) {
        // A variable without candidates gives no assignment when this expansion's turn comes: do not queue it.
        for (const d of interpreter.domains.values()) if (candidatesOf(d, ctx).length === 0) return false;
        const next = new Map<string, Domain>();
        names.forEach((n, i) => next.set(n, { type: domains.get(n)!.type, values: [candidates[i][chosen[i]]] }));
        for (const [n, d] of interpreter.domains) next.set(n, d);
        queue.push(next);
      }
      return false;
    };
    // The cross product with the last variable varying fastest (itertools.product).
    const visit = (k: number): boolean => {
      if (k === names.length) return evaluate();
      let lo = 0;
      let hi = candidates[k].length;
      if (prune) [lo, hi] = prune(k, chosen);
      for (let i = lo; i < hi; i++) {
        chosen[k] = i;
        if (visit(k + 1)) return true;
      }
      return false;
    };
    if (visit(0)) return;
  }
}

interface Flow {
  op: '->' | '~>';
  left: string;
  right: string;
}

interface PureConditions {
  flows: Flow[];
  tools: { variable: string; pattern: Extract<Expr, { kind: 'tool' }> }[];
  /** The conditions right after them that each read one variable only and call nothing: per-candidate filters. */
  filters: { variable: string; line: Expr }[];
}

/** The body's leading conditions that cannot raise or mark: typed declarations, flows, `v is tool:name`. */
function leadingPureConditions(body: Expr[]): PureConditions | null {
  const pure: PureConditions = { flows: [], tools: [], filters: [] };
  const name = (x: Expr): string | null => (x.kind === 'name' ? x.name : x.kind === 'typed' ? x.variable.name : null);
  for (const line of body) {
    if (line.kind === 'typed') continue;
    if (line.kind !== 'binary') break;
    // After a filter only filters: a flow or tool check there must not prune assignments that the filter raises on.
    const filtersBegun = pure.filters.length > 0;
    if (!filtersBegun && (line.op === '->' || line.op === '~>')) {
      const left = name(line.left);
      const right = name(line.right);
      if (!left || !right || left === right) break;
      pure.flows.push({ op: line.op, left, right });
    } else if (!filtersBegun && line.op === 'is' && line.left.kind === 'name' && line.right.kind === 'tool' && !hasValueReference(line.right)) {
      pure.tools.push({ variable: line.left.name, pattern: line.right });
    } else {
      const variable = singleVariable(line);
      if (!variable) break;
      pure.filters.push({ variable, line });
    }
  }
  return pure.flows.length > 0 || pure.tools.length > 0 || pure.filters.length > 0 ? pure : null;
}

function hasValueReference(e: Expr): boolean {
  let found = false;
  walkExpr(e, (x) => {
    if (x.kind === 'valueRef') found = true;
  });
  return found;
}

/** The one name an expression reads, when it reads exactly one and has no calls, bindings or blocks. */
function singleVariable(e: Expr): string | null {
  let found: string | null = null;
  let ok = true;
  walkExpr(e, (x) => {
    if (x.kind === 'call' || x.kind === 'assign' || x.kind === 'quantifier' || x.kind === 'comprehension' || x.kind === 'typed' || x.kind === 'tool' || x.kind === 'placeholder' || x.kind === 'error') ok = false;
    if (x.kind === 'binary' && (x.op === '->' || x.op === '~>')) ok = false;
    if (x.kind === 'name') {
      if (found !== null && found !== x.name) ok = false;
      found = x.name;
    }
  });
  return ok ? found : null;
}

/** For the later-bound side of the flow: the candidate index range that can satisfy it, given the earlier side. */
function flowPruning(flow: Flow, names: string[], candidates: Value[][]): ((k: number, chosen: number[]) => [number, number]) | null {
  const l = names.indexOf(flow.left);
  const r = names.indexOf(flow.right);
  if (l < 0 || r < 0) return null;
  const positions = (list: Value[]): number[] | null => {
    const out: number[] = [];
    for (const v of list) {
      if (!(v instanceof EventObject) || v.position < 0) return null;
      if (out.length > 0 && v.position <= out[out.length - 1]) return null;
      out.push(v.position);
    }
    return out;
  };
  const lp = positions(candidates[l]);
  const rp = positions(candidates[r]);
  if (!lp || !rp) return null;
  const later = Math.max(l, r);
  const firstAtLeast = (list: number[], p: number): number => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] < p) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return (k, chosen) => {
    if (k !== later) return [0, candidates[k].length];
    if (k === r) {
      const p = lp[chosen[l]];
      const lo = firstAtLeast(rp, p + 1);
      if (flow.op === '->') return [lo, rp.length];
      return lo < rp.length && rp[lo] === p + 1 ? [lo, lo + 1] : [0, 0];
    }
    const p = rp[chosen[r]];
    const hi = firstAtLeast(lp, p);
    if (flow.op === '->') return [0, hi];
    const at = firstAtLeast(lp, p - 1);
    return at < lp.length && lp[at] === p - 1 ? [at, at + 1] : [0, 0];
  };
}

function candidatesOf(domain: Domain, ctx: EvaluationContext): Value[] {
  if (domain.type === 'Input') return [ctx.input as unknown as Value];
  if (domain.values === null) {
    let all = ctx.input.selected.get(domain.type);
    if (!all) ctx.input.selected.set(domain.type, (all = select(domain.type, ctx.input.events)));
    return all;
  }
  if (Array.isArray(domain.values) && domain.values.length === 0) return [];
  return (domain.selected ??= select(domain.type, domain.values));
}
