import type { Expr, Statement } from '../ast';
import { BudgetExceeded, TimeLimitExceeded } from './failure';
import { checkHeap } from './limits';
import type { TraceInput } from './input';
import type { Value } from './values';

/** A name visible to rule bodies: a value, or a declaration evaluated where it is used. */
export type Binding =
  | { kind: 'value'; value: Value }
  | { kind: 'constant'; statement: Extract<Statement, { kind: 'constant' }> }
  | { kind: 'predicate'; statement: Extract<Statement, { kind: 'predicate' }> }
  | { kind: 'quantifier'; name: 'forall' | 'count' }
  | { kind: 'type'; name: string };

export type Globals = Map<string, Binding>;

/** A variable's domain: every value of `type` in the trace (values null) or in `values`. */
export interface Domain {
  type: string;
  values: Value | null;
  /** The candidates `values` holds, selected once. */
  selected?: Value[];
}

/** Results of `@cached` functions, shared by all rules of one evaluation: by spelled key, or by the one object or text called on. */
export class CallCache {
  readonly byKey = new Map<string, Value>();
  private readonly objects = new Map<object, WeakMap<object, Value>>();
  private readonly texts = new Map<object, Map<string, Value>>();

  /** Calls on one string, keyed by its text (strings are keyed by value, as the analyzer's FunctionCache does). */
  byText(fn: object): Map<string, Value> {
    let map = this.texts.get(fn);
    if (!map) this.texts.set(fn, (map = new Map()));
    return map;
  }

  byObject(fn: object): WeakMap<object, Value> {
    let map = this.objects.get(fn);
    if (!map) this.objects.set(fn, (map = new WeakMap()));
    return map;
  }
}

/** Steps between two looks at the clock, the cancellation and the heap (each costs about as much as a small step). */
const CHECK_EVERY = 32;

/** State shared by one evaluation of one rule. */
export class EvaluationContext {
  /** Steps so far: rule-body evaluations (the analyzer's checking cycles) and comprehension iterations. */
  work = 0;
  /** The top-level rule line being evaluated (where a failure is reported). */
  line: Expr | null = null;

  constructor(
    readonly input: TraceInput,
    /** Results of `@cached` functions, shared by all rules of one evaluation. */
    readonly cache: CallCache,
    readonly source: string,
    readonly budget: number,
    readonly isCancelled: () => boolean,
    /** `performance.now()` after which the rule stops (its time limit), and the limit for the message. */
    readonly deadline = Infinity,
    readonly timeLimitMs = Infinity,
  ) {}

  tick(): void {
    if (++this.work > this.budget) throw new BudgetExceeded(this.budget);
    if (this.work % CHECK_EVERY === 0) {
      if (this.isCancelled()) throw new Cancelled();
      if (performance.now() > this.deadline) throw new TimeLimitExceeded(this.timeLimitMs);
      checkHeap();
    }
  }
}

export class Cancelled extends Error {
  constructor() {
    super('evaluation cancelled');
  }
}
