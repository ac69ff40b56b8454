import type { Problem } from '../common/types';
import type { RuleFile } from './evaluateOnTrace';

/** The command palette's name for EvaluateRulesCommand (package.json), which notices point the user to. */
const evaluateCommandTitle = 'Agent Traces: Evaluate Rules on Open Traces';

/**
 * Workspace Trust for rules. In a workspace the client reports as untrusted, a rule file is evaluated on traces only
 * once the user asked for it (a command, a rule file's code lens, "Check with Rules…"), never because a cloned
 * repository put it in the editor or in its settings. A client that says nothing about trust (editors other than VS
 * Code) is trusted, as is VS Code once the user trusts the workspace.
 */
export class EvaluationConsent {
  private trusted = true;
  /** Rule files (URIs) the user asked to evaluate while the workspace is untrusted. */
  private readonly asked = new Set<string>();

  get isTrusted(): boolean {
    return this.trusted;
  }

  setTrusted(trusted: boolean): void {
    this.trusted = trusted;
  }

  grant(ruleUris: Iterable<string>): void {
    for (const uri of ruleUris) this.asked.add(uri);
  }

  allows(ruleUri: string): boolean {
    return this.trusted || this.asked.has(ruleUri);
  }

  /** The rule files that may be evaluated now, and those held back until the user asks. */
  split(rules: RuleFile[]): { allowed: RuleFile[]; withheld: RuleFile[] } {
    if (this.trusted) return { allowed: rules, withheld: [] };
    const allowed: RuleFile[] = [];
    const withheld: RuleFile[] = [];
    for (const rule of rules) (this.asked.has(rule.uri) ? allowed : withheld).push(rule);
    return { allowed, withheld };
  }
}

/** On the trace's first character (none in an empty one): which rule files apply to it but wait for the user to ask. */
export function withheldNotice(withheld: RuleFile[]): Problem {
  const names = withheld.map((rule) => decodeURIComponent(rule.uri.slice(rule.uri.lastIndexOf('/') + 1)));
  const files = withheld.length === 1 ? `The rule file ${names[0]} applies` : `${withheld.length} rule files apply (${names.join(', ')})`;
  return {
    span: { start: 0, end: 1 },
    severity: 'information',
    code: 'guardrails/restricted-mode',
    message: `${files} to this trace but, in Restricted Mode, rules are evaluated only when you ask: `
      + `run "${evaluateCommandTitle}" or click the rule file's code lens`,
  };
}
