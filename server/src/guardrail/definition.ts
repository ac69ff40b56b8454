import type { Target } from '../common/types';
import { occurrenceAt, type RuleModel } from './model';

/** Variables go to their `(x: T)` or `:=` declaration, constants and predicates to theirs, imported names to their import. */
export function definition(model: RuleModel, offset: number): Target[] {
  const occurrence = occurrenceAt(model, offset);
  const symbol = occurrence?.symbol;
  if (!symbol) return [];
  return [{ span: symbol.statementSpan, selection: symbol.declSpan }];
}
