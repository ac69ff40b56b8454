import { ruleFileOf } from './files';
import type { ServiceContext } from '../common/languageService';
import type { CompletionEntry } from '../common/types';
import { resolveUri } from '../common/uri';
import { rulesOf } from '../guardrail/raises';
import type { ManifestModel } from './manifest';
import { placeAt } from './locate';

/**
 * Inside an expected violation's `message`: the messages the rule file's rules raise; on its `rule`: their raise
 * lines. (The fields themselves come from the contributed JSON Schema.)
 */
export function completion(model: ManifestModel, offset: number, context: ServiceContext): CompletionEntry[] {
  const place = placeAt(model, offset);
  if (!place || (place.kind !== 'message' && place.kind !== 'rule')) return [];
  const rulesUri = resolveUri(model.uri, model.rules.path);
  const rules = rulesUri ? ruleFileOf(rulesUri, context) : undefined;
  if (!rules) return [];
  const infos = rulesOf(rules);
  if (place.kind === 'rule') {
    return infos.map((r) => ({ label: String(r.line), kind: 'value', detail: r.label, replace: place.span, sortText: String(r.line).padStart(8, '0') }));
  }
  return infos.filter((r) => r.message !== undefined).map((r) => ({
    label: r.message!, kind: 'value', detail: `line ${r.line}`, insertText: JSON.stringify(r.message), replace: place.span, filterText: JSON.stringify(r.message),
    sortText: String(r.line).padStart(8, '0'),
  }));
}
