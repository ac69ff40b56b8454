/**
 * The guardrail evaluator's door: a parsed rule file evaluated on one trace, with the official analyzer's semantics
 * (evaluator.ts, over the interpreter, the enumeration of assignments and the Python library of this folder).
 */
export {
  evaluateExpression, evaluateLoadedRules, evaluateLoadedRulesStepwise, evaluateRules, evaluateRulesStepwise, loadFailure,
  type EvaluationNotice, type EvaluationOptions, type EvaluationResult, type GuardrailError,
} from './evaluator';
export type { VariableBinding } from './ranges';
