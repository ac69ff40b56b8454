import type { Target } from '../common/types';
import type { ServiceContext } from '../common/languageService';
import { occurrenceAt, type RuleModel } from './model';
import { pythonImported, pythonTarget } from './pythonImports';

/**
 * Variables go to their `(x: T)` or `:=` declaration, constants and predicates to theirs, imported names to their
 * import, or, for a Python module found in agentTraces.guardrails.pythonPaths, to their definition in its file.
 */
export function definition(model: RuleModel, offset: number, context?: ServiceContext): Target[] {
  const occurrence = occurrenceAt(model, offset);
  const symbol = occurrence?.symbol;
  if (symbol?.kind === 'import') {
    const imported = pythonImported(context?.pythonModules, symbol.module, symbol.importedName);
    if (imported) return [pythonTarget(imported)];
  } else if (!symbol && occurrence?.module !== undefined && occurrence.builtin === undefined) {
    const imported = pythonImported(context?.pythonModules, occurrence.module, undefined);
    return imported ? [pythonTarget(imported)] : [];
  }
  if (!symbol) return [];
  return [{ span: symbol.statementSpan, selection: symbol.declSpan }];
}
