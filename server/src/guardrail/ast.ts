import type { Span } from '../common/types';

/** A name as written in the source (identifier, type name, field name, module segment). */
export interface Ident {
  name: string;
  span: Span;
}

export type BinaryOperator =
  | 'and' | 'or'
  | '==' | '!=' | '<' | '>' | '<=' | '>=' | 'is' | 'in' | 'contains_only' | '->' | '~>'
  | '+' | '-' | '*' | '/' | '%' | '**';

export interface KeywordArgument {
  name: Ident;
  value: Expr;
  span: Span;
}

export interface ObjectEntry {
  key: string;
  keySpan: Span;
  /** True for `{key: v}`, false for `{"key": v}`. */
  bareKey: boolean;
  value: Expr;
}

export type Expr =
  | { kind: 'name'; name: string; span: Span }
  | { kind: 'number'; value: number; span: Span }
  | { kind: 'string'; value: string; span: Span; prefix: string; triple: boolean }
  | { kind: 'bool'; value: boolean; span: Span }
  | { kind: 'none'; span: Span }
  | { kind: 'typed'; variable: Ident; type: Ident; span: Span }
  | { kind: 'binary'; op: BinaryOperator; opSpan: Span; left: Expr; right: Expr; span: Span }
  | { kind: 'unary'; op: 'not' | '-' | '+'; opSpan: Span; operand: Expr; span: Span }
  | { kind: 'ternary'; then: Expr; condition: Expr; otherwise: Expr; span: Span }
  | { kind: 'member'; object: Expr; member: Ident; span: Span }
  | { kind: 'index'; object: Expr; index: Expr; span: Span }
  | { kind: 'call'; callee: Expr; args: Expr[]; kwargs: KeywordArgument[]; span: Span }
  | { kind: 'tuple'; items: Expr[]; span: Span }
  | { kind: 'list'; items: Expr[]; span: Span }
  | { kind: 'comprehension'; element: Expr; variable: Ident; iterable: Expr; condition: Expr | null; span: Span }
  | { kind: 'object'; entries: ObjectEntry[]; span: Span }
  /** `tool:name`; with `args` when written as the semantic pattern `tool:name(...)`. */
  | { kind: 'tool'; toolName: Ident; args: Expr[] | null; span: Span }
  | { kind: 'wildcard'; span: Span }
  | { kind: 'valueRef'; name: string; span: Span }
  | { kind: 'placeholder'; name: string; span: Span }
  | { kind: 'assign'; target: Ident; value: Expr; span: Span }
  | { kind: 'quantifier'; negated: boolean; head: Expr; body: Expr[]; span: Span }
  | { kind: 'error'; span: Span };

export interface Parameter {
  name: Ident;
  type: Ident;
}

export interface ImportName {
  name: Ident;
  alias: Ident | null;
}

export type Statement =
  | { kind: 'import'; module: Ident; alias: Ident | null; span: Span }
  | { kind: 'fromImport'; module: Ident; names: ImportName[]; span: Span }
  | { kind: 'rule'; message: Expr | null; body: Expr[]; span: Span; headerSpan: Span }
  | { kind: 'constant'; name: Ident; body: Expr[]; span: Span; block: boolean }
  | { kind: 'predicate'; name: Ident; params: Parameter[]; body: Expr[]; span: Span; block: boolean }
  | { kind: 'def'; name: Ident; params: Parameter[]; body: Statement[]; span: Span };

export interface Program {
  statements: Statement[];
}

/** Calls `visit` on `expr` and every expression nested in it, parents first. */
export function walkExpr(expr: Expr, visit: (e: Expr) => void): void {
  const stack: Expr[] = [expr];
  while (stack.length > 0) {
    const e = stack.pop()!;
    visit(e);
    const children = childExprs(e);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
}

export function childExprs(e: Expr): Expr[] {
  switch (e.kind) {
    case 'binary': return [e.left, e.right];
    case 'unary': return [e.operand];
    case 'ternary': return [e.then, e.condition, e.otherwise];
    case 'member': return [e.object];
    case 'index': return [e.object, e.index];
    case 'call': return [e.callee, ...e.args, ...e.kwargs.map((k) => k.value)];
    case 'tuple': case 'list': return e.items;
    case 'comprehension': return e.condition ? [e.element, e.iterable, e.condition] : [e.element, e.iterable];
    case 'object': return e.entries.map((entry) => entry.value);
    case 'tool': return e.args ?? [];
    case 'assign': return [e.value];
    case 'quantifier': return [e.head, ...e.body];
    default: return [];
  }
}
