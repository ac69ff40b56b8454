import type { Target } from '../common/types';
import { occurrenceAt, occurrencesOf, type RuleModel } from './model';

export function references(model: RuleModel, offset: number, includeDeclaration: boolean): Target[] {
  const symbol = occurrenceAt(model, offset)?.symbol;
  if (!symbol) return [];
  return occurrencesOf(model, symbol)
    .filter((o) => includeDeclaration || o.span !== symbol.declSpan)
    .map((o) => ({ span: o.span }));
}
