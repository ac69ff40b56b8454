import type { Problem, Span } from '../common/types';
import type { Expr, Ident, Program, Statement } from './ast';
import {
  BUILTIN_FUNCTIONS, LIBRARY_FUNCTIONS, MODULES, VALUE_TYPES,
  elementType, fieldOf, has, suggest, typeInfo, type FunctionInfo,
} from './library';
import { lookup } from '../common/lookup';
import { EVALUATED_MODULES, unsafeBuiltinReason } from './python';
import { closestNames } from '../common/editDistance';
import { BUILTIN_TYPE_NAMES, BUILTIN_TYPES, isBuiltinName, Scope, type Occurrence, type Resolution, type RuleSymbol, type ScopeInfo, type SymbolKind } from './scope';
import { unusedImportProblems, type ImportBinding } from './unusedImports';
import { spanOf } from '../common/spans';

// Features and the evaluator import the resolution's types from here, with the resolver.
export * from './scope';

/** Declarations whose types are followed through one another (`b := a.x`, `c := b.y`, …) before giving up. */
const MAX_TYPE_DEPTH = 200;

/** Expressions waiting on the resolver's stack, with the scope and pattern context each is resolved in. */
class PendingExprs {
  readonly exprs: Expr[] = [];
  readonly scopes: Scope[] = [];
  readonly inPattern: boolean[] = [];

  push(e: Expr, scope: Scope, inPattern: boolean): void {
    this.exprs.push(e);
    this.scopes.push(scope);
    this.inPattern.push(inPattern);
  }
}

const NON_BOOLEAN_OPERATORS = new Set(['and', 'or', '+', '-', '*', '/', '%', '**']);

const STRING_METHOD_RESULTS: Record<string, string> = lookup({
  strip: 'str', lower: 'str', upper: 'str', format: 'str', join: 'str', splitlines: 'list<str>', split: 'list<str>',
});

/**
 * Scopes, types and semantic problems. With `index` false only the problems are computed (the diagnostics path);
 * with `index` true also the occurrence index and references the editor features need. `unusedImports`: also say
 * which imports nothing uses (the diagnostics path, when every line parsed: see model.ts).
 */
export function resolve(program: Program, index = true, unusedImports = false): Resolution {
  return new Resolver(index, unusedImports).run(program);
}

class Resolver {
  constructor(private readonly index: boolean, private readonly unusedImports: boolean) {}

  private readonly symbols: RuleSymbol[] = [];
  private readonly occurrences: Occurrence[] = [];
  private readonly scopes: ScopeInfo[] = [];
  private readonly problems: Problem[] = [];
  private readonly global = new Scope(null);
  private inferring = new Set<RuleSymbol>();
  private readonly declScope = new Map<RuleSymbol, Scope>();
  /** Reused by declareBody (one walk per block line). */
  private readonly stack: Expr[] = [];
  /** Reused by expr. */
  private readonly pending = new PendingExprs();
  /** Every name an import binds, and those a rule, predicate or constant uses (for `gr/unused-import`). */
  private readonly imports: ImportBinding[] = [];
  private readonly usedImports = new Set<RuleSymbol>();

  run(program: Program): Resolution {
    for (const statement of program.statements) this.declareGlobal(statement);
    for (const statement of program.statements) this.resolveStatement(statement);
    if (this.unusedImports) for (const problem of unusedImportProblems(program, this.imports, this.usedImports)) this.problems.push(problem);
    for (const symbol of this.index ? this.symbols : []) {
      if (!symbol.inferred) this.symbolType(symbol, this.declScope.get(symbol) ?? this.global);
    }
    return { global: this.global, symbols: this.symbols, occurrences: sortByStart(this.occurrences), scopes: this.scopes, problems: this.problems };
  }

  private problem(span: Span, severity: Problem['severity'], code: string, message: string, related?: Problem['related']): void {
    this.problems.push(related ? { span, severity, code, message, related } : { span, severity, code, message });
  }

  /** Every occurrence gets the same object shape, which keeps property access and sorting fast. */
  private occurrence(o: Occurrence): void {
    if (!this.index) return;
    this.occurrences.push({
      span: o.span, symbol: o.symbol, isDeclaration: o.isDeclaration ?? false, builtin: o.builtin,
      typeName: o.typeName, member: o.member, tool: o.tool, module: o.module,
    });
  }

  private newSymbol(symbol: Omit<RuleSymbol, 'references'>): RuleSymbol {
    const s: RuleSymbol = {
      name: symbol.name, kind: symbol.kind, declSpan: symbol.declSpan, statementSpan: symbol.statementSpan,
      declaredType: symbol.declaredType, valueExpr: symbol.valueExpr, references: [], module: symbol.module,
      importedName: symbol.importedName, params: symbol.params, inferred: undefined,
    };
    if (this.index) {
      this.symbols.push(s);
      this.occurrence({ span: s.declSpan, symbol: s, isDeclaration: true });
    }
    return s;
  }

  // ---- top level ----------------------------------------------------------------------------------

  private declareGlobal(statement: Statement): void {
    switch (statement.kind) {
      case 'import': {
        this.checkModule(statement.module.name, spanOf(statement.module));
        this.occurrence({ span: spanOf(statement.module), module: statement.module.name });
        const bound = statement.alias ?? { name: statement.module.name.split('.')[0], start: statement.module.start, end: statement.module.start + statement.module.name.split('.')[0].length };
        const written = { start: statement.module.start, end: (statement.alias ?? statement.module).end };
        if (statement.alias || !this.global.names.has(bound.name)) {
          const symbol = this.newSymbol({ name: bound.name, kind: 'import', declSpan: spanOf(bound), statementSpan: statement.span, module: statement.module.name });
          this.global.names.set(bound.name, symbol);
          this.imports.push({ symbol, span: written });
        }
        break;
      }
      case 'fromImport': {
        const known = this.checkModule(statement.module.name, spanOf(statement.module));
        this.occurrence({ span: spanOf(statement.module), module: statement.module.name });
        for (const { name, alias } of statement.names) {
          if (known && known.checked && !known.members.includes(name.name)) {
            this.problem(spanOf(name), 'error', 'gr/unknown-import', `module '${known.name}' has no attribute '${name.name}'`);
          }
          const python = EVALUATED_MODULES[statement.module.name];
          if (python && !python.includes(name.name)) {
            this.problem(spanOf(name), 'error', 'gr/unknown-import', `module '${statement.module.name}' has no attribute '${name.name}'`);
          }
          const bound = alias ?? name;
          if (alias) this.occurrence({ span: spanOf(name), builtin: name.name, module: statement.module.name });
          const symbol = this.newSymbol({ name: bound.name, kind: 'import', declSpan: spanOf(bound), statementSpan: statement.span, module: statement.module.name, importedName: name.name });
          this.global.names.set(bound.name, symbol);
          this.imports.push({ symbol, span: { start: name.start, end: bound.end } });
        }
        break;
      }
      case 'constant':
      case 'predicate': {
        if (!statement.name.name) break;
        const kind = statement.kind;
        const existing = this.global.names.get(statement.name.name);
        if (existing && (existing.kind === 'constant' || existing.kind === 'predicate')) {
          const what = kind === 'predicate' ? 'Predicate' : 'Constant';
          const span = spanOf(statement.name);
          this.problem(span, 'error', 'gr/duplicate-constant', `${what} ${statement.name.name} already declared`,
            [{ span: existing.declSpan, message: `${existing.name} is first declared here` }]);
          if (this.index) existing.references.push(span);
          this.occurrence({ span, symbol: existing, isDeclaration: true });
          break;
        }
        const symbol = this.newSymbol({
          name: statement.name.name,
          kind,
          declSpan: spanOf(statement.name),
          statementSpan: statement.span,
          params: kind === 'predicate' ? statement.params : undefined,
          valueExpr: kind === 'constant' && !statement.block ? statement.body[0] : undefined,
          declaredType: kind === 'predicate' ? 'bool' : undefined,
        });
        this.global.names.set(statement.name.name, symbol);
        break;
      }
      default:
        break;
    }
  }

  private checkModule(name: string, span: Span) {
    if (name !== 'invariant' && !name.startsWith('invariant.')) return undefined;
    const known = MODULES[name];
    if (!known) this.problem(span, 'error', 'gr/unknown-module', `Module '${name}' could not be resolved`);
    return known;
  }

  private resolveStatement(statement: Statement): void {
    switch (statement.kind) {
      case 'rule': {
        const scope = new Scope(this.global);
        if (this.index) this.scopes.push({ span: statement.span, scope });
        this.declareBody(statement.body, scope);
        if (statement.message) this.expr(statement.message, scope, false);
        for (const line of statement.body) this.expr(line, scope, false);
        break;
      }
      case 'predicate': {
        const scope = new Scope(this.global);
        if (this.index) this.scopes.push({ span: statement.span, scope });
        for (const param of statement.params) {
          this.checkType(param.type, this.global, param.name.start);
          this.declare(scope, param.name.name, 'parameter', spanOf(param.name), { start: param.name.start, end: param.type.end }, param.type.name);
        }
        this.declareBody(statement.body, scope);
        for (const line of statement.body) this.expr(line, scope, false);
        break;
      }
      case 'constant': {
        if (statement.block) {
          const scope = new Scope(this.global);
          if (this.index) this.scopes.push({ span: statement.span, scope });
          this.declareBody(statement.body, scope);
          for (const line of statement.body) this.expr(line, scope, false);
        } else {
          for (const line of statement.body) this.expr(line, this.global, false);
        }
        break;
      }
      default:
        // Imports were handled when declaring; `def` blocks are parsed but ignored, as by the rule engine.
        break;
    }
  }

  // ---- declarations -------------------------------------------------------------------------------

  private declare(scope: Scope, name: string, kind: SymbolKind, span: Span, statementSpan: Span, declaredType?: string, valueExpr?: Expr): RuleSymbol {
    const existing = scope.names.get(name);
    if (existing) {
      this.problem(span, 'error', 'gr/duplicate-variable', `Variable ${name} already declared`,
        [{ span: existing.declSpan, message: `${name} is first declared here` }]);
      if (this.index) existing.references.push(span);
      this.occurrence({ span, symbol: existing, isDeclaration: true });
      return existing;
    }
    const symbol = this.newSymbol({ name, kind, declSpan: span, statementSpan, declaredType, valueExpr });
    scope.names.set(name, symbol);
    if (this.index) this.declScope.set(symbol, scope);
    return symbol;
  }

  /** Registers the variables a block declares (typed variables and assignments), before any use is resolved. */
  private declareBody(lines: Expr[], scope: Scope): void {
    const stack = this.stack;
    for (const line of lines) {
      stack.push(line);
      while (stack.length > 0) {
        const e = stack.pop()!;
        switch (e.kind) {
          case 'typed':
            this.declare(scope, e.variable.name, 'variable', spanOf(e.variable), spanOf(line), e.type.name);
            break;
          case 'assign':
            this.declare(scope, e.target.name, 'variable', spanOf(e.target), spanOf(line), undefined, e.value);
            stack.push(e.value);
            break;
          case 'quantifier':
            stack.push(e.head);
            break;
          case 'comprehension':
            break;
          case 'binary': stack.push(e.right, e.left); break;
          case 'unary': stack.push(e.operand); break;
          case 'ternary': stack.push(e.otherwise, e.condition, e.then); break;
          case 'member': stack.push(e.object); break;
          case 'index': stack.push(e.index, e.object); break;
          case 'call':
            for (const k of e.kwargs) stack.push(k.value);
            for (const a of e.args) stack.push(a);
            stack.push(e.callee);
            break;
          case 'tuple': case 'list': for (const item of e.items) stack.push(item); break;
          case 'object': for (const entry of e.entries) stack.push(entry.value); break;
          case 'tool': if (e.args) for (const a of e.args) stack.push(a); break;
          default: break;
        }
      }
    }
  }

  /** `problemStart`: unknown types are reported from the declared name on, where the official parser points. */
  private checkType(type: Ident, scope: Scope, problemStart: number): void {
    const name = type.name;
    const symbol = scope.lookup(name);
    if (symbol) {
      if (symbol.kind === 'import') this.usedImports.add(symbol);
      if (this.index) {
        const span = spanOf(type);
        symbol.references.push(span);
        this.occurrence({ span, symbol, typeName: name });
      }
      return;
    }
    if (BUILTIN_TYPES.has(name) || isBuiltinName(name)) {
      if (this.index) this.occurrence({ span: spanOf(type), typeName: name, builtin: name });
      return;
    }
    // The official message, then the built-in types one or two edits away (the quick fix offers a single one).
    const close = closestNames(name, BUILTIN_TYPE_NAMES);
    const hint = close.length > 0 ? `. Did you mean ${close.map((n) => `'${n}'`).join(' or ')}?` : '';
    this.problem({ start: problemStart, end: type.end }, 'error', 'gr/unknown-type', `Failed to resolve type ${name}${hint}`);
    if (close.length === 1) this.problems[this.problems.length - 1].suggestion = close[0];
    if (this.index) this.occurrence({ span: spanOf(type), typeName: name });
  }


  // ---- expressions --------------------------------------------------------------------------------

  /**
   * Resolves `root` and every expression in it, parents first, with an explicit stack: chains of operators, calls and
   * fields make trees thousands of levels deep.
   */
  private expr(root: Expr, rootScope: Scope, rootInPattern: boolean): void {
    const pending = this.pending;
    const base = pending.exprs.length;
    pending.push(root, rootScope, rootInPattern);
    while (pending.exprs.length > base) {
      const e = pending.exprs.pop()!;
      const scope = pending.scopes.pop()!;
      const inPattern = pending.inPattern.pop()!;
      this.visit(e, scope, inPattern);
    }
  }

  /** Checks `e` itself and pushes its children (last child first, so they are visited in source order). */
  private visit(e: Expr, scope: Scope, inPattern: boolean): void {
    const pending = this.pending;
    switch (e.kind) {
      case 'name': {
        const symbol = scope.lookup(e.name);
        if (symbol) {
          if (symbol.kind === 'import') this.usedImports.add(symbol);
          if (this.index) {
            const span = spanOf(e);
            symbol.references.push(span);
            this.occurrence({ span, symbol });
          }
        } else if (isBuiltinName(e.name)) {
          if (this.index) this.occurrence({ span: spanOf(e), builtin: e.name });
        } else {
          const why = unsafeBuiltinReason(e.name);
          this.problem(spanOf(e), 'error', 'gr/unknown-identifier', `Failed to resolve identifier ${e.name}${why ? ` (${why})` : ''}`);
        }
        return;
      }
      case 'typed':
        // Declared by declareBody; here only the type is checked.
        this.checkType(e.type, scope, e.variable.start);
        return;
      case 'assign':
        pending.push(e.value, scope, inPattern);
        return;
      case 'member': {
        const objectType = this.typeOf(e.object, scope);
        if (this.index) this.occurrence({ span: spanOf(e.member), member: { objectType, name: e.member.name } });
        const info = typeInfo(objectType);
        if (info && info.closed && !fieldOf(objectType, e.member.name)) {
          const hint = suggest(e.member.name, info.fields.map((f) => f.name));
          this.problem(spanOf(e.member), 'warning', 'gr/unknown-attribute',
            `${info.name} has no field '${e.member.name}'.${hint ? ` Did you mean '${hint}'?` : ` Its fields are: ${info.fields.map((f) => f.name).join(', ')}.`}`);
          if (hint) this.problems[this.problems.length - 1].suggestion = hint;
        }
        pending.push(e.object, scope, inPattern);
        return;
      }
      case 'call': {
        const f = this.functionOf(e.callee, scope);
        if (f) this.checkArguments(f, e);
        for (let k = e.kwargs.length - 1; k >= 0; k--) pending.push(e.kwargs[k].value, scope, inPattern);
        for (let k = e.args.length - 1; k >= 0; k--) pending.push(e.args[k], scope, inPattern);
        pending.push(e.callee, scope, inPattern);
        return;
      }
      case 'tool':
        if (this.index) this.occurrence({ span: spanOf(e.toolName), tool: e.toolName.name });
        if (e.args) for (let k = e.args.length - 1; k >= 0; k--) pending.push(e.args[k], scope, true);
        return;
      case 'wildcard':
        if (!inPattern) {
          this.problem(spanOf(e), 'error', 'gr/wildcard-outside-pattern', 'You cannot use wildcards outside of semantic patterns (e.g. tool:abc(*, 12))');
        }
        return;
      case 'valueRef':
        if (!inPattern) {
          this.problem(spanOf(e), 'error', 'gr/value-ref-outside-pattern', 'You cannot use value references outside of semantic patterns (e.g. tool:abc(<VALUE>, 12))');
        } else if (!VALUE_TYPES.includes(e.name)) {
          this.problem(spanOf(e), 'error', 'gr/unsupported-value-type', `Unsupported value type: ${e.name}. Available types: ${VALUE_TYPES.join(' ')}`);
        }
        return;
      case 'placeholder':
        this.problem(spanOf(e), 'information', 'gr/template-placeholder', `Template placeholder {{ ${e.name} }}: filled in before the rules are loaded`);
        return;
      case 'comprehension': {
        const inner = new Scope(scope);
        if (this.index) this.scopes.push({ span: spanOf(e), scope: inner });
        const symbol = this.newSymbol({ name: e.variable.name, kind: 'comprehension', declSpan: spanOf(e.variable), statementSpan: spanOf(e) });
        symbol.inferred = elementType(this.typeOf(e.iterable, scope));
        inner.names.set(e.variable.name, symbol);
        if (e.condition) pending.push(e.condition, inner, inPattern);
        pending.push(e.element, inner, inPattern);
        pending.push(e.iterable, scope, inPattern);
        return;
      }
      case 'quantifier': {
        const inner = new Scope(scope);
        if (this.index) this.scopes.push({ span: spanOf(e), scope: inner });
        this.declareBody(e.body, inner);
        for (let k = e.body.length - 1; k >= 0; k--) pending.push(e.body[k], inner, inPattern);
        pending.push(e.head, scope, inPattern);
        return;
      }
      case 'binary':
        pending.push(e.right, scope, inPattern);
        pending.push(e.left, scope, inPattern);
        return;
      case 'unary':
        pending.push(e.operand, scope, inPattern);
        return;
      case 'ternary':
        pending.push(e.otherwise, scope, inPattern);
        pending.push(e.condition, scope, inPattern);
        pending.push(e.then, scope, inPattern);
        return;
      case 'index':
        pending.push(e.index, scope, inPattern);
        pending.push(e.object, scope, inPattern);
        return;
      case 'tuple':
      case 'list':
        for (let k = e.items.length - 1; k >= 0; k--) pending.push(e.items[k], scope, inPattern);
        return;
      case 'object':
        for (let k = e.entries.length - 1; k >= 0; k--) pending.push(e.entries[k].value, scope, inPattern);
        return;
      default:
        return;
    }
  }

  /** The library function an expression names, unless a user declaration shadows it. */
  private functionOf(callee: Expr, scope: Scope): FunctionInfo | undefined {
    if (callee.kind !== 'name') return undefined;
    const symbol = scope.lookup(callee.name);
    if (symbol) {
      if (symbol.kind === 'import' && symbol.importedName && symbol.module && MODULES[symbol.module] && has(LIBRARY_FUNCTIONS, symbol.importedName)) {
        return LIBRARY_FUNCTIONS[symbol.importedName];
      }
      return undefined;
    }
    return has(BUILTIN_FUNCTIONS, callee.name) ? BUILTIN_FUNCTIONS[callee.name] : undefined;
  }

  private checkArguments(f: FunctionInfo, call: Extract<Expr, { kind: 'call' }>): void {
    const positional = call.args.length;
    const plural = (n: number) => `${n} argument${n === 1 ? '' : 's'}`;
    if (!f.varargs && positional > f.params.length) {
      this.problem(spanOf(call), 'warning', 'gr/argument-count',
        `${f.name}() takes at most ${plural(f.params.length)} but ${positional} ${positional === 1 ? 'was' : 'were'} given`);
      return;
    }
    if (!missesArgument(f, call)) return;
    const given = new Set(call.kwargs.map((k) => k.name.name));
    const missing = f.params.filter((p, i) => !p.optional && i >= positional && !given.has(p.name));
    if (missing.length > 0) {
      this.problem(spanOf(call), 'warning', 'gr/argument-count',
        `${f.name}() is missing the required argument${missing.length > 1 ? 's' : ''} ${missing.map((p) => `'${p.name}'`).join(', ')}`);
    }
  }

  // ---- types --------------------------------------------------------------------------------------

  /**
   * The type of `e`. A chain of fields, indexes and method calls is read in a loop from its innermost object out;
   * types that depend on other declarations are followed at most MAX_TYPE_DEPTH declarations deep (then 'unknown').
   */
  typeOf(e: Expr, scope: Scope): string {
    const chain: Expr[] = [];
    let base = e;
    for (;;) {
      if (base.kind === 'member' || base.kind === 'index') base = (chain.push(base), base.object);
      else if (base.kind === 'call' && base.callee.kind === 'member') base = (chain.push(base), base.callee.object);
      else break;
    }
    let t = this.baseType(base, scope);
    for (let k = chain.length - 1; k >= 0; k--) {
      const link = chain[k];
      if (link.kind === 'member') t = fieldOf(t, link.member.name)?.type ?? 'unknown';
      else if (link.kind === 'index') t = elementType(t);
      else if (link.kind === 'call' && link.callee.kind === 'member') t = t === 'str' ? STRING_METHOD_RESULTS[link.callee.member.name] ?? 'unknown' : 'unknown';
    }
    return t;
  }

  private baseType(e: Expr, scope: Scope): string {
    switch (e.kind) {
      case 'string': return 'str';
      case 'number': return Number.isInteger(e.value) ? 'int' : 'float';
      case 'bool': return 'bool';
      case 'list': case 'comprehension': return 'list';
      case 'object': return 'dict';
      case 'typed': return e.type.name;
      case 'name': {
        const symbol = scope.lookup(e.name);
        return symbol ? this.symbolType(symbol, scope) : 'unknown';
      }
      case 'call': return this.functionOf(e.callee, scope)?.returns ?? 'unknown';
      case 'binary':
        return NON_BOOLEAN_OPERATORS.has(e.op) ? 'unknown' : 'bool';
      case 'unary': return e.op === 'not' ? 'bool' : 'unknown';
      default: return 'unknown';
    }
  }

  private symbolType(symbol: RuleSymbol, scope: Scope): string {
    if (symbol.inferred) return symbol.inferred;
    if (symbol.declaredType) return (symbol.inferred = symbol.declaredType);
    if (!symbol.valueExpr || this.inferring.has(symbol)) return 'unknown';
    if (this.inferring.size >= MAX_TYPE_DEPTH) return 'unknown';
    this.inferring.add(symbol);
    const t = this.typeOf(symbol.valueExpr, symbol.kind === 'constant' ? this.global : scope);
    this.inferring.delete(symbol);
    return (symbol.inferred = t);
  }
}

/** Whether a required parameter of `f` is given neither by position nor by keyword (allocation-free check). */
function missesArgument(f: FunctionInfo, call: Extract<Expr, { kind: 'call' }>): boolean {
  for (let i = call.args.length; i < f.params.length; i++) {
    const param = f.params[i];
    if (param.optional) continue;
    let given = false;
    for (const k of call.kwargs) {
      if (k.name.name === param.name) {
        given = true;
        break;
      }
    }
    if (!given) return true;
  }
  return false;
}

/** A stable sort by start offset through a native numeric sort (a comparator sort is the slowest step on big files). */
function sortByStart(list: Occurrence[]): Occurrence[] {
  const keys = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) keys[i] = list[i].span.start * 2 ** 21 + i;
  keys.sort();
  const sorted = new Array<Occurrence>(list.length);
  for (let i = 0; i < keys.length; i++) sorted[i] = list[keys[i] % 2 ** 21];
  return sorted;
}
