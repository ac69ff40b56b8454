import type { ServiceContext } from '../common/languageService';
import type { Lens, Problem, RuleFileCoverage, Span } from '../common/types';
import type { RuleModel } from './model';

/**
 * What the last run of a rule file's tests found per rule (see testRuns/): a code lens with the cases it fired in,
 * and the rules no case exercised faded. A rule is known by the text of its `raise` header, so the counts stay on
 * their rules while the file is edited elsewhere, and leave a rule whose header changed (its tests must run again).
 */
export function coverageLenses(model: RuleModel, context: ServiceContext): Lens[] {
  const coverage = context.ruleCoverage?.forRuleFile(model.uri);
  if (!coverage) return [];
  const of = `${coverage.cases} case${coverage.cases === 1 ? '' : 's'} (${coverage.manifests.join(', ')})`;
  return countsByRule(model, coverage).map(({ span, cases }) => ({
    span, title: cases === 0 ? `Tests: never fires in ${of}` : `Tests: fired in ${cases} of ${of}`,
  }));
}

export function coverageProblems(model: RuleModel, context: ServiceContext): Problem[] {
  const coverage = context.ruleCoverage?.forRuleFile(model.uri);
  if (!coverage || coverage.cases === 0) return [];
  return countsByRule(model, coverage).filter((r) => r.cases === 0).map(({ rule }) => ({
    span: rule, severity: 'hint', code: 'tests/never-fires', unnecessary: true,
    message: `This rule fired in none of the ${coverage.cases} cases of ${coverage.manifests.join(', ')}: no test exercises it`,
  }));
}

function countsByRule(model: RuleModel, coverage: RuleFileCoverage): { span: Span; rule: Span; cases: number }[] {
  const byHeader = new Map<string, number[]>();
  for (const r of coverage.rules) byHeader.set(r.header, [...(byHeader.get(r.header) ?? []), r.cases]);
  const out: { span: Span; rule: Span; cases: number }[] = [];
  for (const statement of model.program.statements) {
    if (statement.kind !== 'rule') continue;
    const counts = byHeader.get(model.text.slice(statement.headerSpan.start, statement.headerSpan.end));
    const cases = counts?.shift();
    if (cases !== undefined) out.push({ span: statement.headerSpan, rule: statement.span, cases });
  }
  return out;
}
