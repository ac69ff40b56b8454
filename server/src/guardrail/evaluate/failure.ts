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

/**
 * A detector that needs a model, an LLM or an external program, or a Python module that is not evaluated: the rule
 * that needs it is not evaluated ("it <verb> <detector>, which <reason>").
 */
export class NotEvaluated extends Error {
  constructor(readonly detector: string, readonly reason: string, readonly verb: 'calls' | 'uses' = 'calls') {
    super(reason);
  }
}

/** The work budget (rule-body evaluations and comprehension iterations) ran out. */
export class BudgetExceeded extends Error {
  constructor(readonly budget: number) {
    super(`evaluation stopped after ${budget} steps (the work budget)`);
  }
}

/** A rule ran past its time limit on one trace. */
export class TimeLimitExceeded extends Error {
  constructor(readonly limitMs: number) {
    super(`evaluation stopped after ${limitMs} ms (the time limit)`);
  }
}

/** What a rule that took too long or too much memory was stopped for (from outside: its evaluation was ended). */
export type StopReason = 'timeout' | 'memory';

/**
 * A JavaScript exception out of the evaluator, in Python's terms where there is one: the engine's refusal of a too
 * large string or list is Python's MemoryError; anything else (a regular expression too large for the engine, a
 * fault of the evaluator) keeps its own name. The message is cut: it may quote a whole pattern or value.
 */
export function engineError(error: unknown): PyError {
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : 'Error';
  const short = message.length > 300 ? `${message.slice(0, 299)}…` : message;
  if (error instanceof RangeError && /Invalid (string|array|typed array) length|allocation failed|Maximum .*size/i.test(message)) {
    return new PyError('MemoryError', `the value is too large for the evaluator (${short})`);
  }
  return new PyError(name, `the evaluator could not run this line: ${short}`);
}

export { PyError };
