import { guardrailService } from '../guardrail';
import type { RuleModel } from '../guardrail/model';
import { loadFailure } from '../guardrail/evaluate';

/** Both versions of a rule file parsed, or why one does not load (nothing is compared then). */
export function loadVersions(uri: string, oldText: string, newText: string): { oldRules: RuleModel; newRules: RuleModel } | string {
  const versions: RuleModel[] = [];
  for (const [name, text] of [['the committed version', oldText], ['the working copy', newText]] as const) {
    const model = guardrailService.parse({ uri, version: 0, text }) as RuleModel;
    const failure = loadFailure(model);
    if (failure) return `${name} does not load (line ${model.lines.positionAt(failure.start).line + 1}: ${failure.message})`;
    versions.push(model);
  }
  return { oldRules: versions[0], newRules: versions[1] };
}
