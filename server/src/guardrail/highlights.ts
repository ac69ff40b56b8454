import type { Highlight } from '../common/types';
import { occurrenceAt, occurrencesOf, type RuleModel } from './model';

export function highlights(model: RuleModel, offset: number): Highlight[] {
  const symbol = occurrenceAt(model, offset)?.symbol;
  if (!symbol) return [];
  return occurrencesOf(model, symbol).map((o) => ({ span: o.span, kind: o.isDeclaration ? 'write' : 'read' }));
}
