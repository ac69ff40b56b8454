import { guardrailService, type RuleModel } from '../guardrail';
import type { RuleFile } from './evaluateOnTrace';

/**
 * Which rule files apply to a trace: every rule file open in the editor (the playground case: a rule opened beside
 * a trace), the files of `agentTraces.guardrails.policies`, and those chosen for that trace with "Check with
 * Rules…". An open rule document wins over its copy on disk, so edits apply before they are saved.
 */
export class RuleBindings {
  private policies: RuleFile[] = [];
  private readonly chosen = new Map<string, RuleFile[]>();

  setPolicies(files: { uri: string; text: string }[]): void {
    this.policies = files.map(parseRuleFile);
  }

  choose(traceUri: string, files: { uri: string; text: string }[]): void {
    if (files.length === 0) this.chosen.delete(traceUri);
    else this.chosen.set(traceUri, files.map(parseRuleFile));
  }

  forget(traceUri: string): void {
    this.chosen.delete(traceUri);
  }

  /** The rule files that apply to any trace: the policies and the open rule files (for the workspace's lens counts). */
  rulesForEveryTrace(openRules: RuleFile[]): RuleFile[] {
    return this.rulesFor('', openRules);
  }

  rulesFor(traceUri: string, openRules: RuleFile[]): RuleFile[] {
    const byUri = new Map<string, RuleFile>();
    for (const rule of [...this.policies, ...(this.chosen.get(traceUri) ?? []), ...openRules]) byUri.set(rule.uri, rule);
    return [...byUri.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }
}

function parseRuleFile(file: { uri: string; text: string }): RuleFile {
  return { uri: file.uri, model: guardrailService.parse({ uri: file.uri, version: 0, text: file.text }) as RuleModel };
}
