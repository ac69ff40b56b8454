/**
 * `gr/unused-import`: a name an import binds that nothing in the file uses, as a hint drawn faded. The resolver
 * says which bindings its rules, predicates and constants use; a name is also counted as used when it appears in a
 * `def` block (Python the rule engine does not check) or as a word in any string (an f-string's `{name}`, text
 * handed to an `llm` prompt): a wrong "unused" would make people delete an import they need.
 */
import type { Problem, Span } from '../common/types';
import { walkExpr, type Expr, type Program, type Statement } from './ast';
import type { RuleSymbol } from './scope';

/** A name an import binds, and the text that binds it (`name`, `name as alias`, `module.path`). */
export interface ImportBinding {
  symbol: RuleSymbol;
  span: Span;
}

export function unusedImportProblems(program: Program, imports: ImportBinding[], used: ReadonlySet<RuleSymbol>): Problem[] {
  const unused = imports.filter((binding) => !used.has(binding.symbol));
  if (unused.length === 0) return [];
  const mentioned = namesMentioned(program);
  return unused
    .filter((binding) => !mentioned.has(binding.symbol.name))
    .map((binding): Problem => ({
      span: binding.span,
      severity: 'hint',
      code: 'gr/unused-import',
      message: `'${binding.symbol.name}' is imported but never used`,
      unnecessary: true,
    }));
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Words in every string of the file, and every name and type inside `def` blocks. */
function namesMentioned(program: Program): Set<string> {
  const names = new Set<string>();
  const visit = (e: Expr, inDef: boolean) => {
    if (e.kind === 'string') for (const word of e.value.match(WORD) ?? []) names.add(word);
    else if (inDef && e.kind === 'name') names.add(e.name);
    else if (inDef && e.kind === 'typed') names.add(e.type.name);
  };
  const statements: { statement: Statement; inDef: boolean }[] = program.statements.map((statement) => ({ statement, inDef: false }));
  while (statements.length > 0) {
    const { statement, inDef } = statements.pop()!;
    const exprs: Expr[] = [];
    switch (statement.kind) {
      case 'rule':
        if (statement.message) exprs.push(statement.message);
        exprs.push(...statement.body);
        break;
      case 'constant':
        exprs.push(...statement.body);
        break;
      case 'predicate':
        if (inDef) for (const param of statement.params) names.add(param.type.name);
        exprs.push(...statement.body);
        break;
      case 'def':
        for (const param of statement.params) names.add(param.type.name);
        for (const inner of statement.body) statements.push({ statement: inner, inDef: true });
        break;
      default:
        break;
    }
    for (const expr of exprs) walkExpr(expr, (e) => visit(e, inDef));
  }
  return names;
}
