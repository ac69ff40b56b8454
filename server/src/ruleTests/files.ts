import type { ServiceContext } from '../common/languageService';
import { buildModel, type RuleModel } from '../guardrail/model';

/** The rule files manifests name, parsed once per text (a manifest is checked on every edit; its rule file rarely changes). */
const parsed = new Map<string, RuleModel>();
const maxParsed = 16;

export function ruleFileOf(uri: string, context: ServiceContext | undefined): RuleModel | undefined {
  const text = context?.ruleTestFiles?.ruleFileText(uri);
  if (text === undefined) return undefined;
  const cached = parsed.get(uri);
  if (cached && cached.text === text) return cached;
  const model = buildModel({ uri, version: 0, text });
  parsed.delete(uri);
  if (parsed.size >= maxParsed) parsed.delete(parsed.keys().next().value!);
  parsed.set(uri, model);
  return model;
}
