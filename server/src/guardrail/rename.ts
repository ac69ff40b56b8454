import type { Span, TextEditSpan } from '../common/types';
import { KEYWORDS } from './lexer';
import { occurrenceAt, occurrencesOf, type RuleModel } from './model';
import type { RuleSymbol } from './resolve';

const RENAMEABLE = new Set<RuleSymbol['kind']>(['variable', 'parameter', 'comprehension', 'constant', 'predicate']);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function renameable(model: RuleModel, offset: number) {
  const occurrence = occurrenceAt(model, offset);
  if (!occurrence?.symbol || !RENAMEABLE.has(occurrence.symbol.kind)) return undefined;
  return occurrence;
}

/** Variables, predicates and constants can be renamed; built-ins, types, imports and tools cannot. */
export function prepareRename(model: RuleModel, offset: number): Span | null {
  return renameable(model, offset)?.span ?? null;
}

export function rename(model: RuleModel, offset: number, newName: string): TextEditSpan[] | null {
  const occurrence = renameable(model, offset);
  if (!occurrence?.symbol) return null;
  if (!IDENTIFIER.test(newName) || KEYWORDS.has(newName) || newName === 'tool') return null;
  // Renaming onto a name the declaring scope already sees would merge two different things.
  const symbol = occurrence.symbol;
  const scope = model.resolution.scopes.find((info) => info.scope.names.get(symbol.name) === symbol)?.scope ?? model.resolution.global;
  const clash = scope.lookup(newName);
  if (clash && clash !== symbol) return null;
  return occurrencesOf(model, occurrence.symbol).map((o) => ({ span: o.span, newText: newName }));
}
