/**
 * ruleAuthoringBundle.ts for the browser build: a web worker cannot load a bundle beside its own synchronously, so the
 * browser's server bundle holds the rule-authoring code ("why not here?" choices, whether both versions of a rule file
 * load) itself. Rules evaluated on traces still run on the nested evaluation workers.
 */
import type * as NodeBundle from './ruleAuthoringBundle';
import * as ruleAuthoring from '../rulesOnTraces/ruleAuthoring';

export const loadRuleAuthoring: typeof NodeBundle.loadRuleAuthoring = () => ruleAuthoring;
