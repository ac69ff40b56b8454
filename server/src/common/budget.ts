/**
 * How long work stops early: the request it serves was cancelled, or it ran past its time budget. The services
 * check it inside their loops (parsing, outlines, completion) with `spend`; the server maps the two outcomes to a
 * cancelled request or to the request's fallback answer with a logged notice. Free of LSP types on purpose: the
 * CLI and the tests pass none, or one of their own.
 */
export interface Budget {
  readonly isCancellationRequested: boolean;
  /** `Date.now()` after which the work stops; absent for no time limit. */
  readonly deadline?: number;
}

export class BudgetExceeded extends Error {
  constructor(readonly reason: 'cancelled' | 'time') {
    super(reason === 'cancelled' ? 'The request was cancelled' : 'The request ran past its time budget');
  }
}

/** Loop iterations between two looks at the clock (a look costs about as much as a small iteration). */
const CHECK_EVERY = 256;

/**
 * Counts one step of long work and, every few hundred steps, throws BudgetExceeded when the budget is spent.
 * `steps` is the caller's running count; pass it back in and keep the result.
 */
export function spend(budget: Budget | undefined, steps: number): number {
  if (budget && (steps & (CHECK_EVERY - 1)) === 0) checkBudget(budget);
  return steps + 1;
}

export function checkBudget(budget: Budget | undefined): void {
  const spent = spentBy(budget);
  if (spent) throw new BudgetExceeded(spent);
}

/** Why the budget is spent (cancelled, or past its deadline), or undefined while work may go on. */
export function spentBy(budget: Budget | undefined): BudgetExceeded['reason'] | undefined {
  if (!budget) return undefined;
  if (budget.isCancellationRequested) return 'cancelled';
  if (budget.deadline !== undefined && Date.now() > budget.deadline) return 'time';
  return undefined;
}
