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
  if (!budget) return;
  if (budget.isCancellationRequested) throw new BudgetExceeded('cancelled');
  if (budget.deadline !== undefined && Date.now() > budget.deadline) throw new BudgetExceeded('time');
}
