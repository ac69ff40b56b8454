import type { OutlineItem, Span } from '../common/types';
import { spend, type Budget } from '../common/budget';
import { displayType } from './library';
import { symbolTypeName } from './resolve';
import { spanOf, type Expr, type Statement } from './ast';
import type { RuleModel } from './model';
import type { Scope } from './resolve';

/** The scope of each rule, by the rule's span object (one lookup per rule keeps the outline linear). */
type RuleScopes = Map<Span, Scope>;

function ruleName(message: Expr | null): string {
  if (!message) return 'raise';
  if (message.kind === 'string') return message.value.trim() || '(empty message)';
  if (message.kind === 'name') return message.name;
  if (message.kind === 'call') {
    const first = message.args[0];
    const callee = message.callee.kind === 'name' ? message.callee.name : 'raise';
    return first && first.kind === 'string' ? first.value.trim() || callee : callee;
  }
  return 'raise';
}

/** The variables a rule declares at its top level (typed variables and assignments). */
function variables(scopes: RuleScopes, span: Span): OutlineItem[] {
  const scope = scopes.get(span);
  if (!scope) return [];
  return [...scope.names.values()].map((symbol) => {
    const type = symbolTypeName(symbol);
    return { name: symbol.name, kind: 'variable' as const, detail: type === 'unknown' ? undefined : displayType(type), span: symbol.statementSpan, selection: symbol.declSpan };
  });
}

function item(model: RuleModel, scopes: RuleScopes, statement: Statement): OutlineItem[] {
  switch (statement.kind) {
    case 'rule': {
      const selection = statement.message ? spanOf(statement.message) : statement.headerSpan;
      return [{ name: ruleName(statement.message), kind: 'rule', detail: 'rule', span: statement.span, selection, children: variables(scopes, statement.span) }];
    }
    case 'predicate':
      if (!statement.name.name) return [];
      return [{
        name: statement.name.name,
        kind: 'predicate',
        detail: `(${statement.params.map((p) => `${p.name.name}: ${p.type.name}`).join(', ')})`,
        span: statement.span,
        selection: spanOf(statement.name),
      }];
    case 'constant':
      if (!statement.name.name) return [];
      return [{
        name: statement.name.name,
        kind: 'constant',
        detail: statement.block ? 'block' : model.text.slice(statement.body[0]?.start ?? 0, statement.body[0]?.end ?? 0).slice(0, 60),
        span: statement.span,
        selection: spanOf(statement.name),
      }];
    case 'import':
      return [{ name: statement.alias?.name ?? statement.module.name, kind: 'import', detail: `import ${statement.module.name}`, span: statement.span, selection: spanOf(statement.module) }];
    case 'fromImport':
      return statement.names.map(({ name, alias }) => ({
        name: (alias ?? name).name,
        kind: 'import' as const,
        detail: `from ${statement.module.name}`,
        span: statement.span,
        selection: spanOf(alias ?? name),
      }));
    case 'def':
      return [{
        name: statement.name.name,
        kind: 'function',
        detail: 'def (ignored by the rule engine)',
        span: statement.span,
        selection: spanOf(statement.name),
        children: statement.body.flatMap((s) => item(model, scopes, s)),
      }];
  }
}

/** Rules (named by their message), predicates, constants and imports, in source order. */
export function symbols(model: RuleModel, budget?: Budget): OutlineItem[] {
  const scopes: RuleScopes = new Map();
  for (const info of model.resolution.scopes) if (!scopes.has(info.span)) scopes.set(info.span, info.scope);
  const items: OutlineItem[] = [];
  let steps = 0;
  for (const statement of model.program.statements) {
    steps = spend(budget, steps);
    for (const entry of item(model, scopes, statement)) items.push(entry);
  }
  return items;
}
