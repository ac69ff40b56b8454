import type { RuleInfo } from '../guardrail/raises';
import type { ManifestResult } from './run';

/**
 * Which rules the tests exercise: per rule file, each rule (each `raise`) with the number of cases it fired in,
 * over every manifest that tests the file. A rule file no manifest tests is listed with its rules, untested.
 */

export interface RuleCoverage {
  rule: RuleInfo;
  /** Cases the rule fired in (0: it never fires in the tests). */
  cases: number;
}

export interface RuleFileCoverage {
  uri: string;
  /** The manifests that test it (none: the file is not tested). */
  manifests: string[];
  /** Cases run on it and judged (skipped cases and cases that could not run are not counted). */
  cases: number;
  rules: RuleCoverage[];
}

export function coverageOf(results: ManifestResult[], untested: { uri: string; rules: RuleInfo[] }[] = []): RuleFileCoverage[] {
  const byFile = new Map<string, RuleFileCoverage>();
  for (const result of results) {
    if (!result.rulesUri || result.problem) continue;
    let file = byFile.get(result.rulesUri);
    if (!file) byFile.set(result.rulesUri, (file = { uri: result.rulesUri, manifests: [], cases: 0, rules: result.rules.map((rule) => ({ rule, cases: 0 })) }));
    file.manifests.push(result.uri);
    for (const c of result.cases) {
      if (c.status === 'skipped' || c.error) continue;
      file.cases++;
      for (const index of c.fired) if (file.rules[index]) file.rules[index].cases++;
    }
  }
  for (const file of untested) {
    if (!byFile.has(file.uri)) byFile.set(file.uri, { uri: file.uri, manifests: [], cases: 0, rules: file.rules.map((rule) => ({ rule, cases: 0 })) });
  }
  return [...byFile.values()];
}
