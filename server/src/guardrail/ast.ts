import type { Span } from '../common/types';

/**
 * Expressions, names, keyword arguments and object entries keep their source range as two numbers (UTF-16
 * offsets) rather than a Span object: a big rule file has tens of thousands of them, and one object fewer per node
 * is a large part of the parse's allocation. `spanOf` (common/spans.ts) makes a Span where one is handed out.
 */
export interface Ranged {
  start: number;
  end: number;
}

/** A name as written in the source (identifier, type name, field name, module segment). */
export interface Ident {
  name: string;
  start: number;
  end: number;
}

export type BinaryOperator =
  | 'and' | 'or'
  | '==' | '!=' | '<' | '>' | '<=' | '>=' | 'is' | 'in' | 'contains_only' | '->' | '~>'
  | '+' | '-' | '*' | '/' | '%' | '**';

export interface KeywordArgument {
  name: Ident;
  value: Expr;
  start: number;
  end: number;
}

export interface ObjectEntry {
  key: string;
  keyStart: number;
  keyEnd: number;
  /** True for `{key: v}`, false for `{"key": v}`. */
  bareKey: boolean;
  value: Expr;
}

export type Expr =
  | { kind: 'name'; name: string; start: number; end: number }
  | { kind: 'number'; value: number; start: number; end: number }
  | { kind: 'string'; value: string; start: number; end: number; prefix: string; triple: boolean }
  | { kind: 'bool'; value: boolean; start: number; end: number }
  | { kind: 'none'; start: number; end: number }
  | { kind: 'typed'; variable: Ident; type: Ident; start: number; end: number }
  | { kind: 'binary'; op: BinaryOperator; opStart: number; opEnd: number; left: Expr; right: Expr; start: number; end: number }
  | { kind: 'unary'; op: 'not' | '-' | '+'; opStart: number; opEnd: number; operand: Expr; start: number; end: number }
  | { kind: 'ternary'; then: Expr; condition: Expr; otherwise: Expr; start: number; end: number }
  | { kind: 'member'; object: Expr; member: Ident; start: number; end: number }
  | { kind: 'index'; object: Expr; index: Expr; start: number; end: number }
  | { kind: 'call'; callee: Expr; args: Expr[]; kwargs: KeywordArgument[]; start: number; end: number }
  | { kind: 'tuple'; items: Expr[]; start: number; end: number }
  | { kind: 'list'; items: Expr[]; start: number; end: number }
  | { kind: 'comprehension'; element: Expr; variable: Ident; iterable: Expr; condition: Expr | null; start: number; end: number }
  | { kind: 'object'; entries: ObjectEntry[]; start: number; end: number }
  /** `tool:name`; with `args` when written as the semantic pattern `tool:name(...)`. */
  | { kind: 'tool'; toolName: Ident; args: Expr[] | null; start: number; end: number }
  | { kind: 'wildcard'; start: number; end: number }
  | { kind: 'valueRef'; name: string; start: number; end: number }
  | { kind: 'placeholder'; name: string; start: number; end: number }
  | { kind: 'assign'; target: Ident; value: Expr; start: number; end: number }
  | { kind: 'quantifier'; negated: boolean; head: Expr; body: Expr[]; start: number; end: number }
  | { kind: 'error'; start: number; end: number };

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
