import { PyError } from './values';

/**
 * Why an evaluation stopped. The analyzer aborts the whole `analyze` call on any exception; ours stops the same way
 * and says which rule line raised what, in words a rule author can act on.
 */
export class EvaluationFailure extends Error {
  constructor(
    message: string,
    /** The official exception type this corresponds to (e.g. KeyError, TypeError, MissingPolicyParameter). */
    readonly pyType: string,
    /** Source range (UTF-16 offsets in the rule file) of the rule line that raised. */
    readonly start: number,
    readonly end: number,
    readonly ruleIndex: number,
  ) {
    super(message);
  }
}

/** A detector that needs a model, an LLM or an external program: the rule that needs it is not evaluated. */
export class NotEvaluated extends Error {
  constructor(readonly detector: string, readonly reason: string) {
    super(reason);
  }
}

/** The work budget (rule-body evaluations) ran out. */
export class BudgetExceeded extends Error {
  constructor(readonly budget: number) {
    super(`evaluation stopped after ${budget} rule-body evaluations (the work budget)`);
  }
}

export { PyError };
