/**
 * The rule-authoring features that run the evaluator in the server's process, "why not here?" and what a rule
 * change flips, bundled on their own (dist/ruleAuthoring.js, esbuild.mjs): the server's bundle holds no evaluator,
 * and loads this one on the first question.
 */
export * from './explainOnTrace';
export * from './compareWorkspace';
