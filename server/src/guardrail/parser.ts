import type { Span } from '../common/types';
import type { BinaryOperator, Expr, Ident, ImportName, KeywordArgument, ObjectEntry, Parameter, Program, Statement } from './ast';
import { lex, type Token } from './lexer';

export interface SyntaxProblem {
  span: Span;
  message: string;
  code: 'gr/syntax' | 'gr/inconsistent-dedent' | 'gr/empty-rule';
}

export interface ParseResult {
  program: Program;
  tokens: Token[];
  comments: Span[];
  problems: SyntaxProblem[];
}

/** Thrown inside a line; the statement or body-line level records it and resumes at the next line. */
class LineFailure {
  /** `resumeAt`: token index where parsing resumes (after an unclosed bracket: the line after it). */
  constructor(readonly span: Span, readonly message: string, readonly resumeAt?: number) {}
}

const COMPARISON = new Set(['==', '!=', '<', '>', '<=', '>=', 'is', 'in', 'contains_only', '->', '~>']);
/** Tokens that cannot begin an expression: a line starting with one continues the previous line. */
const CONTINUATION = new Set([
  'and', 'or', 'is', 'in', 'contains_only', 'else', 'if', 'for',
  '==', '!=', '<', '>', '<=', '>=', '->', '~>', '/', '%', '**', '.',
]);
const MAX_NESTING = 120;
const MAX_BLOCK_DEPTH = 60;
/** Operators in one logical line; longer chains are not checked (and would make tree walks too deep). */
const MAX_OPERATORS = 5000;

function describe(t: Token): string {
  switch (t.kind) {
    case 'newline': return 'the end of the line';
    case 'eof': return 'the end of the file';
    case 'indent': return 'an indented block';
    case 'dedent': return 'the end of the block';
    case 'string': return `string ${t.text.length > 30 ? t.text.slice(0, 30) + '…' : t.text}`;
    case 'number': return `'${t.text}'`;
    default: return `'${t.text.length > 30 ? t.text.slice(0, 30) + '…' : t.text}'`;
  }
}

export function parse(text: string): ParseResult {
  const lexed = lex(text);
  const parser = new Parser(text, lexed.tokens);
  const program = parser.parseProgram();
  const problems: SyntaxProblem[] = [...lexed.problems, ...parser.problems];
  problems.sort((a, b) => a.span.start - b.span.start);
  return { program, tokens: lexed.tokens, comments: lexed.comments, problems };
}

class Parser {
  readonly problems: SyntaxProblem[] = [];
  private i = 0;
  private brackets = 0;
  private nesting = 0;
  private blockDepth = 0;
  private operators = 0;
  private quietFrom = -1;
  private quietUntil = -1;
  /** End of the last consumed token that is not layout. */
  private lastEnd = 0;

  constructor(private readonly text: string, private readonly tokens: Token[]) {}

  // ---- token access -------------------------------------------------------------------------------

  /** Index of the next significant token: newlines are skipped inside brackets and before continuation lines. */
  private peekIndex(): number {
    let j = this.i;
    const tokens = this.tokens;
    if (tokens[j].kind !== 'newline') return j;
    if (this.brackets > 0) {
      while (tokens[j].kind === 'newline') j++;
      return j;
    }
    const next = tokens[j + 1];
    if (next && (next.kind === 'op' || next.kind === 'keyword') && CONTINUATION.has(next.text)) return j + 1;
    return j;
  }

  private peek(): Token {
    return this.tokens[this.peekIndex()];
  }

  private peekAt(ahead: number): Token {
    const j = this.peekIndex() + ahead;
    return this.tokens[Math.min(j, this.tokens.length - 1)];
  }

  private advance(): Token {
    const j = this.peekIndex();
    const t = this.tokens[j];
    if (t.kind !== 'eof') this.i = j + 1;
    if (t.kind !== 'newline' && t.kind !== 'indent' && t.kind !== 'dedent' && t.kind !== 'eof') this.lastEnd = t.end;
    return t;
  }

  private is(text: string): boolean {
    const t = this.peek();
    return (t.kind === 'op' || t.kind === 'keyword') && t.text === text;
  }

  private accept(text: string): Token | null {
    return this.is(text) ? this.advance() : null;
  }

  private expect(text: string, message?: string): Token {
    const t = this.peek();
    if ((t.kind === 'op' || t.kind === 'keyword') && t.text === text) return this.advance();
    throw this.failAt(t, message ?? `Expected '${text}' but found ${describe(t)}`);
  }

  private failAt(t: Token, message: string): LineFailure {
    const span = t.kind === 'newline' || t.kind === 'eof' || t.kind === 'dedent' || t.kind === 'indent'
      ? { start: t.start, end: t.start }
      : { start: t.start, end: t.end };
    return new LineFailure(span, message);
  }

  private report(span: Span, message: string, code: SyntaxProblem['code'] = 'gr/syntax'): void {
    // Lines re-read after an unclosed bracket was reported would only repeat that error.
    if (span.start < this.quietUntil && span.start > this.quietFrom) return;
    this.problems.push({ span, message, code });
  }

  private ident(t: Token): Ident {
    return { name: t.text, span: { start: t.start, end: t.end } };
  }

  private expectName(what: string): Token {
    const t = this.peek();
    if (t.kind === 'name') return this.advance();
    throw this.failAt(t, `Expected ${what} but found ${describe(t)}`);
  }

  private lineIndent(offset: number): number {
    let p = offset;
    while (p > 0 && this.text.charCodeAt(p - 1) !== 10) p--;
    let q = p;
    while (q < this.text.length && (this.text[q] === ' ' || this.text[q] === '\t')) q++;
    return q - p;
  }

  /** After a failure: skip to the end of the logical line, stopping at layout tokens (indentation is reliable). */
  private sync(statementStart: number): void {
    this.brackets = 0;
    this.nesting = 0;
    const baseIndent = this.lineIndent(statementStart);
    let depth = 0;
    for (let j = this.i - 1; j >= 0 && this.tokens[j].start >= statementStart; j--) {
      const t = this.tokens[j];
      if (t.kind !== 'op') continue;
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      else if (t.text === ')' || t.text === ']' || t.text === '}') depth--;
    }
    for (;;) {
      const t = this.tokens[this.i];
      if (t.kind === 'eof' || t.kind === 'indent' || t.kind === 'dedent') return;
      if (t.kind === 'newline') {
        const next = this.tokens[this.i + 1];
        const closer = next.kind === 'op' && (next.text === ')' || next.text === ']' || next.text === '}');
        if (depth <= 0 || (next.kind !== 'newline' && !closer && this.lineIndent(next.start) <= baseIndent)) {
          this.i++;
          return;
        }
      } else if (t.kind === 'op') {
        if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
        else if (t.text === ')' || t.text === ']' || t.text === '}') depth--;
      }
      this.i++;
    }
  }

  private resume(e: LineFailure): boolean {
    if (e.resumeAt === undefined || e.resumeAt <= 0 || e.resumeAt >= this.tokens.length) return false;
    this.quietFrom = e.span.end;
    this.quietUntil = this.tokens[Math.min(this.peekIndex(), this.tokens.length - 1)].end;
    this.i = e.resumeAt;
    this.brackets = 0;
    this.nesting = 0;
    return true;
  }

  /** Skips an indented block (INDENT … matching DEDENT) after an error. */
  private skipBlock(): void {
    let depth = 0;
    for (;;) {
      const t = this.tokens[this.i];
      if (t.kind === 'eof') return;
      this.i++;
      if (t.kind === 'indent') depth++;
      else if (t.kind === 'dedent' && --depth <= 0) return;
    }
  }

  private expectLineEnd(): void {
    const t = this.peek();
    if (t.kind === 'newline') {
      this.advance();
      return;
    }
    if (t.kind === 'eof' || t.kind === 'dedent') return;
    if (t.kind === 'indent') {
      this.report({ start: t.end, end: t.end }, "Unexpected indented block: only lines ending in ':' or ':=' open a block");
      this.skipBlock();
      return;
    }
    if (t.kind === 'keyword' && t.text === 'not' && this.peekAt(1).text === 'in') {
      throw new LineFailure({ start: t.start, end: this.peekAt(1).end }, "'not in' is not part of the rule language: write not (a in b)");
    }
    throw this.failAt(t, `Unexpected ${describe(t)}: expected an operator or the end of the line`);
  }

  // ---- statements ---------------------------------------------------------------------------------

  parseProgram(): Program {
    const statements: Statement[] = [];
    for (;;) {
      const t = this.tokens[this.i];
      if (t.kind === 'eof') break;
      if (t.kind === 'newline' || t.kind === 'dedent') {
        this.i++;
        continue;
      }
      if (t.kind === 'indent') {
        this.report({ start: t.end, end: t.end }, "Unexpected indented block: only lines ending in ':' or ':=' open a block");
        this.skipBlock();
        continue;
      }
      const statement = this.parseStatementSafely();
      if (statement) statements.push(statement);
    }
    return { statements };
  }

  private parseStatementSafely(): Statement | null {
    this.operators = 0;
    const start = this.tokens[this.i].start;
    const before = this.i;
    try {
      return this.parseStatement();
    } catch (e) {
      if (!(e instanceof LineFailure)) throw e;
      this.report(e.span, e.message);
      if (this.resume(e)) return null;
      this.sync(start);
      if (this.i === before) this.i++;
      // A failed header ending in ':' still owns the block below it.
      if (this.tokens[this.i].kind === 'indent') this.skipBlock();
      return null;
    }
  }

  private parseStatement(): Statement {
    const t = this.peek();
    if (t.kind === 'keyword') {
      switch (t.text) {
        case 'import': return this.parseImport();
        case 'from': return this.parseFromImport();
        case 'raise': return this.parseRule();
        case 'def': return this.parseDef();
      }
    }
    if (t.kind === 'name') {
      const next = this.peekAt(1);
      if (next.kind === 'op' && (next.text === ':=' || next.text === ':')) return this.parseConstant();
      if (next.kind === 'op' && next.text === '(') return this.parsePredicate();
    }
    if (t.kind === 'placeholder') {
      this.advance();
      const placeholder: Expr = { kind: 'placeholder', name: t.value ?? '', span: { start: t.start, end: t.end } };
      this.expectLineEnd();
      // A template placeholder standing for whole statements: keep it as a constant-less opaque body.
      return { kind: 'constant', name: { name: '', span: placeholder.span }, body: [placeholder], span: placeholder.span, block: false };
    }
    throw this.failAt(t, `Unexpected ${describe(t)}: expected a rule (raise "…" if:), a declaration (name := …) or an import`);
  }

  private parseDottedName(): Ident {
    const first = this.expectName('a module name');
    let name = first.text;
    let end = first.end;
    while (this.is('.')) {
      this.advance();
      const part = this.expectName("a module name after '.'");
      name += '.' + part.text;
      end = part.end;
    }
    return { name, span: { start: first.start, end } };
  }

  private parseImport(): Statement {
    const keyword = this.advance();
    const module = this.parseDottedName();
    let alias: Ident | null = null;
    if (this.accept('as')) alias = this.ident(this.expectName("a name after 'as'"));
    const span = { start: keyword.start, end: this.lastEnd };
    this.expectLineEnd();
    return { kind: 'import', module, alias, span };
  }

  private parseFromImport(): Statement {
    const keyword = this.advance();
    const module = this.parseDottedName();
    this.expect('import', `Expected 'import' after the module name but found ${describe(this.peek())}`);
    const names: ImportName[] = [];
    do {
      const name = this.ident(this.expectName('a name to import'));
      let alias: Ident | null = null;
      if (this.accept('as')) alias = this.ident(this.expectName("a name after 'as'"));
      names.push({ name, alias });
    } while (this.accept(','));
    const span = { start: keyword.start, end: this.lastEnd };
    this.expectLineEnd();
    return { kind: 'fromImport', module, names, span };
  }

  private parseRule(): Statement {
    const keyword = this.advance();
    const messageToken = this.peek();
    let message: Expr | null = null;
    if (!(messageToken.kind === 'keyword' && messageToken.text === 'if')) {
      message = this.parsePostfix();
      if (message.kind !== 'string' && message.kind !== 'name' && message.kind !== 'call') {
        this.report(message.span, 'A rule raises a string, a name or a call such as PolicyViolation("…")');
      }
    } else {
      this.report({ start: keyword.start, end: keyword.end }, "Expected the rule's message after 'raise'");
    }
    const ifToken = this.expect('if', `Expected 'if' after the rule's message but found ${describe(this.peek())}`);
    const colon = this.peek();
    if (!(colon.kind === 'op' && colon.text === ':')) {
      throw this.failAt(colon, `Expected ':' after 'if' but found ${describe(colon)}`);
    }
    this.advance();
    const headerSpan = { start: keyword.start, end: colon.end };
    let body: Expr[] = [];
    const after = this.tokens[this.i];
    if (after.kind === 'newline' || after.kind === 'eof' || after.kind === 'dedent') {
      if (after.kind === 'newline') this.i++;
      if (this.tokens[this.i].kind === 'indent') {
        this.i++;
        body = this.parseBodyLines();
      } else {
        this.report({ start: ifToken.start, end: colon.end }, "This rule has no conditions: write them on the lines after 'if:', indented", 'gr/empty-rule');
      }
    } else {
      this.report({ start: colon.start, end: colon.end },
        "A rule's conditions go on the lines after 'if:', indented (a one-line rule body is not allowed)");
      const line = this.parseBodyLineSafely();
      if (line) body.push(line);
      if (this.tokens[this.i].kind === 'indent') {
        this.i++;
        body.push(...this.parseBodyLines());
      }
    }
    return { kind: 'rule', message, body, span: { start: keyword.start, end: Math.max(this.lastEnd, colon.end) }, headerSpan };
  }

  private parseParameters(): Parameter[] {
    this.expect('(');
    const params: Parameter[] = [];
    this.brackets++;
    if (!this.is(')')) {
      do {
        const name = this.ident(this.expectName('a parameter name'));
        this.expect(':', `Expected ':' and a type after parameter '${name.name}'`);
        const type = this.ident(this.expectName('a type name'));
        params.push({ name, type });
      } while (this.accept(','));
    }
    this.expect(')', `Expected ',' or ')' in the parameter list but found ${describe(this.peek())}`);
    this.brackets--;
    return params;
  }

  /** After `:=` or `:` ending a declaration header: a one-line value or an indented block of conditions. */
  private parseDeclarationBody(opener: Token): { body: Expr[]; block: boolean } {
    const after = this.tokens[this.i];
    if (after.kind === 'newline' || after.kind === 'eof' || after.kind === 'dedent') {
      if (after.kind === 'newline') this.i++;
      if (this.tokens[this.i].kind === 'indent') {
        this.i++;
        return { body: this.parseBodyLines(), block: true };
      }
      this.report({ start: opener.start, end: opener.end }, `Expected a value after '${opener.text}': on the same line, or as an indented block below`);
      return { body: [], block: false };
    }
    if (opener.text === ':') {
      throw this.failAt(opener, "Expected ':=' (a one-line declaration) or ':' at the end of the line (a block)");
    }
    const value = this.parseExpr();
    this.expectLineEnd();
    return { body: [value], block: false };
  }

  private parseConstant(): Statement {
    const name = this.ident(this.advance());
    const opener = this.advance();
    const { body, block } = this.parseDeclarationBody(opener);
    return { kind: 'constant', name, body, block, span: { start: name.span.start, end: Math.max(this.lastEnd, opener.end) } };
  }

  private parsePredicate(): Statement {
    const name = this.ident(this.advance());
    const params = this.parseParameters();
    const opener = this.peek();
    if (!(opener.kind === 'op' && (opener.text === ':=' || opener.text === ':'))) {
      throw this.failAt(opener, `Expected ':=' after the predicate's parameters but found ${describe(opener)}`);
    }
    this.advance();
    const { body, block } = this.parseDeclarationBody(opener);
    return { kind: 'predicate', name, params, body, block, span: { start: name.span.start, end: Math.max(this.lastEnd, opener.end) } };
  }

  private parseDef(): Statement {
    const keyword = this.advance();
    const name = this.ident(this.expectName("a name after 'def'"));
    const params = this.is('(') ? this.parseParameters() : [];
    const colon = this.expect(':', `Expected ':' after the definition's header but found ${describe(this.peek())}`);
    const body: Statement[] = [];
    const after = this.tokens[this.i];
    if (after.kind === 'newline') this.i++;
    else if (after.kind !== 'eof' && after.kind !== 'dedent') throw this.failAt(after, "Expected the definition's body on the next line, indented");
    if (this.tokens[this.i].kind === 'indent' && this.blockDepth >= MAX_BLOCK_DEPTH) {
      this.report({ start: keyword.start, end: colon.end }, 'Blocks are nested too deeply to check');
      this.skipBlock();
    } else if (this.tokens[this.i].kind === 'indent') {
      this.i++;
      this.blockDepth++;
      for (;;) {
        const t = this.tokens[this.i];
        if (t.kind === 'eof') break;
        if (t.kind === 'dedent') {
          this.i++;
          break;
        }
        if (t.kind === 'newline') {
          this.i++;
          continue;
        }
        if (t.kind === 'indent') {
          this.report({ start: t.end, end: t.end }, "Unexpected indented block: only lines ending in ':' or ':=' open a block");
          this.skipBlock();
          continue;
        }
        const statement = this.parseStatementSafely();
        if (statement) body.push(statement);
      }
      this.blockDepth--;
    } else {
      this.report({ start: keyword.start, end: colon.end }, "This definition has no body: write it on the lines after ':', indented");
    }
    return { kind: 'def', name, params, body, span: { start: keyword.start, end: Math.max(this.lastEnd, colon.end) } };
  }

  // ---- body lines ---------------------------------------------------------------------------------

  /** Lines of an indented block, up to and including its DEDENT. */
  private parseBodyLines(): Expr[] {
    const lines: Expr[] = [];
    if (this.blockDepth >= MAX_BLOCK_DEPTH) {
      const t = this.tokens[this.i];
      this.report({ start: t.start, end: t.end }, 'Blocks are nested too deeply to check');
      this.i--;
      this.skipBlock();
      return lines;
    }
    this.blockDepth++;
    try {
      this.parseBodyLinesInto(lines);
    } finally {
      this.blockDepth--;
    }
    return lines;
  }

  private parseBodyLinesInto(lines: Expr[]): void {
    for (;;) {
      const t = this.tokens[this.i];
      if (t.kind === 'eof') break;
      if (t.kind === 'dedent') {
        this.i++;
        break;
      }
      if (t.kind === 'newline') {
        this.i++;
        continue;
      }
      if (t.kind === 'indent') {
        // Only reachable after a line whose own block could not be parsed: keep its lines in this block.
        this.i++;
        lines.push(...this.parseBodyLines());
        continue;
      }
      if (t.kind === 'keyword' && (t.text === 'raise' || t.text === 'def')) {
        this.report({ start: t.start, end: t.end }, `'${t.text}' cannot appear inside a block: write it at the top level, without indentation`);
        this.sync(t.start);
        if (this.tokens[this.i].kind === 'indent') this.skipBlock();
        continue;
      }
      const line = this.parseBodyLineSafely();
      if (line) lines.push(line);
    }
  }

  private parseBodyLineSafely(): Expr | null {
    this.operators = 0;
    const start = this.tokens[this.i].start;
    const before = this.i;
    try {
      return this.parseBodyLine();
    } catch (e) {
      if (!(e instanceof LineFailure)) throw e;
      this.report(e.span, e.message);
      if (this.resume(e)) return null;
      this.sync(start);
      if (this.i === before) this.i++;
      return null;
    }
  }

  private parseBodyLine(): Expr {
    const t = this.peek();
    if (t.kind === 'name' && this.peekAt(1).kind === 'op' && this.peekAt(1).text === ':=') {
      const target = this.ident(this.advance());
      this.advance();
      const value = this.parseExpr();
      this.expectLineEnd();
      return { kind: 'assign', target, value, span: { start: target.span.start, end: value.span.end } };
    }
    if (t.kind === 'keyword' && (t.text === 'import' || t.text === 'from')) {
      throw this.failAt(t, 'Imports belong at the top level of the file');
    }
    const expr = this.parseExpr();
    if (this.is(':')) {
      const colon = this.advance();
      let head = expr;
      let negated = false;
      if (head.kind === 'unary' && head.op === 'not') {
        negated = true;
        head = head.operand;
      }
      if (head.kind !== 'call' && head.kind !== 'name') {
        this.report(colon, "Only a quantifier such as 'forall:' or 'count(min=2):' can open a block here");
      }
      let body: Expr[] = [];
      const after = this.tokens[this.i];
      if (after.kind === 'newline' || after.kind === 'eof' || after.kind === 'dedent') {
        if (after.kind === 'newline') this.i++;
        if (this.tokens[this.i].kind === 'indent') {
          this.i++;
          body = this.parseBodyLines();
        } else {
          this.report({ start: colon.start, end: colon.end }, `Expected the quantifier's conditions on the lines after ':', indented`);
        }
      } else {
        throw this.failAt(after, "A quantifier's conditions go on the lines after ':', indented");
      }
      return { kind: 'quantifier', negated, head, body, span: { start: expr.span.start, end: Math.max(this.lastEnd, colon.end) } };
    }
    this.expectLineEnd();
    return expr;
  }

  // ---- expressions --------------------------------------------------------------------------------

  parseExpr(noTernary = false): Expr {
    const value = this.parseLogical();
    if (noTernary || !this.is('if')) return value;
    this.advance();
    const condition = this.parseLogical();
    this.expect('else', `Expected 'else' in the conditional expression but found ${describe(this.peek())}`);
    const otherwise = this.parseExpr();
    return { kind: 'ternary', then: value, condition, otherwise, span: { start: value.span.start, end: otherwise.span.end } };
  }

  private binary(op: BinaryOperator, opToken: Token, left: Expr, right: Expr): Expr {
    if (++this.operators > MAX_OPERATORS) throw this.failAt(opToken, 'This line has too many operators to check');
    return { kind: 'binary', op, opSpan: { start: opToken.start, end: opToken.end }, left, right, span: { start: left.span.start, end: right.span.end } };
  }

  private parseLogical(): Expr {
    let left = this.parseComparison();
    while (this.is('and') || this.is('or')) {
      const op = this.advance();
      const right = this.parseComparison();
      left = this.binary(op.text as BinaryOperator, op, left, right);
    }
    return left;
  }

  private parseComparison(): Expr {
    let left = this.parseAdditive();
    for (;;) {
      const t = this.peek();
      if (t.kind === 'keyword' && t.text === 'not' && this.peekAt(1).kind === 'keyword' && this.peekAt(1).text === 'in') {
        const inToken = this.peekAt(1);
        this.report({ start: t.start, end: inToken.end }, "'not in' is not part of the rule language: write not (a in b)");
        this.advance();
        this.advance();
        const right = this.parseAdditive();
        const inner = this.binary('in', inToken, left, right);
        left = { kind: 'unary', op: 'not', opSpan: { start: t.start, end: t.end }, operand: inner, span: inner.span };
        continue;
      }
      if (!((t.kind === 'op' || t.kind === 'keyword') && COMPARISON.has(t.text))) return left;
      const op = this.advance();
      const right = this.parseAdditive();
      left = this.binary(op.text as BinaryOperator, op, left, right);
    }
  }

  private parseAdditive(): Expr {
    let left = this.parseMultiplicative();
    while (this.is('+') || this.is('-')) {
      const op = this.advance();
      const right = this.parseMultiplicative();
      left = this.binary(op.text as BinaryOperator, op, left, right);
    }
    return left;
  }

  private parseMultiplicative(): Expr {
    let left = this.parsePower();
    while (this.is('*') || this.is('/') || this.is('%')) {
      const op = this.advance();
      const right = this.parsePower();
      left = this.binary(op.text as BinaryOperator, op, left, right);
    }
    return left;
  }

  private parsePower(): Expr {
    let left = this.parseUnary();
    while (this.is('**')) {
      const op = this.advance();
      const right = this.parseUnary();
      left = this.binary('**', op, left, right);
    }
    return left;
  }

  /** Unary operators bind tightest in this language: `not "a" in x` is `(not "a") in x`. */
  private parseUnary(): Expr {
    const t = this.peek();
    if ((t.kind === 'keyword' && t.text === 'not') || (t.kind === 'op' && (t.text === '-' || t.text === '+'))) {
      this.advance();
      const next = this.peek();
      if (t.text === 'not' && next.start === t.end && next.kind === 'op' && (next.text === '(' || next.text === '[')) {
        this.report({ start: t.start, end: next.end }, `Write a space after 'not': the official parser reads 'not${next.text}' as a call of a function named 'not'`);
      }
      this.enter(t);
      const operand = this.parseUnary();
      this.nesting--;
      return { kind: 'unary', op: t.text as 'not' | '-' | '+', opSpan: { start: t.start, end: t.end }, operand, span: { start: t.start, end: operand.span.end } };
    }
    return this.parsePostfix();
  }

  private enter(t: Token): void {
    if (++this.nesting > MAX_NESTING) throw this.failAt(t, 'This expression is nested too deeply to check');
  }

  private parsePostfix(): Expr {
    let e = this.parsePrimary();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op') return e;
      if (t.text === '.') {
        this.advance();
        const name = this.peek();
        if (name.kind !== 'name' && name.kind !== 'keyword') {
          if (e.kind === 'tool') throw this.failAt(name, "A tool pattern names one tool (tool:name); to match several tools compare call.function.name with match(...)");
          throw this.failAt(name, `Expected a field name after '.' but found ${describe(name)}`);
        }
        this.advance();
        e = { kind: 'member', object: e, member: this.ident(name), span: { start: e.span.start, end: name.end } };
      } else if (t.text === '(') {
        const { args, kwargs, end } = this.parseArguments();
        if (e.kind === 'tool' && e.args === null) {
          e = { kind: 'tool', toolName: e.toolName, args, span: { start: e.span.start, end } };
          if (kwargs.length > 0) this.report(kwargs[0].span, 'A tool pattern takes a dictionary such as tool:name({arg: "value"}), not keyword arguments');
        } else {
          e = { kind: 'call', callee: e, args, kwargs, span: { start: e.span.start, end } };
        }
      } else if (t.text === '[') {
        this.advance();
        this.enter(t);
        this.brackets++;
        const index = this.parseExpr();
        const close = this.closing(']', t);
        this.brackets--;
        this.nesting--;
        e = { kind: 'index', object: e, index, span: { start: e.span.start, end: close.end } };
      } else {
        return e;
      }
    }
  }

  private neverClosed(open: Token): LineFailure {
    const closer = open.text === '(' ? ')' : open.text === '[' ? ']' : '}';
    let j = this.i;
    while (j > 0 && this.tokens[j].start > open.start) j--;
    while (this.tokens[j].kind !== 'newline' && this.tokens[j].kind !== 'eof') j++;
    return new LineFailure({ start: open.start, end: open.end }, `'${open.text}' is never closed: add '${closer}'`, j + 1);
  }

  /** The innermost bracket opened before the current token and not closed yet. */
  private unclosedBracket(): Token | undefined {
    let depth = 0;
    for (let j = this.i - 1; j >= 0 && j >= this.i - 100_000; j--) {
      const t = this.tokens[j];
      if (t.kind !== 'op') continue;
      if (t.text === ')' || t.text === ']' || t.text === '}') depth++;
      else if (t.text === '(' || t.text === '[' || t.text === '{') {
        if (depth === 0) return t;
        depth--;
      }
    }
    return undefined;
  }

  /** Expects the closer of `open`; when the list ran onto later lines, blames the unclosed bracket. */
  /** Whether the next item starts a line indented no deeper than the line of `open` (a sign it was never closed). */
  private startsOutside(open: Token): boolean {
    const j = this.peekIndex();
    const previous = this.tokens[j - 1];
    const startsLine = !previous || previous.kind === 'newline' || previous.kind === 'indent' || previous.kind === 'dedent';
    return startsLine && this.text.lastIndexOf('\n', this.tokens[j].start) > open.start &&
      this.lineIndent(this.tokens[j].start) <= this.lineIndent(open.start);
  }

  private closing(closer: string, open: Token, ranOutside = false): Token {
    const t = this.peek();
    if (t.kind === 'op' && t.text === closer) return this.advance();
    // The list ran into the end of the block, or into a line indented no deeper than the bracket's own line:
    // the bracket was never closed (rather than a separator missing).
    const layout = t.kind === 'dedent' || t.kind === 'eof' || t.kind === 'indent';
    if (layout || ranOutside || this.startsOutside(open)) throw this.neverClosed(open);
    throw this.failAt(t, `Expected ',' or '${closer}' but found ${describe(t)}`);
  }

  private parseArguments(): { args: Expr[]; kwargs: KeywordArgument[]; end: number } {
    const open = this.advance();
    this.enter(open);
    this.brackets++;
    const args: Expr[] = [];
    const kwargs: KeywordArgument[] = [];
    let outside = false;
    while (!this.is(')')) {
      outside ||= this.startsOutside(open);
      const t = this.peek();
      const next = this.peekAt(1);
      if ((t.kind === 'name' || t.kind === 'keyword') && next.kind === 'op' && next.text === '=') {
        this.advance();
        this.advance();
        const value = this.parseExpr();
        kwargs.push({ name: this.ident(t), value, span: { start: t.start, end: value.span.end } });
      } else {
        const value = this.parseExpr();
        if (kwargs.length > 0) this.report(value.span, 'A positional argument cannot follow a keyword argument');
        args.push(value);
      }
      if (!this.accept(',')) break;
      if (this.is(')')) {
        const comma = this.tokens[this.i - 1];
        this.report({ start: comma.start, end: comma.end }, 'A trailing comma is not allowed here');
      }
    }
    const close = this.closing(')', open, outside);
    this.brackets--;
    this.nesting--;
    return { args, kwargs, end: close.end };
  }

  private parsePrimary(): Expr {
    let t = this.peek();
    if (t.kind === 'newline' && this.brackets === 0) {
      // An expression left open at the end of a line (e.g. after 'and') continues on the next line.
      const j = this.peekIndex();
      const next = this.tokens[j + 1];
      if (next.kind !== 'indent' && next.kind !== 'dedent' && next.kind !== 'eof' && next.kind !== 'newline') {
        this.i = j + 1;
        t = this.peek();
      }
    }
    const span = { start: t.start, end: t.end };
    switch (t.kind) {
      case 'number':
        this.advance();
        return { kind: 'number', value: Number(t.text), span };
      case 'string': {
        this.advance();
        const prefixLength = /^[rf]/.test(t.text) ? 1 : 0;
        const next = this.peek();
        if (next.kind === 'string') throw this.failAt(next, "Two strings in a row: join them with '+'");
        return { kind: 'string', value: t.value ?? '', span, prefix: t.text.slice(0, prefixLength), triple: t.text.slice(prefixLength).startsWith(t.text[prefixLength].repeat(3)) };
      }
      case 'valueRef':
        this.advance();
        return { kind: 'valueRef', name: t.value ?? '', span };
      case 'placeholder':
        this.advance();
        return { kind: 'placeholder', name: t.value ?? '', span };
      case 'keyword':
        if (t.text === 'True' || t.text === 'False') {
          this.advance();
          return { kind: 'bool', value: t.text === 'True', span };
        }
        if (t.text === 'None') {
          this.advance();
          return { kind: 'none', span };
        }
        break;
      case 'name': {
        if (t.text === 'tool' && this.peekAt(1).kind === 'op' && this.peekAt(1).text === ':') {
          this.advance();
          this.advance();
          const name = this.peek();
          if (name.kind !== 'name' && name.kind !== 'keyword') throw this.failAt(name, `Expected a tool name after 'tool:' but found ${describe(name)}`);
          if (name.start !== this.tokens[this.i - 1].end) throw this.failAt(name, "Write the tool name right after 'tool:', without a space");
          this.advance();
          return { kind: 'tool', toolName: this.ident(name), args: null, span: { start: t.start, end: name.end } };
        }
        if (t.text === 'lambda') throw this.failAt(t, 'Lambdas are not part of the rule language: declare a predicate instead');
        this.advance();
        return { kind: 'name', name: t.text, span };
      }
      case 'op':
        if (t.text === '*') {
          this.advance();
          return { kind: 'wildcard', span };
        }
        if (t.text === '(') return this.parseParenthesized();
        if (t.text === '[') return this.parseList();
        if (t.text === '{') return this.parseObject();
        break;
    }
    if (this.brackets > 0 && (t.kind === 'eof' || t.kind === 'dedent' || t.kind === 'indent')) {
      const open = this.unclosedBracket();
      if (open) throw this.neverClosed(open);
    }
    if (t.kind === 'newline' || t.kind === 'eof' || t.kind === 'dedent') {
      const previous = this.tokens[this.i - 1];
      const after = previous && previous.kind !== 'newline' && previous.kind !== 'indent' && previous.kind !== 'dedent' ? ` after '${previous.text.slice(0, 20)}'` : '';
      throw this.failAt(t, `Expected an expression${after} but found ${describe(t)}`);
    }
    throw this.failAt(t, `Expected an expression but found ${describe(t)}`);
  }

  private parseParenthesized(): Expr {
    const open = this.advance();
    const a = this.peek();
    const colon = this.peekAt(1);
    const type = this.peekAt(2);
    const close = this.peekAt(3);
    if ((a.kind === 'name') && colon.kind === 'op' && colon.text === ':' && type.kind === 'name' && close.kind === 'op' && close.text === ')') {
      this.advance();
      this.advance();
      this.advance();
      this.advance();
      return { kind: 'typed', variable: this.ident(a), type: this.ident(type), span: { start: open.start, end: close.end } };
    }
    this.enter(open);
    this.brackets++;
    const items: Expr[] = [];
    let tuple = false;
    let outside = false;
    if (this.is(')')) {
      tuple = true;
    } else {
      if (a.kind === 'name' && colon.kind === 'op' && colon.text === ':') {
        throw this.failAt(type, `Expected a type name in (${a.text}: Type) but found ${describe(type)}`);
      }
      outside = this.startsOutside(open);
      items.push(this.parseExpr());
      while (this.accept(',')) {
        tuple = true;
        if (this.is(')')) break;
        outside ||= this.startsOutside(open);
        items.push(this.parseExpr());
      }
    }
    const end = this.closing(')', open, outside);
    this.brackets--;
    this.nesting--;
    const span = { start: open.start, end: end.end };
    if (!tuple) return items[0];
    return { kind: 'tuple', items, span };
  }

  private parseList(): Expr {
    const open = this.advance();
    this.enter(open);
    this.brackets++;
    const items: Expr[] = [];
    let outside = false;
    if (!this.is(']')) {
      outside = this.startsOutside(open);
      const first = this.parseExpr();
      if (this.is('for')) {
        this.advance();
        const variable = this.ident(this.expectName("a variable name after 'for'"));
        this.expect('in', `Expected 'in' after the comprehension variable but found ${describe(this.peek())}`);
        const iterable = this.parseExpr(true);
        let condition: Expr | null = null;
        if (this.accept('if')) condition = this.parseExpr(true);
        if (this.is('for')) throw this.failAt(this.peek(), "A list comprehension takes exactly one 'for'");
        const close = this.closing(']', open);
        this.brackets--;
        this.nesting--;
        return { kind: 'comprehension', element: first, variable, iterable, condition, span: { start: open.start, end: close.end } };
      }
      items.push(first);
      while (this.accept(',')) {
        if (this.is(']')) {
          const comma = this.tokens[this.i - 1];
          this.report({ start: comma.start, end: comma.end }, 'A trailing comma is not allowed here');
          break;
        }
        outside ||= this.startsOutside(open);
        items.push(this.parseExpr());
      }
    }
    const close = this.closing(']', open, outside);
    this.brackets--;
    this.nesting--;
    return { kind: 'list', items, span: { start: open.start, end: close.end } };
  }

  private parseObject(): Expr {
    const open = this.advance();
    this.enter(open);
    this.brackets++;
    const entries: ObjectEntry[] = [];
    let outside = false;
    if (!this.is('}')) {
      do {
        if (this.is('}')) {
          const comma = this.tokens[this.i - 1];
          this.report({ start: comma.start, end: comma.end }, 'A trailing comma is not allowed here');
          break;
        }
        outside ||= entries.length > 0 && this.startsOutside(open);
        const key = this.peek();
        if (key.kind !== 'name' && key.kind !== 'string' && key.kind !== 'keyword') {
          if (outside || this.startsOutside(open)) throw this.neverClosed(open);
          throw this.failAt(key, `Expected a key (a name or a string) but found ${describe(key)}`);
        }
        this.advance();
        this.expect(':', `Expected ':' after the key but found ${describe(this.peek())}`);
        const value = this.parseExpr();
        if (this.is('for')) throw this.failAt(this.peek(), 'Dictionary comprehensions are not part of the rule language');
        entries.push({
          key: key.kind === 'string' ? key.value ?? '' : key.text,
          keySpan: { start: key.start, end: key.end },
          bareKey: key.kind !== 'string',
          value,
        });
      } while (this.accept(','));
    }
    const close = this.closing('}', open, outside);
    this.brackets--;
    this.nesting--;
    return { kind: 'object', entries, span: { start: open.start, end: close.end } };
  }
}
