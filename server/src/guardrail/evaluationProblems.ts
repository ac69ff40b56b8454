import type { Problem, RuleFileResults } from '../common/types';
import { duration } from '../common/text';
import { fileNameOfUri } from '../common/uri';
import type { RuleModel } from './model';

/** Trace files a problem names before it says how many more there are. */
const namedFiles = 3;

/**
 * What the evaluation of a rule file on traces says about the rule file itself: a rule that ran past its time limit
 * on some traces gets a warning on its `raise … if:` line (its verdict there is not known), beside its code lens.
 */
export function evaluationProblems(model: RuleModel, results: RuleFileResults | undefined, timeLimitMs: number): Problem[] {
  if (!results) return [];
  const problems: Problem[] = [];
  let ruleIndex = 0;
  for (const statement of model.program.statements) {
    if (statement.kind !== 'rule') continue;
    const rule = results.rule(ruleIndex++);
    if (rule.timedOut === 0) continue;
    const names = rule.timedOutFiles.slice(0, namedFiles).map(fileNameOfUri);
    const more = rule.timedOutFiles.length - names.length;
    const traces = `${rule.timedOut.toLocaleString('en-US')} trace${rule.timedOut === 1 ? '' : 's'}`;
    problems.push({
      span: statement.headerSpan,
      severity: 'warning',
      code: 'guardrails/timeout',
      message: `This rule ran past its time limit (${duration(timeLimitMs)}) on ${traces} (${names.join(', ')}${more > 0 ? ` and ${more} more files` : ''}) and was stopped there: `
        + 'its violations on them are not reported (setting agentTraces.guardrails.timeout)',
    });
  }
  return problems;
}
