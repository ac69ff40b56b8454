/**
 * The rule-authoring features that run evaluator code in the server's process, "why not here?" and whether both
 * versions of a rule file load (what a change flips is then evaluated on the rule evaluation workers), bundled on
 * their own (dist/ruleAuthoring.js, esbuild.mjs): the server's bundle holds no evaluator, and loads this one on the
 * first question.
 */
export * from './explainOnTrace';
export * from './ruleVersions';
