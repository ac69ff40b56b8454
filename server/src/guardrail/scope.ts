/** What resolving a rule file produces: its symbols, their occurrences and the scopes they are visible in. */
import type { Problem, Span } from '../common/types';
import type { Expr, Parameter } from './ast';
import { BUILTIN_FUNCTIONS, RESULT_TYPES, has } from './library';

export type SymbolKind = 'variable' | 'parameter' | 'constant' | 'predicate' | 'import' | 'comprehension';

export interface RuleSymbol {
  name: string;
  kind: SymbolKind;
  /** The name where it is declared. */
  declSpan: Span;
  /** The whole declaring statement or line (shown on hover). */
  statementSpan: Span;
  /** Declared type name (typed variables, parameters), or the expression whose type it takes. */
  declaredType?: string;
  valueExpr?: Expr;
  /** Every use (not the declaration). */
  references: Span[];
  /** For imports: the module and, for `from … import`, the imported name. */
  module?: string;
  importedName?: string;
  params?: Parameter[];
  /** Cached inferred type. */
  inferred?: string;
}

/** What one name occurrence in the source stands for. */
export interface Occurrence {
  span: Span;
  symbol?: RuleSymbol;
  isDeclaration?: boolean;
  /** A name from the language itself: a built-in function, type, result constructor or `input`. */
  builtin?: string;
  /** A type name in `(x: T)` or a parameter list. */
  typeName?: string;
  /** A field after `.`, with the type of the object when known. */
  member?: { objectType: string; name: string };
  /** The tool name in `tool:name`. */
  tool?: string;
  /** A module name in an import. */
  module?: string;
}

export interface ScopeInfo {
  span: Span;
  scope: Scope;
}

export class Scope {
  readonly names = new Map<string, RuleSymbol>();
  constructor(readonly parent: Scope | null) {}

  lookup(name: string): RuleSymbol | undefined {
    for (let s: Scope | null = this; s; s = s.parent) {
      const found = s.names.get(name);
      if (found) return found;
    }
    return undefined;
  }

  /** Every visible symbol, innermost first, without shadowed ones. */
  visible(): RuleSymbol[] {
    const seen = new Set<string>();
    const result: RuleSymbol[] = [];
    for (let s: Scope | null = this; s; s = s.parent) {
      for (const [name, symbol] of s.names) {
        if (!seen.has(name)) {
          seen.add(name);
          result.push(symbol);
        }
      }
    }
    return result;
  }
}

export const BUILTIN_TYPE_NAMES = ['Event', 'Message', 'ToolCall', 'Function', 'ToolOutput', 'TextChunk', 'Image', 'Tool', 'ToolParameter', 'LLM', 'Input', 'str', 'int', 'float', 'bool', 'list', 'dict'];
export const BUILTIN_TYPES: ReadonlySet<string> = new Set(BUILTIN_TYPE_NAMES);

export function isBuiltinName(name: string): boolean {
  return BUILTIN_TYPES.has(name) || has(BUILTIN_FUNCTIONS, name) || has(RESULT_TYPES, name) || name === 'input';
}

export interface Resolution {
  global: Scope;
  symbols: RuleSymbol[];
  /** Sorted by start offset. */
  occurrences: Occurrence[];
  scopes: ScopeInfo[];
  problems: Problem[];
}

/** The type a symbol stands for, for hover and completion (after resolution ran). */
export function symbolTypeName(symbol: RuleSymbol): string {
  return symbol.inferred ?? symbol.declaredType ?? 'unknown';
}

