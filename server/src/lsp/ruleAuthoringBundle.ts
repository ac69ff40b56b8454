import { bundleBeside } from '../rulesOnTraces/workerLauncher';

type RuleAuthoring = typeof import('../rulesOnTraces/ruleAuthoring');

let loaded: RuleAuthoring | undefined;

/**
 * "Why not here?" and what a rule change flips run the evaluator in the server's process, from their own bundle
 * (dist/ruleAuthoring.js): a require of a path the bundler cannot follow keeps the evaluator out of the server's.
 */
export function loadRuleAuthoring(): RuleAuthoring {
  const path = bundleBeside('ruleAuthoring.js', 'the rule-authoring bundle');
  return (loaded ??= require(path) as RuleAuthoring);
}
