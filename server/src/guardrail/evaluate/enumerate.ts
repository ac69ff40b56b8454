import type { Expr } from '../ast';
import type { Domain, EvaluationContext, Globals } from './context';
import { select } from './input';
import { Interpreter } from './interpreter';
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
 */
export function assignments(
  body: Expr[],
  globals: Globals,
  ctx: EvaluationContext,
  parent: Interpreter | null,
  extraCheck: ((assignment: Map<string, Value>) => boolean) | undefined,
  onModel: (model: Model) => boolean,
  topLevel = false,
): void {
  const queue: Map<string, Domain>[] = [new Map()];
  while (queue.length > 0) {
    const domains = queue.shift()!;
    const names = [...domains.keys()];
    const candidates = names.map((n) => candidatesOf(domains.get(n)!, ctx));
    if (candidates.some((c) => c.length === 0)) continue;
    const index = new Array<number>(names.length).fill(0);
    for (;;) {
      const assignment = new Map<string, Value>();
      names.forEach((n, i) => assignment.set(n, candidates[i][index[i]]));
      ctx.tick();
      const interpreter = new Interpreter(assignment, globals, ctx, parent);
      const result = interpreter.evalBody(body, topLevel);
      if (result === false || (result === true && (!extraCheck || extraCheck(assignment)))) {
        const ranges = interpreter.ranges.slice();
        for (const v of assignment.values()) ranges.push({ obj: v as object });
        if (onModel({ result, assignment, ranges })) return;
      } else if (interpreter.domains.size > 0) {
        const next = new Map<string, Domain>();
        names.forEach((n, i) => next.set(n, { type: domains.get(n)!.type, values: [candidates[i][index[i]]] }));
        for (const [n, d] of interpreter.domains) next.set(n, d);
        queue.push(next);
      }
      // Next combination: the last variable varies fastest (itertools.product).
      let k = names.length - 1;
      while (k >= 0 && ++index[k] === candidates[k].length) index[k--] = 0;
      if (k < 0) break;
    }
  }
}

function candidatesOf(domain: Domain, ctx: EvaluationContext): Value[] {
  if (domain.values === null) {
    if (domain.type === 'Input') return [ctx.input as unknown as Value];
    return select(domain.type, ctx.input.events);
  }
  if (domain.type === 'Input') return [ctx.input as unknown as Value];
  return select(domain.type, domain.values);
}
