import type { ServiceContext } from '../common/languageService';
import type { Lens } from '../common/types';
import type { RuleModel } from './model';
import { shorten } from '../common/text';
import { EvaluateRulesCommand } from '../../../shared/requests';
import { coverageLenses } from './coverage';

/**
 * Per rule: "N violations in M traces" over the traces the file was evaluated on (the open ones and, up to a limit
 * the lens names when hit, the workspace's other trace files), with on how many it was not evaluated (and why,
 * when it found nothing elsewhere); or only why, when it was evaluated on none. In an untrusted workspace, until the
 * user asks for the file: a lens that asks. Before it, after a run of the file's tests, the cases the rule fired in.
 */
export function codeLenses(model: RuleModel, context: ServiceContext): Lens[] {
  // The tests' count first: after a run it is what the author looks for, and a reason a rule was not evaluated on
  // the open traces can fill the line.
  return [...coverageLenses(model, context), ...violationLenses(model, context)];
}

function violationLenses(model: RuleModel, context: ServiceContext): Lens[] {
  const results = context.guardrailResults?.forRuleFile(model.uri);
  if (!results) return [];
  const lenses: Lens[] = [];
  let ruleIndex = 0;
  for (const statement of model.program.statements) {
    if (statement.kind !== 'rule') continue;
    const rule = results.rule(ruleIndex++);
    const span = statement.headerSpan;
    if (results.awaitsRequest) {
      lenses.push({ span, title: 'Restricted Mode: rules run only when you ask · Evaluate on the open traces', command: { id: EvaluateRulesCommand, arguments: [model.uri] } });
      continue;
    }
    const reason = rule.reason ?? results.fileReason;
    const onDisk = results.workspaceFiles ?? 0;
    const evaluated = results.documents + onDisk - rule.unevaluated;
    if (reason && evaluated <= 0) {
      lenses.push({ span, title: `Not evaluated: ${oneLine(reason)}` });
      continue;
    }
    const open = `${results.documents} open trace file${results.documents === 1 ? '' : 's'}`;
    const disk = `${onDisk} ${results.documents === 0 ? '' : 'more '}trace file${onDisk === 1 ? '' : 's'} in the workspace`;
    const of = onDisk === 0 ? open : results.documents === 0 ? disk : `${open} and ${disk}`;
    const title = results.documents + onDisk === 0
      ? 'No open trace to check (open a trace, or bind rule files with agentTraces.guardrails.policies)'
      : `${count(rule.violations, 'violation', rule.limited)} in ${count(rule.traces, 'trace')} (of ${of})${results.limitNotice ? ` · ${results.limitNotice}` : ''}`
        + (rule.timedOut > 0 ? ` · timed out on ${count(rule.timedOut, 'trace')} (agentTraces.guardrails.timeout)` : '')
        + (reason ? ` · not evaluated on ${count(rule.unevaluated, 'trace file')}${rule.violations === 0 ? `: ${oneLine(reason)}` : ''}` : '');
    lenses.push({ span, title, targets: rule.targets.length > 0 ? rule.targets : undefined });
  }
  return lenses;
}

/** `atLeast`: a limit stopped the count (agentTraces.maxProblems per rule and trace): "1,000+ violations". */
function count(n: number, noun: string, atLeast = false): string {
  return `${n.toLocaleString('en-US')}${atLeast ? '+' : ''} ${noun}${n === 1 && !atLeast ? '' : 's'}`;
}

function oneLine(text: string): string {
  return shorten(text.replace(/\s+/g, ' '), 160);
}
