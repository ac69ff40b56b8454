import { ruleFileOf } from './files';
import type { ServiceContext } from '../common/languageService';
import type { Target } from '../common/types';
import { resolveUri } from '../common/uri';
import { rulesOf } from '../guardrail/raises';
import { matchesMessage, type ManifestModel } from './manifest';
import { placeAt } from './locate';

/** The rule file from `rules`, the trace file from a case's `trace`, the raising rules from an expected message or rule line. */
export function definition(model: ManifestModel, offset: number, context?: ServiceContext): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  const rulesUri = resolveUri(model.uri, model.rules.path);
  if (place.kind === 'rules') return rulesUri ? [{ uri: rulesUri, span: { start: 0, end: 0 } }] : [];
  if (place.kind === 'trace') {
    const uri = place.testCase.trace?.kind === 'file' ? resolveUri(model.uri, place.testCase.trace.path) : undefined;
    return uri ? [{ uri, span: { start: 0, end: 0 } }] : [];
  }
  if (place.kind !== 'message' && place.kind !== 'rule') return [];
  const rules = rulesUri ? ruleFileOf(rulesUri, context) : undefined;
  if (!rules || !rulesUri) return [];
  const expectation = place.expectation;
  return rulesOf(rules)
    .filter((r) => (place.kind === 'rule' ? r.line === expectation.rule
      : r.message !== undefined && expectation.message.kind === 'exact' && matchesMessage(expectation.message, r.message)))
    .map((r) => ({ uri: rulesUri, span: r.span, positions: rules.lines }));
}
