import { capProblems, sortByPosition, tooManyProblemsMessage } from '../common/capProblems';
import type { ServiceContext } from '../common/languageService';
import type { Problem } from '../common/types';
import { resolveUri } from '../common/uri';
import { rulesOf, type RuleInfo } from '../guardrail/raises';
import { describePattern, matchesMessage, type ManifestModel } from './manifest';
import { ruleFileOf } from './files';

/**
 * A manifest's problems: its syntax and the shape of its fields, and, when the context can tell, a rule file or
 * trace file that does not exist, an expected message no rule of the rule file can raise, and a `rule` line that
 * holds no rule.
 */
export function validate(model: ManifestModel, context: ServiceContext): Problem[] {
  const problems = [...model.problems];
  const files = context.ruleTestFiles;
  if (files) {
    const missing = (span: { start: number; end: number }, what: string, path: string) => {
      const uri = resolveUri(model.uri, path);
      if (uri && files.exists(uri) === false) problems.push({ span, severity: 'error', code: 'tests/missing-file', message: `${what} ${path} does not exist` });
    };
    const rulesUri = resolveUri(model.uri, model.rules.path);
    const rulesExist = rulesUri ? files.exists(rulesUri) : undefined;
    if (rulesExist === false) {
      const span = model.rules.span ?? { start: 0, end: Math.min(1, model.text.length) };
      problems.push({ span, severity: 'error', code: 'tests/missing-file', message: `The rule file ${model.rules.path} does not exist${model.rules.span ? '' : ' (the default for this manifest: name another with "rules")'}` });
    }
    for (const testCase of model.cases) if (testCase.trace?.kind === 'file') missing(testCase.trace.span, 'The trace file', testCase.trace.path);
    const ruleModel = rulesUri && rulesExist !== false ? ruleFileOf(rulesUri, context) : undefined;
    if (ruleModel && ruleModel.syntaxProblems.length === 0) problems.push(...expectationProblems(model, rulesOf(ruleModel), model.rules.path));
  }
  return capProblems(sortByPosition(problems), context.settings.maxProblems, (_omitted, shown, found) => ({
    span: { start: 0, end: 0 }, severity: 'information', code: 'tests/too-many-problems', message: tooManyProblemsMessage(shown, found),
  }));
}

/** Expected messages no rule can raise, and `rule` lines that hold no rule (each checked against the rule file's raises). */
function expectationProblems(model: ManifestModel, rules: RuleInfo[], rulesPath: string): Problem[] {
  const problems: Problem[] = [];
  // A rule whose message is not a literal (a constant, an expression) can raise anything: then no message is flagged.
  const allKnown = rules.every((r) => r.message !== undefined);
  for (const testCase of model.cases) {
    for (const expectation of testCase.expect) {
      const byLine = expectation.rule !== undefined ? rules.find((r) => r.line === expectation.rule) : undefined;
      if (expectation.rule !== undefined && !byLine && expectation.ruleSpan) {
        const lines = rules.map((r) => r.line).join(', ');
        problems.push({ span: expectation.ruleSpan, severity: 'error', code: 'tests/unknown-rule', message: `No rule of ${rulesPath} raises on line ${expectation.rule}${lines ? ` (its raises are on lines ${lines})` : ''}` });
      }
      // A /regex/ is matched when the tests run, never while the manifest is typed (a pattern can take exponential time).
      if (expectation.message.kind !== 'exact') continue;
      const candidates = byLine ? [byLine] : rules;
      if (!(byLine ? byLine.message !== undefined : allKnown)) continue;
      if (candidates.some((r) => matchesMessage(expectation.message, r.message!))) continue;
      const raised = candidates.slice(0, 5).map((r) => JSON.stringify(r.message)).join(', ') + (candidates.length > 5 ? ', …' : '');
      const message = byLine
        ? `The rule on line ${byLine.line} of ${rulesPath} raises ${raised}, not ${describePattern(expectation.message)}`
        : `No rule of ${rulesPath} raises ${describePattern(expectation.message)}${raised ? `; its rules raise ${raised}` : ': it has no rules'}`;
      problems.push({
        span: expectation.messageSpan, severity: 'warning', code: 'tests/unknown-message', message,
        ...(candidates.length === 1 ? { suggestion: JSON.stringify(candidates[0].message) } : {}),
      });
    }
  }
  return problems;
}
