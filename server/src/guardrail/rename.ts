import type { RenameResult, Span } from '../common/types';
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

export function rename(model: RuleModel, offset: number, newName: string): RenameResult | null {
  const occurrence = renameable(model, offset);
  if (!occurrence?.symbol) return null;
  const quoted = JSON.stringify(newName);
  if (!IDENTIFIER.test(newName)) return { refusal: `${quoted} is not a name: a name starts with a letter or _ and holds only letters, digits and _` };
  if (KEYWORDS.has(newName) || newName === 'tool') return { refusal: `${quoted} is a keyword of the rule language` };
  // Renaming onto a name the declaring scope already sees would merge two different things.
  const symbol = occurrence.symbol;
  const scope = model.resolution.scopes.find((info) => info.scope.names.get(symbol.name) === symbol)?.scope ?? model.resolution.global;
  const clash = scope.lookup(newName);
  if (clash && clash !== symbol) return { refusal: `${quoted} already names ${KIND_NAMES[clash.kind]} that ${symbol.name} can see: renaming onto it would merge the two` };
  return { edits: occurrencesOf(model, occurrence.symbol).map((o) => ({ span: o.span, newText: newName })) };
}

const KIND_NAMES: Record<RuleSymbol['kind'], string> = {
  variable: 'a variable', parameter: 'a parameter', constant: 'a constant', predicate: 'a predicate', import: 'an import',
  comprehension: 'a comprehension variable',
};
