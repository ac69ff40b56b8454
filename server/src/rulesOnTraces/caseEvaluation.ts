import { evaluateLoadedRules, loadFailure, type EvaluationOptions } from '../guardrail/evaluate';
import { Cancelled } from '../guardrail/evaluate/context';
import type { RuleModel } from '../guardrail/model';
import type { CaseEvaluation } from './workerProtocol';

/**
 * A rule file on one trace, answered as plain data (it crosses from the evaluation worker to the test runner):
 * whether the file loads, its failure, notices and violations, each violation with the addresses it is placed by.
 */
export function evaluateCase(
  rules: RuleModel, trace: unknown, options: Pick<EvaluationOptions, 'parameters' | 'budget' | 'timeLimitMs' | 'stopped' | 'watch' | 'isCancelled'>,
): CaseEvaluation {
  const notLoaded = loadFailure(rules);
  if (notLoaded) return { notLoaded: { message: notLoaded.message, start: notLoaded.start, end: notLoaded.end }, notices: [], errors: [] };
  const result = evaluateLoadedRules(rules, trace, options);
  if (result.cancelled) throw new Cancelled();
  return {
    ...(result.failure ? { failure: { message: result.failure.message, start: result.failure.start, end: result.failure.end } } : {}),
    notices: result.notices.map(({ kind, message, start }) => ({ kind, message, start })),
    errors: result.errors.map((error) => ({
      ruleIndex: error.ruleIndex, message: error.message, args: error.args, key: error.key, raiseStart: error.raiseStart,
      placeRanges: error.placeRanges(), bindings: error.bindings.map(({ variable, address }) => ({ variable, address })),
    })),
  };
}
