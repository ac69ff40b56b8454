import type { OutlineItem, Span } from '../common/types';
import { spend, type Budget } from '../common/budget';
import { defaultSettings, type Settings } from '../common/languageService';
import { displayType } from './library';
import { symbolTypeName } from './resolve';
import type { Expr, Statement } from './ast';
import type { RuleModel } from './model';
import type { Scope } from './resolve';
import { spanOf } from '../common/spans';

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

/**
 * Rules (named by their message), predicates, constants and imports, in source order: at most `maxEntries` of them
 * (default 10,000), then one entry saying how many more there are. A longer outline is read by nobody and costs
 * seconds to convert and send (the editor asks again after every edit).
 */
export function symbols(model: RuleModel, budget?: Budget, settings?: Pick<Settings, 'maxRuleOutlineEntries'>): OutlineItem[] {
  const maxEntries = settings?.maxRuleOutlineEntries ?? defaultSettings.maxRuleOutlineEntries!;
  const scopes: RuleScopes = new Map();
  for (const info of model.resolution.scopes) if (!scopes.has(info.span)) scopes.set(info.span, info.scope);
  const items: OutlineItem[] = [];
  const { statements } = model.program;
  let steps = 0;
  let next = 0;
  for (; next < statements.length; next++) {
    steps = spend(budget, steps);
    const entries = item(model, scopes, statements[next]);
    if (items.length + entries.length > maxEntries) break;
    for (const entry of entries) items.push(entry);
  }
  if (next < statements.length) items.push(notListed(statements.slice(next), maxEntries));
  return items;
}

/** The outline's last entry when the cap is hit: how many declarations are left out, spanning them. */
function notListed(rest: Statement[], maxEntries: number): OutlineItem {
  let count = 0;
  for (const statement of rest) count += entryCount(statement);
  const start = rest[0].span.start;
  return {
    name: `${count} more rules and declarations are not listed: the outline lists the first ${maxEntries}`,
    detail: 'setting agentTraces.guardrails.maxOutlineEntries',
    kind: 'metadata',
    span: { start, end: rest[rest.length - 1].span.end },
    selection: { start, end: start },
  };
}

/** How many top-level outline entries a statement makes, without building them. */
function entryCount(statement: Statement): number {
  switch (statement.kind) {
    case 'predicate':
    case 'constant': return statement.name.name ? 1 : 0;
    case 'fromImport': return statement.names.length;
    default: return 1;
  }
}
