import { ruleFileOf } from './files';
import type { ServiceContext } from '../common/languageService';
import type { HoverResult } from '../common/types';
import { codeBlock, escapeMarkdown, inlineCode } from '../common/markdown';
import { resolveUri } from '../common/uri';
import { rulesOf } from '../guardrail/raises';
import { lineTextAt } from '../guardrail/model';
import { matchesMessage, type ManifestModel } from './manifest';
import { placeAt } from './locate';

/** On an expected message or rule line: the rules of the rule file that raise it, with their raise lines. */
export function hover(model: ManifestModel, offset: number, context: ServiceContext): HoverResult | null {
  const place = placeAt(model, offset);
  if (!place || (place.kind !== 'message' && place.kind !== 'rule')) return null;
  const rulesUri = resolveUri(model.uri, model.rules.path);
  const rules = rulesUri ? ruleFileOf(rulesUri, context) : undefined;
  if (!rules) return null;
  const infos = rulesOf(rules);
  const expectation = place.expectation;
  const matching = place.kind === 'rule'
    ? infos.filter((r) => r.line === expectation.rule)
    // Exact messages only: a /regex/ runs when the tests run, not on hover.
    : infos.filter((r) => r.message !== undefined && expectation.message.kind === 'exact' && matchesMessage(expectation.message, r.message));
  if (matching.length === 0) return null;
  const parts = matching.slice(0, 5).map((r) => `${escapeMarkdown(model.rules.path)}, line ${r.line}: ${inlineCode(r.label)}\n\n${codeBlock(lineTextAt(rules, r.span.start), 'guardrail')}`);
  return { span: place.span, markdown: `**Raised by** ${parts.join('\n\n')}${matching.length > 5 ? `\n\n… and ${matching.length - 5} more rules` : ''}` };
}
