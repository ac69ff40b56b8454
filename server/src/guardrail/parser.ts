import type { Span } from '../common/types';
import { spend, type Budget } from '../common/budget';
import type { BinaryOperator, Expr, Ident, ImportName, KeywordArgument, ObjectEntry, Parameter, Program, Statement } from './ast';
import { CONSTANT_TEXT_COUNT, DEDENT, INDENT, KEYWORD, NEWLINE, OP, constantTextId, lexStream, TOKEN_KINDS, tokenText, type TokenKind, type TokenStream } from './lexer';
import { spanOf } from '../common/spans';

/** A token, as its index in the token stream. */
type Token = number;

export interface SyntaxProblem {
  span: Span;
  message: string;
  code: 'gr/syntax' | 'gr/empty-rule' | 'gr/too-deep';
}

export interface ParseResult {
  program: Program;
  tokens: TokenStream;
  comments: Span[];
  problems: SyntaxProblem[];
}

/** Thrown inside a line; the statement or body-line level records it and resumes at the next line. */
class LineFailure {
  /** `resumeAt`: token index where parsing resumes (after an unclosed bracket: the line after it). */
  constructor(readonly span: Span, readonly message: string, readonly resumeAt?: number, readonly code: SyntaxProblem['code'] = 'gr/syntax') {}
}

const COMPARISON = new Set(['==', '!=', '<', '>', '<=', '>=', 'is', 'in', 'contains_only', '->', '~>']);
/** Tokens that cannot begin an expression: a line starting with one continues the previous line. */
const CONTINUATION = new Set([
  'and', 'or', 'is', 'in', 'contains_only', 'else', 'if', 'for',
  '==', '!=', '<', '>', '<=', '>=', '->', '~>', '/', '%', '**', '.',
]);
/** Binary operators by text id: 1 and/or, 2 comparisons, 3 + -, 4 * / %, 5 ** (all left-associative). */
const BINARY_LEVEL = new Int8Array(CONSTANT_TEXT_COUNT);
const LOGICAL = 1;
const COMPARISON_LEVEL = 2;
const POWER = 5;
for (const [level, ops] of [
  [LOGICAL, ['and', 'or']],
  [COMPARISON_LEVEL, [...COMPARISON]],
  [3, ['+', '-']],
  [4, ['*', '/', '%']],
  [POWER, ['**']],
] as const) {
  for (const op of ops) BINARY_LEVEL[constantTextId(op)] = level;
}
const NOT_ID = constantTextId('not');
const IN_ID = constantTextId('in');
/**
 * Brackets, unary operators and nested lists an expression may nest: the parser recurses once per level (chains of
 * operators, calls and fields are built in loops, and every walk over the tree uses an explicit stack).
 */
export const MAX_NESTING = 120;
const MAX_BLOCK_DEPTH = 60;
/** Operators in one logical line; longer chains are not checked (and would make tree walks too deep). */
const MAX_OPERATORS = 5000;

function describe(stream: TokenStream, t: Token): string {
  const text = tokenText(stream, t);
  switch (TOKEN_KINDS[stream.kinds[t]]) {
    case 'newline': return 'the end of the line';
    case 'eof': return 'the end of the file';
    case 'indent': return 'an indented block';
    case 'dedent': return 'the end of the block';
    case 'string': return `string ${text.length > 30 ? text.slice(0, 30) + '…' : text}`;
    case 'number': return `'${text}'`;
    default: return `'${text.length > 30 ? text.slice(0, 30) + '…' : text}'`;
  }
}

/**
 * Comments that swallow layout tokens upstream break the file only when the token sequence without those tokens is
 * invalid (lost INDENTs and DEDENTs can cancel out): judge that on the stream lexed as upstream reads it. The
 * file itself is parsed with every token, so the rest of it is read as its author meant it.
 */
function lostLayoutProblems(text: string, lost: SyntaxProblem[]): SyntaxProblem[] {
  if (lost.length === 0) return [];
  const exact = lexStream(text, true);
  // The grammar pairs every INDENT with a DEDENT; the parser tolerates blocks left open at the end of the file.
  let open = 0;
  for (let i = 0; i < exact.stream.count; i++) {
    if (exact.stream.kinds[i] === INDENT) open++;
    else if (exact.stream.kinds[i] === DEDENT) open--;
  }
  if (open !== 0) return lost;
  const parser = new Parser(text, exact.stream);
  parser.parseProgram();
  return parser.problems.length === 0 && exact.problems.length === 0 ? [] : lost;
}

/** `budget`: the parse stops with BudgetExceeded when a request was cancelled or ran out of time. */
export function parse(text: string, budget?: Budget): ParseResult {
  const lexed = lexStream(text);
  const parser = new Parser(text, lexed.stream, budget);
  const program = parser.parseProgram();
  // A comment line that opens an empty block and loses the end of it upstream is one fault: the lexer's report says it.
  const sameLine = (a: Span, b: Span) => !text.slice(Math.min(a.start, b.start), Math.max(a.start, b.start)).includes('\n');
  const lexProblems = [...lexed.problems, ...lostLayoutProblems(text, lexed.lostLayout)];
  const own = parser.problems.filter((p) => !parser.emptyBlocks.includes(p) || !lexProblems.some((l) => sameLine(l.span, p.span)));
  const problems: SyntaxProblem[] = [...lexProblems, ...own];
  problems.sort((a, b) => a.span.start - b.span.start);
  return { program, tokens: lexed.stream, comments: lexed.comments, problems };
}

class Parser {
  readonly problems: SyntaxProblem[] = [];
  /** Reports of nested blocks holding only a comment (the lexer may already have reported that comment's line). */
  readonly emptyBlocks: SyntaxProblem[] = [];
  private i = 0;
  private brackets = 0;
  private nesting = 0;
  private blockDepth = 0;
  private operators = 0;
  private quietFrom = -1;
  private quietUntil = -1;
  /** End of the last consumed token that is not layout. */
  private lastEnd = 0;
  /**
   * Items of the lists being parsed (arguments, list items, block lines), innermost last: each list is copied out
   * at its exact length when complete, so no list keeps the spare capacity of a growing array.
   */
  private readonly scratch: Expr[] = [];
  private top = 0;

  private readonly count: number;
  private readonly kinds: Uint8Array;
  private readonly textIds: Int32Array;
  private readonly valueIds: Int32Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly strings: string[];

  private steps = 0;

  constructor(private readonly text: string, private readonly stream: TokenStream, private readonly budget?: Budget) {
    this.count = stream.count;
    this.kinds = stream.kinds;
    this.textIds = stream.textIds;
    this.valueIds = stream.valueIds;
    this.starts = stream.starts;
    this.ends = stream.ends;
    this.strings = stream.strings;
  }

  private kindOf(t: Token): TokenKind {
    return TOKEN_KINDS[this.kinds[t]];
  }

  private textOf(t: Token): string {
    const id = this.textIds[t];
    return id < 0 ? this.text.slice(this.starts[t], this.ends[t]) : this.strings[id];
  }

  private startOf(t: Token): number {
    return this.starts[t];
  }

  private endOf(t: Token): number {
    return this.ends[t];
  }

  private tokenValue(t: Token): string | undefined {
    const id = this.valueIds[t];
    return id < 0 ? undefined : this.strings[id];
  }

  private pushItem(e: Expr): void {
    this.steps = spend(this.budget, this.steps);
    this.scratch[this.top++] = e;
  }

  /** The items pushed since `mark`, as an array of their own. */
  private takeItems(mark: number): Expr[] {
    const items = this.scratch.slice(mark, this.top);
    this.top = mark;
    return items;
  }

  private describe(t: Token): string {
    return describe(this.stream, t);
  }

  // ---- token access -------------------------------------------------------------------------------

  /** Index of the next significant token: newlines are skipped inside brackets and before continuation lines. */
  private peekIndex(): number {
    let j = this.i;
    if (this.kinds[j] !== NEWLINE) return j;
    if (this.brackets > 0) {
      while (this.kinds[j] === NEWLINE) j++;
      return j;
    }
    const next = j + 1;
    if (next < this.count && (this.kindOf(next) === 'op' || this.kindOf(next) === 'keyword') && CONTINUATION.has(this.textOf(next))) return j + 1;
    return j;
  }

  private peek(): Token {
    return this.peekIndex();
  }

  private peekAt(ahead: number): Token {
    const j = this.peekIndex() + ahead;
    return Math.min(j, this.count - 1);
  }

  private advance(): Token {
    const j = this.peekIndex();
    const t = j;
    if (this.kindOf(t) !== 'eof') this.i = j + 1;
    if (this.kindOf(t) !== 'newline' && this.kindOf(t) !== 'indent' && this.kindOf(t) !== 'dedent' && this.kindOf(t) !== 'eof') this.lastEnd = this.endOf(t);
    return t;
  }

  private is(text: string): boolean {
    const t = this.peekIndex();
    const kind = this.kinds[t];
    return (kind === OP || kind === KEYWORD) && this.textOf(t) === text;
  }


  private accept(text: string): boolean {
    if (!this.is(text)) return false;
    this.advance();
    return true;
  }

  private expect(text: string, message?: string): Token {
    const t = this.peek();
    if ((this.kindOf(t) === 'op' || this.kindOf(t) === 'keyword') && this.textOf(t) === text) return this.advance();
    throw this.failAt(t, message ?? `Expected '${text}' but found ${this.describe(t)}`);
  }

  private failAt(t: Token, message: string): LineFailure {
    const span = this.kindOf(t) === 'newline' || this.kindOf(t) === 'eof' || this.kindOf(t) === 'dedent' || this.kindOf(t) === 'indent'
      ? { start: this.startOf(t), end: this.startOf(t) }
      : { start: this.startOf(t), end: this.endOf(t) };
    return new LineFailure(span, message);
  }

  private report(span: Span, message: string, code: SyntaxProblem['code'] = 'gr/syntax'): void {
    // Lines re-read after an unclosed bracket was reported would only repeat that error.
    if (span.start < this.quietUntil && span.start > this.quietFrom) return;
    this.problems.push({ span, message, code });
  }

  private ident(t: Token): Ident {
    return { name: this.textOf(t), start: this.startOf(t), end: this.endOf(t) };
  }

  private expectName(what: string): Token {
    const t = this.peek();
    if (this.kindOf(t) === 'name') return this.advance();
    throw this.failAt(t, `Expected ${what} but found ${this.describe(t)}`);
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
    for (let j = this.i - 1; j >= 0 && this.startOf(j) >= statementStart; j--) {
      const t = j;
      if (this.kindOf(t) !== 'op') continue;
      if (this.textOf(t) === '(' || this.textOf(t) === '[' || this.textOf(t) === '{') depth++;
      else if (this.textOf(t) === ')' || this.textOf(t) === ']' || this.textOf(t) === '}') depth--;
    }
    for (;;) {
      const t = this.i;
      if (this.kindOf(t) === 'eof' || this.kindOf(t) === 'indent' || this.kindOf(t) === 'dedent') return;
      if (this.kindOf(t) === 'newline') {
        const next = this.i + 1;
        const closer = this.kindOf(next) === 'op' && (this.textOf(next) === ')' || this.textOf(next) === ']' || this.textOf(next) === '}');
        if (depth <= 0 || (this.kindOf(next) !== 'newline' && !closer && this.lineIndent(this.startOf(next)) <= baseIndent)) {
          this.i++;
          return;
        }
      } else if (this.kindOf(t) === 'op') {
        if (this.textOf(t) === '(' || this.textOf(t) === '[' || this.textOf(t) === '{') depth++;
        else if (this.textOf(t) === ')' || this.textOf(t) === ']' || this.textOf(t) === '}') depth--;
      }
      this.i++;
    }
  }

  private resume(e: LineFailure): boolean {
    if (e.resumeAt === undefined || e.resumeAt <= 0 || e.resumeAt >= this.count) return false;
    this.quietFrom = e.span.end;
    this.quietUntil = this.endOf(Math.min(this.peekIndex(), this.count - 1));
    this.i = e.resumeAt;
    this.brackets = 0;
    this.nesting = 0;
    return true;
  }

  /** An indented block where none may open: one error at the indent, and the block is skipped. */
  private skipUnexpectedBlock(indent: Token): void {
    this.report({ start: this.endOf(indent), end: this.endOf(indent) }, "Unexpected indented block: only lines ending in ':' or ':=' open a block");
    this.skipBlock();
  }

  /** Skips an indented block (INDENT … matching DEDENT) after an error. */
  private skipBlock(): void {
    let depth = 0;
    for (;;) {
      const t = this.i;
      if (this.kindOf(t) === 'eof') return;
      this.i++;
      if (this.kindOf(t) === 'indent') depth++;
      else if (this.kindOf(t) === 'dedent' && --depth <= 0) return;
    }
  }

  private expectLineEnd(): void {
    const t = this.peek();
    if (this.kindOf(t) === 'newline') {
      this.advance();
      return;
    }
    if (this.kindOf(t) === 'eof' || this.kindOf(t) === 'dedent') return;
    if (this.kindOf(t) === 'indent') {
      this.report({ start: this.endOf(t), end: this.endOf(t) }, "Unexpected indented block: only lines ending in ':' or ':=' open a block");
      this.skipBlock();
      return;
    }
    if (this.kindOf(t) === 'keyword' && this.textOf(t) === 'not' && this.textOf(this.peekAt(1)) === 'in') {
      throw new LineFailure({ start: this.startOf(t), end: this.endOf(this.peekAt(1)) }, "'not in' is not part of the rule language: write not (a in b)");
    }
    throw this.failAt(t, `Unexpected ${this.describe(t)}: expected an operator or the end of the line`);
  }

  // ---- statements ---------------------------------------------------------------------------------

  parseProgram(): Program {
    const statements: Statement[] = [];
    for (;;) {
      const t = this.i;
      if (this.kindOf(t) === 'eof') break;
      if (this.kindOf(t) === 'newline' || this.kindOf(t) === 'dedent') {
        this.i++;
        continue;
      }
      if (this.kindOf(t) === 'indent') {
        this.skipUnexpectedBlock(t);
        continue;
      }
      this.steps = spend(this.budget, this.steps);
      const statement = this.parseStatementSafely();
      if (statement) statements.push(statement);
    }
    return { statements };
  }

  private parseStatementSafely(): Statement | null {
    // A failed header ending in ':' still owns the block below it.
    return this.parseLineSafely(() => this.parseStatement(), true);
  }

  /** Parses one line; on a line failure reports it, moves on to the next line and returns null. */
  private parseLineSafely<T>(parse: () => T, failureOwnsBlock: boolean): T | null {
    this.operators = 0;
    const start = this.startOf(this.i);
    const before = this.i;
    const top = this.top;
    try {
      return parse();
    } catch (e) {
      if (!(e instanceof LineFailure)) throw e;
      // Items of lists the failed line left unfinished.
      this.top = top;
      this.report(e.span, e.message, e.code);
      if (this.resume(e)) return null;
      this.sync(start);
      if (this.i === before) this.i++;
      if (failureOwnsBlock && this.kindOf(this.i) === 'indent') this.skipBlock();
      return null;
    }
  }

  private parseStatement(): Statement {
    const t = this.peek();
    if (this.kindOf(t) === 'keyword') {
      switch (this.textOf(t)) {
        case 'import': return this.parseImport();
        case 'from': return this.parseFromImport();
        case 'raise': return this.parseRule();
        case 'def': return this.parseDef();
      }
    }
    if (this.kindOf(t) === 'name') {
      const next = this.peekAt(1);
      if (this.kindOf(next) === 'op' && (this.textOf(next) === ':=' || this.textOf(next) === ':')) return this.parseConstant();
      if (this.kindOf(next) === 'op' && this.textOf(next) === '(') return this.parsePredicate();
    }
    if (this.kindOf(t) === 'placeholder') {
      this.advance();
      const placeholder: Expr = { kind: 'placeholder', name: this.tokenValue(t) ?? '', start: this.startOf(t), end: this.endOf(t) };
      this.expectLineEnd();
      // A template placeholder standing for whole statements: keep it as a constant-less opaque body.
      return { kind: 'constant', name: { name: '', start: placeholder.start, end: placeholder.end }, body: [placeholder], span: spanOf(placeholder), block: false };
    }
    throw this.failAt(t, `Unexpected ${this.describe(t)}: expected a rule (raise "…" if:), a declaration (name := …) or an import`);
  }

  private parseDottedName(): Ident {
    const first = this.expectName('a module name');
    let name = this.textOf(first);
    let end = this.endOf(first);
    while (this.is('.')) {
      this.advance();
      const part = this.expectName("a module name after '.'");
      name += '.' + this.textOf(part);
      end = this.endOf(part);
    }
    return { name, start: this.startOf(first), end };
  }

  private parseImport(): Statement {
    const keyword = this.advance();
    const module = this.parseDottedName();
    const alias = this.parseAlias();
    return { kind: 'import', module, alias, span: this.endStatement(keyword) };
  }

  private parseFromImport(): Statement {
    const keyword = this.advance();
    const module = this.parseDottedName();
    this.expect('import', `Expected 'import' after the module name but found ${this.describe(this.peek())}`);
    const names: ImportName[] = [];
    do {
      const name = this.ident(this.expectName('a name to import'));
      names.push({ name, alias: this.parseAlias() });
    } while (this.accept(','));
    return { kind: 'fromImport', module, names, span: this.endStatement(keyword) };
  }

  /** `as name` after an imported name, if there. */
  private parseAlias(): Ident | null {
    return this.accept('as') ? this.ident(this.expectName("a name after 'as'")) : null;
  }

  /** The span of a one-line statement from its keyword, once the line has ended. */
  private endStatement(keyword: Token): Span {
    const span = { start: this.startOf(keyword), end: this.lastEnd };
    this.expectLineEnd();
    return span;
  }

  private parseRule(): Statement {
    const keyword = this.advance();
    const messageToken = this.peek();
    let message: Expr | null = null;
    if (!(this.kindOf(messageToken) === 'keyword' && this.textOf(messageToken) === 'if')) {
      message = this.parsePostfix();
      if (message.kind !== 'string' && message.kind !== 'name' && message.kind !== 'call') {
        this.report(spanOf(message), 'A rule raises a string, a name or a call such as PolicyViolation("…")');
      }
    } else {
      this.report({ start: this.startOf(keyword), end: this.endOf(keyword) }, "Expected the rule's message after 'raise'");
    }
    const ifToken = this.expect('if', `Expected 'if' after the rule's message but found ${this.describe(this.peek())}`);
    const colon = this.peek();
    if (!(this.kindOf(colon) === 'op' && this.textOf(colon) === ':')) {
      throw this.failAt(colon, `Expected ':' after 'if' but found ${this.describe(colon)}`);
    }
    this.advance();
    const headerSpan = { start: this.startOf(keyword), end: this.endOf(colon) };
    let body = this.parseBlockAfterColon({ start: this.startOf(ifToken), end: this.endOf(colon) },
      "This rule has no conditions, only comments: write them on the lines after 'if:', indented",
      "This rule has no conditions: write them on the lines after 'if:', indented", 'gr/empty-rule');
    if (!body) {
      body = [];
      this.report({ start: this.startOf(colon), end: this.endOf(colon) },
        "A rule's conditions go on the lines after 'if:', indented (a one-line rule body is not allowed)");
      const line = this.parseBodyLineSafely();
      if (line) body.push(line);
      if (this.kindOf(this.i) === 'indent') {
        this.i++;
        body.push(...this.parseBodyLines());
      }
    }
    return { kind: 'rule', message, body, span: { start: this.startOf(keyword), end: Math.max(this.lastEnd, this.endOf(colon)) }, headerSpan };
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
    this.expect(')', `Expected ',' or ')' in the parameter list but found ${this.describe(this.peek())}`);
    this.brackets--;
    return params;
  }

  /** After `:=` or `:` ending a declaration header: a one-line value or an indented block of conditions. */
  private parseDeclarationBody(opener: Token): { body: Expr[]; block: boolean } {
    const after = this.i;
    if (this.kindOf(after) === 'newline' || this.kindOf(after) === 'eof' || this.kindOf(after) === 'dedent') {
      if (this.kindOf(after) === 'newline') this.i++;
      if (this.kindOf(this.i) === 'indent') {
        this.i++;
        const span = { start: this.startOf(opener), end: this.endOf(opener) };
        return { body: this.parseBlockLines(span, `Expected a value after '${this.textOf(opener)}': the indented block below holds only comments`), block: true };
      }
      this.report({ start: this.startOf(opener), end: this.endOf(opener) }, `Expected a value after '${this.textOf(opener)}': on the same line, or as an indented block below`);
      return { body: [], block: false };
    }
    if (this.textOf(opener) === ':') {
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
    return { kind: 'constant', name, body, block, span: { start: name.start, end: Math.max(this.lastEnd, this.endOf(opener)) } };
  }

  private parsePredicate(): Statement {
    const name = this.ident(this.advance());
    const params = this.parseParameters();
    const opener = this.peek();
    if (!(this.kindOf(opener) === 'op' && (this.textOf(opener) === ':=' || this.textOf(opener) === ':'))) {
      throw this.failAt(opener, `Expected ':=' after the predicate's parameters but found ${this.describe(opener)}`);
    }
    this.advance();
    const { body, block } = this.parseDeclarationBody(opener);
    return { kind: 'predicate', name, params, body, block, span: { start: name.start, end: Math.max(this.lastEnd, this.endOf(opener)) } };
  }

  private parseDef(): Statement {
    const keyword = this.advance();
    const name = this.ident(this.expectName("a name after 'def'"));
    const params = this.is('(') ? this.parseParameters() : [];
    const colon = this.expect(':', `Expected ':' after the definition's header but found ${this.describe(this.peek())}`);
    const body: Statement[] = [];
    const after = this.i;
    if (this.kindOf(after) === 'newline') this.i++;
    else if (this.kindOf(after) !== 'eof' && this.kindOf(after) !== 'dedent') throw this.failAt(after, "Expected the definition's body on the next line, indented");
    if (this.kindOf(this.i) === 'indent' && this.blockDepth >= MAX_BLOCK_DEPTH) {
      this.report({ start: this.startOf(keyword), end: this.endOf(colon) }, 'Blocks are nested too deeply to check');
      this.skipBlock();
    } else if (this.kindOf(this.i) === 'indent') {
      this.i++;
      this.blockDepth++;
      for (;;) {
        const t = this.i;
        if (this.kindOf(t) === 'eof') break;
        if (this.kindOf(t) === 'dedent') {
          this.i++;
          break;
        }
        if (this.kindOf(t) === 'newline') {
          this.i++;
          continue;
        }
        if (this.kindOf(t) === 'indent') {
          this.skipUnexpectedBlock(t);
          continue;
        }
        const statement = this.parseStatementSafely();
        if (statement) body.push(statement);
      }
      this.blockDepth--;
    } else {
      this.report({ start: this.startOf(keyword), end: this.endOf(colon) }, "This definition has no body: write it on the lines after ':', indented");
    }
    return { kind: 'def', name, params, body, span: { start: this.startOf(keyword), end: Math.max(this.lastEnd, this.endOf(colon)) } };
  }

  // ---- body lines ---------------------------------------------------------------------------------

  /**
   * After a block's colon that ends its line: the indented lines below it, reporting `missing` when there are none
   * (and `onlyComments` when they hold nothing else). Undefined, with nothing read, when more follows the colon.
   */
  private parseBlockAfterColon(opener: Span, onlyComments: string, missing: string, code: SyntaxProblem['code'] = 'gr/syntax'): Expr[] | undefined {
    const after = this.kindOf(this.i);
    if (after !== 'newline' && after !== 'eof' && after !== 'dedent') return undefined;
    if (after === 'newline') this.i++;
    if (this.kindOf(this.i) !== 'indent') {
      this.report(opener, missing, code);
      return [];
    }
    this.i++;
    return this.parseBlockLines(opener, onlyComments, code);
  }

  /**
   * The lines of a block after its opener. A block of comments only (comment lines open and close blocks as any
   * line does) is a syntax error upstream, as the grammar needs one condition; reported on the opener.
   */
  private parseBlockLines(opener: Span, emptyMessage: string, code: SyntaxProblem['code'] = 'gr/syntax'): Expr[] {
    const reported = this.problems.length;
    const lines = this.parseBodyLines();
    if (lines.length === 0 && this.problems.length === reported) this.report(opener, emptyMessage, code);
    return lines;
  }

  /** Lines of an indented block, up to and including its DEDENT. */
  private parseBodyLines(): Expr[] {
    if (this.blockDepth >= MAX_BLOCK_DEPTH) {
      const t = this.i;
      this.report({ start: this.startOf(t), end: this.endOf(t) }, 'Blocks are nested too deeply to check');
      this.i--;
      this.skipBlock();
      return [];
    }
    const mark = this.top;
    this.blockDepth++;
    try {
      this.parseBodyLinesOntoScratch();
    } finally {
      this.blockDepth--;
    }
    return this.takeItems(mark);
  }

  private parseBodyLinesOntoScratch(): void {
    // Nested blocks of conditions (upstream's block_expr: an opener followed by a line several levels deeper emits
    // one INDENT per level), or the block of a line that could not be parsed: their lines are AND-ed into this
    // block, so they are read here with a counter rather than by recursion.
    // For each open nested block: its INDENT and how many lines it holds (the grammar needs at least one).
    const nested: { indent: number; lines: number }[] = [];
    for (;;) {
      const t = this.i;
      if (this.kindOf(t) === 'eof') break;
      if (this.kindOf(t) === 'dedent') {
        this.i++;
        const block = nested.pop();
        if (!block) break;
        if (block.lines === 0) {
          // Only comments opened it (a comment line deeper than the lines after it); one report for its INDENTs.
          const span = { start: this.startOf(block.indent), end: this.endOf(block.indent) };
          if (!this.emptyBlocks.some((p) => p.span.start === span.start)) {
            this.report(span, 'This line is indented deeper than the lines after it and holds only a comment, so it opens a block with no condition, which the official parser rejects: indent it like the lines below');
            this.emptyBlocks.push(this.problems[this.problems.length - 1]);
          }
        } else if (nested.length > 0) nested[nested.length - 1].lines++;
        continue;
      }
      if (this.kindOf(t) === 'newline') {
        this.i++;
        continue;
      }
      if (this.kindOf(t) === 'indent') {
        this.i++;
        nested.push({ indent: t, lines: 0 });
        continue;
      }
      if (nested.length > 0) nested[nested.length - 1].lines++;
      if (this.kindOf(t) === 'keyword' && (this.textOf(t) === 'raise' || this.textOf(t) === 'def')) {
        this.report({ start: this.startOf(t), end: this.endOf(t) }, `'${this.textOf(t)}' cannot appear inside a block: write it at the top level, without indentation`);
        this.sync(this.startOf(t));
        if (this.kindOf(this.i) === 'indent') this.skipBlock();
        continue;
      }
      const line = this.parseBodyLineSafely();
      if (line) this.pushItem(line);
    }
  }

  private parseBodyLineSafely(): Expr | null {
    return this.parseLineSafely(() => this.parseBodyLine(), false);
  }

  private parseBodyLine(): Expr {
    const t = this.peek();
    if (this.kindOf(t) === 'name' && this.kindOf(this.peekAt(1)) === 'op' && this.textOf(this.peekAt(1)) === ':=') {
      const target = this.ident(this.advance());
      this.advance();
      const value = this.parseExpr();
      this.expectLineEnd();
      return { kind: 'assign', target, value, start: target.start, end: value.end };
    }
    if (this.kindOf(t) === 'keyword' && (this.textOf(t) === 'import' || this.textOf(t) === 'from')) {
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
        this.report({ start: this.startOf(colon), end: this.endOf(colon) }, "Only a quantifier such as 'forall:' or 'count(min=2):' can open a block here");
      }
      const body = this.parseBlockAfterColon({ start: this.startOf(colon), end: this.endOf(colon) },
        "Expected the quantifier's conditions on the lines after ':': the indented block below holds only comments",
        "Expected the quantifier's conditions on the lines after ':', indented");
      if (!body) throw this.failAt(this.i, "A quantifier's conditions go on the lines after ':', indented");
      return { kind: 'quantifier', negated, head, body, start: expr.start, end: Math.max(this.lastEnd, this.endOf(colon)) };
    }
    this.expectLineEnd();
    return expr;
  }

  // ---- expressions --------------------------------------------------------------------------------

  parseExpr(noTernary = false): Expr {
    const value = this.parseBinary(LOGICAL);
    if (noTernary || !this.is('if')) return value;
    // `a if b else c if d else e` is `a if b else (c if d else e)`: read the chain in a loop, then nest it from the right.
    const thens: Expr[] = [value];
    const conditions: Expr[] = [];
    let otherwise: Expr;
    for (;;) {
      const ifToken = this.advance();
      this.countOperator(ifToken);
      conditions.push(this.parseBinary(LOGICAL));
      this.expect('else', `Expected 'else' in the conditional expression but found ${this.describe(this.peek())}`);
      const next = this.parseBinary(LOGICAL);
      if (!this.is('if')) {
        otherwise = next;
        break;
      }
      thens.push(next);
    }
    for (let k = conditions.length - 1; k >= 0; k--) {
      otherwise = { kind: 'ternary', then: thens[k], condition: conditions[k], otherwise, start: thens[k].start, end: otherwise.end };
    }
    return otherwise;
  }

  private countOperator(opToken: Token): void {
    if (++this.operators > MAX_OPERATORS) throw this.failAt(opToken, 'This line has too many operators to check');
  }

  private binary(op: BinaryOperator, opToken: Token, left: Expr, right: Expr): Expr {
    this.countOperator(opToken);
    return { kind: 'binary', op, opStart: this.startOf(opToken), opEnd: this.endOf(opToken), left, right, start: left.start, end: right.end };
  }

  /** Binding level of the binary operator at token `t`, or 0. */
  private binaryLevel(t: Token): number {
    const kind = this.kinds[t];
    if (kind !== OP && kind !== KEYWORD) return 0;
    const id = this.textIds[t];
    return id < CONSTANT_TEXT_COUNT ? BINARY_LEVEL[id] : 0;
  }

  /** Operators of level `minLevel` and tighter, by precedence climbing (every level is left-associative). */
  private parseBinary(minLevel: number): Expr {
    let left = this.parseUnary();
    for (;;) {
      const t = this.peek();
      if (minLevel <= COMPARISON_LEVEL && this.kinds[t] === KEYWORD && this.textIds[t] === NOT_ID) {
        const inToken = this.peekAt(1);
        if (this.kinds[inToken] === KEYWORD && this.textIds[inToken] === IN_ID) {
          this.report({ start: this.startOf(t), end: this.endOf(inToken) }, "'not in' is not part of the rule language: write not (a in b)");
          this.advance();
          this.advance();
          const right = this.parseBinary(COMPARISON_LEVEL + 1);
          const inner = this.binary('in', inToken, left, right);
          left = { kind: 'unary', op: 'not', opStart: this.startOf(t), opEnd: this.endOf(t), operand: inner, start: inner.start, end: inner.end };
          continue;
        }
      }
      const level = this.binaryLevel(t);
      if (level === 0 || level < minLevel) return left;
      const op = this.advance();
      const right = level === POWER ? this.parseUnary() : this.parseBinary(level + 1);
      left = this.binary(this.textOf(op) as BinaryOperator, op, left, right);
    }
  }

  /** Unary operators bind tightest in this language: `not "a" in x` is `(not "a") in x`. */
  private parseUnary(): Expr {
    const t = this.peek();
    if ((this.kindOf(t) === 'keyword' && this.textOf(t) === 'not') || (this.kindOf(t) === 'op' && (this.textOf(t) === '-' || this.textOf(t) === '+'))) {
      this.advance();
      const next = this.peek();
      if (this.textOf(t) === 'not' && this.startOf(next) === this.endOf(t) && this.kindOf(next) === 'op' && (this.textOf(next) === '(' || this.textOf(next) === '[')) {
        this.report({ start: this.startOf(t), end: this.endOf(next) }, `Write a space after 'not': the official parser reads 'not${this.textOf(next)}' as a call of a function named 'not'`);
      }
      this.enter(t);
      const operand = this.parseUnary();
      this.nesting--;
      return { kind: 'unary', op: this.textOf(t) as 'not' | '-' | '+', opStart: this.startOf(t), opEnd: this.endOf(t), operand, start: this.startOf(t), end: operand.end };
    }
    return this.parsePostfix();
  }

  private enter(t: Token): void {
    if (++this.nesting > MAX_NESTING) {
      const failure = this.failAt(t, `Expression nested deeper than ${MAX_NESTING} levels: the rest of this line is not checked`);
      throw new LineFailure(failure.span, failure.message, undefined, 'gr/too-deep');
    }
  }

  private parsePostfix(): Expr {
    let e = this.parsePrimary();
    for (;;) {
      const t = this.peek();
      if (this.kindOf(t) !== 'op') return e;
      if (this.textOf(t) === '.') {
        this.advance();
        const name = this.peek();
        if (this.kindOf(name) !== 'name' && this.kindOf(name) !== 'keyword') {
          if (e.kind === 'tool') throw this.failAt(name, "A tool pattern names one tool (tool:name); to match several tools compare call.function.name with match(...)");
          throw this.failAt(name, `Expected a field name after '.' but found ${this.describe(name)}`);
        }
        this.advance();
        e = { kind: 'member', object: e, member: this.ident(name), start: e.start, end: this.endOf(name) };
      } else if (this.textOf(t) === '(') {
        const { args, kwargs, end } = this.parseArguments();
        if (e.kind === 'tool' && e.args === null) {
          e = { kind: 'tool', toolName: e.toolName, args, start: e.start, end };
          if (kwargs.length > 0) this.report(spanOf(kwargs[0]), 'A tool pattern takes a dictionary such as tool:name({arg: "value"}), not keyword arguments');
        } else {
          e = { kind: 'call', callee: e, args, kwargs, start: e.start, end };
        }
      } else if (this.textOf(t) === '[') {
        this.advance();
        this.enter(t);
        this.brackets++;
        const index = this.parseExpr();
        const close = this.closing(']', t);
        this.brackets--;
        this.nesting--;
        e = { kind: 'index', object: e, index, start: e.start, end: this.endOf(close) };
      } else {
        return e;
      }
    }
  }

  private neverClosed(open: Token): LineFailure {
    const closer = this.textOf(open) === '(' ? ')' : this.textOf(open) === '[' ? ']' : '}';
    let j = this.i;
    while (j > 0 && this.startOf(j) > this.startOf(open)) j--;
    while (this.kindOf(j) !== 'newline' && this.kindOf(j) !== 'eof') j++;
    return new LineFailure({ start: this.startOf(open), end: this.endOf(open) }, `'${this.textOf(open)}' is never closed: add '${closer}'`, j + 1);
  }

  /** The innermost bracket opened before the current token and not closed yet. */
  private unclosedBracket(): Token {
    let depth = 0;
    for (let j = this.i - 1; j >= 0 && j >= this.i - 100_000; j--) {
      const t = j;
      if (this.kindOf(t) !== 'op') continue;
      if (this.textOf(t) === ')' || this.textOf(t) === ']' || this.textOf(t) === '}') depth++;
      else if (this.textOf(t) === '(' || this.textOf(t) === '[' || this.textOf(t) === '{') {
        if (depth === 0) return t;
        depth--;
      }
    }
    return -1;
  }

  /** Expects the closer of `open`; when the list ran onto later lines, blames the unclosed bracket. */
  /** Whether the next item starts a line indented no deeper than the line of `open` (a sign it was never closed). */
  private startsOutside(open: Token): boolean {
    const j = this.peekIndex();
    const previous = j - 1;
    const startsLine = previous < 0 || this.kindOf(previous) === 'newline' || this.kindOf(previous) === 'indent' || this.kindOf(previous) === 'dedent';
    return startsLine && this.text.lastIndexOf('\n', this.startOf(j)) > this.startOf(open) &&
      this.lineIndent(this.startOf(j)) <= this.lineIndent(this.startOf(open));
  }

  private closing(closer: string, open: Token, ranOutside = false): Token {
    const t = this.peek();
    if (this.kindOf(t) === 'op' && this.textOf(t) === closer) return this.advance();
    // The list ran into the end of the block, or into a line indented no deeper than the bracket's own line:
    // the bracket was never closed (rather than a separator missing).
    const layout = this.kindOf(t) === 'dedent' || this.kindOf(t) === 'eof' || this.kindOf(t) === 'indent';
    if (layout || ranOutside || this.startsOutside(open)) throw this.neverClosed(open);
    throw this.failAt(t, `Expected ',' or '${closer}' but found ${this.describe(t)}`);
  }

  private parseArguments(): { args: Expr[]; kwargs: KeywordArgument[]; end: number } {
    const open = this.advance();
    this.enter(open);
    this.brackets++;
    const mark = this.top;
    const kwargs: KeywordArgument[] = [];
    let outside = false;
    while (!this.is(')')) {
      outside ||= this.startsOutside(open);
      const t = this.peek();
      const next = this.peekAt(1);
      if ((this.kindOf(t) === 'name' || this.kindOf(t) === 'keyword') && this.kindOf(next) === 'op' && this.textOf(next) === '=') {
        this.advance();
        this.advance();
        const value = this.parseExpr();
        kwargs.push({ name: this.ident(t), value, start: this.startOf(t), end: value.end });
      } else {
        const value = this.parseExpr();
        if (kwargs.length > 0) this.report(spanOf(value), 'A positional argument cannot follow a keyword argument');
        this.pushItem(value);
      }
      if (!this.accept(',')) break;
      if (this.is(')')) {
        const comma = this.i - 1;
        this.report({ start: this.startOf(comma), end: this.endOf(comma) }, 'A trailing comma is not allowed here');
      }
    }
    const close = this.closing(')', open, outside);
    this.brackets--;
    this.nesting--;
    return { args: this.takeItems(mark), kwargs, end: this.endOf(close) };
  }

  private parsePrimary(): Expr {
    let t = this.peek();
    if (this.kindOf(t) === 'newline' && this.brackets === 0) {
      // An expression left open at the end of a line (e.g. after 'and') continues on the next line.
      const j = this.peekIndex();
      const next = j + 1;
      if (this.kindOf(next) !== 'indent' && this.kindOf(next) !== 'dedent' && this.kindOf(next) !== 'eof' && this.kindOf(next) !== 'newline') {
        this.i = j + 1;
        t = this.peek();
      }
    }
    const start = this.startOf(t);
    const end = this.endOf(t);
    switch (this.kindOf(t)) {
      case 'number':
        this.advance();
        return { kind: 'number', value: Number(this.textOf(t)), start, end };
      case 'string': {
        this.advance();
        const first = this.text.charCodeAt(start);
        const prefixLength = first === 114 /* r */ || first === 102 /* f */ ? 1 : 0;
        const quote = this.text.charCodeAt(start + prefixLength);
        const triple = end - start >= prefixLength + 3 && this.text.charCodeAt(start + prefixLength + 1) === quote && this.text.charCodeAt(start + prefixLength + 2) === quote;
        const next = this.peek();
        if (this.kindOf(next) === 'string') throw this.failAt(next, "Two strings in a row: join them with '+'");
        return { kind: 'string', value: this.tokenValue(t) ?? '', start, end, prefix: prefixLength === 1 ? this.text[start] : '', triple };
      }
      case 'valueRef':
        this.advance();
        return { kind: 'valueRef', name: this.tokenValue(t) ?? '', start, end };
      case 'placeholder':
        this.advance();
        return { kind: 'placeholder', name: this.tokenValue(t) ?? '', start, end };
      case 'keyword':
        if (this.textOf(t) === 'True' || this.textOf(t) === 'False') {
          this.advance();
          return { kind: 'bool', value: this.textOf(t) === 'True', start, end };
        }
        if (this.textOf(t) === 'None') {
          this.advance();
          return { kind: 'none', start, end };
        }
        break;
      case 'name': {
        if (this.textOf(t) === 'tool' && this.kindOf(this.peekAt(1)) === 'op' && this.textOf(this.peekAt(1)) === ':') {
          this.advance();
          this.advance();
          const name = this.peek();
          if (this.kindOf(name) !== 'name' && this.kindOf(name) !== 'keyword') throw this.failAt(name, `Expected a tool name after 'tool:' but found ${this.describe(name)}`);
          if (this.startOf(name) !== this.endOf(this.i - 1)) throw this.failAt(name, "Write the tool name right after 'tool:', without a space");
          this.advance();
          return { kind: 'tool', toolName: this.ident(name), args: null, start, end: this.endOf(name) };
        }
        if (this.textOf(t) === 'lambda') throw this.failAt(t, 'Lambdas are not part of the rule language: declare a predicate instead');
        this.advance();
        return { kind: 'name', name: this.textOf(t), start, end };
      }
      case 'op':
        if (this.textOf(t) === '*') {
          this.advance();
          return { kind: 'wildcard', start, end };
        }
        if (this.textOf(t) === '(') return this.parseParenthesized();
        if (this.textOf(t) === '[') return this.parseList();
        if (this.textOf(t) === '{') return this.parseObject();
        break;
    }
    if (this.brackets > 0 && (this.kindOf(t) === 'eof' || this.kindOf(t) === 'dedent' || this.kindOf(t) === 'indent')) {
      const open = this.unclosedBracket();
      if (open >= 0) throw this.neverClosed(open);
    }
    if (this.kindOf(t) === 'newline' || this.kindOf(t) === 'eof' || this.kindOf(t) === 'dedent') {
      const previous = this.i - 1;
      const after = previous >= 0 && this.kindOf(previous) !== 'newline' && this.kindOf(previous) !== 'indent' && this.kindOf(previous) !== 'dedent' ? ` after '${this.textOf(previous).slice(0, 20)}'` : '';
      throw this.failAt(t, `Expected an expression${after} but found ${this.describe(t)}`);
    }
    throw this.failAt(t, `Expected an expression but found ${this.describe(t)}`);
  }

  private parseParenthesized(): Expr {
    const open = this.advance();
    const a = this.peek();
    const colon = this.peekAt(1);
    const type = this.peekAt(2);
    const close = this.peekAt(3);
    if ((this.kindOf(a) === 'name') && this.kindOf(colon) === 'op' && this.textOf(colon) === ':' && this.kindOf(type) === 'name' && this.kindOf(close) === 'op' && this.textOf(close) === ')') {
      this.advance();
      this.advance();
      this.advance();
      this.advance();
      return { kind: 'typed', variable: this.ident(a), type: this.ident(type), start: this.startOf(open), end: this.endOf(close) };
    }
    this.enter(open);
    this.brackets++;
    const mark = this.top;
    let tuple = false;
    let outside = false;
    if (this.is(')')) {
      tuple = true;
    } else {
      if (this.kindOf(a) === 'name' && this.kindOf(colon) === 'op' && this.textOf(colon) === ':') {
        throw this.failAt(type, `Expected a type name in (${this.textOf(a)}: Type) but found ${this.describe(type)}`);
      }
      outside = this.startsOutside(open);
      this.pushItem(this.parseExpr());
      while (this.accept(',')) {
        tuple = true;
        if (this.is(')')) break;
        outside ||= this.startsOutside(open);
        this.pushItem(this.parseExpr());
      }
    }
    const end = this.closing(')', open, outside);
    this.brackets--;
    this.nesting--;
    const items = this.takeItems(mark);
    if (!tuple) return items[0];
    return { kind: 'tuple', items, start: this.startOf(open), end: this.endOf(end) };
  }

  private parseList(): Expr {
    const open = this.advance();
    this.enter(open);
    this.brackets++;
    const mark = this.top;
    let outside = false;
    if (!this.is(']')) {
      outside = this.startsOutside(open);
      const first = this.parseExpr();
      if (this.is('for')) {
        this.advance();
        const variable = this.ident(this.expectName("a variable name after 'for'"));
        this.expect('in', `Expected 'in' after the comprehension variable but found ${this.describe(this.peek())}`);
        const iterable = this.parseExpr(true);
        let condition: Expr | null = null;
        if (this.accept('if')) condition = this.parseExpr(true);
        if (this.is('for')) throw this.failAt(this.peek(), "A list comprehension takes exactly one 'for'");
        const close = this.closing(']', open);
        this.brackets--;
        this.nesting--;
        return { kind: 'comprehension', element: first, variable, iterable, condition, start: this.startOf(open), end: this.endOf(close) };
      }
      this.pushItem(first);
      while (this.accept(',')) {
        if (this.is(']')) {
          const comma = this.i - 1;
          this.report({ start: this.startOf(comma), end: this.endOf(comma) }, 'A trailing comma is not allowed here');
          break;
        }
        outside ||= this.startsOutside(open);
        this.pushItem(this.parseExpr());
      }
    }
    const close = this.closing(']', open, outside);
    this.brackets--;
    this.nesting--;
    return { kind: 'list', items: this.takeItems(mark), start: this.startOf(open), end: this.endOf(close) };
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
          const comma = this.i - 1;
          this.report({ start: this.startOf(comma), end: this.endOf(comma) }, 'A trailing comma is not allowed here');
          break;
        }
        outside ||= entries.length > 0 && this.startsOutside(open);
        const key = this.peek();
        if (this.kindOf(key) !== 'name' && this.kindOf(key) !== 'string' && this.kindOf(key) !== 'keyword') {
          if (outside || this.startsOutside(open)) throw this.neverClosed(open);
          throw this.failAt(key, `Expected a key (a name or a string) but found ${this.describe(key)}`);
        }
        this.advance();
        this.expect(':', `Expected ':' after the key but found ${this.describe(this.peek())}`);
        const value = this.parseExpr();
        if (this.is('for')) throw this.failAt(this.peek(), 'Dictionary comprehensions are not part of the rule language');
        entries.push({
          key: this.kindOf(key) === 'string' ? this.tokenValue(key) ?? '' : this.textOf(key),
          keyStart: this.startOf(key),
          keyEnd: this.endOf(key),
          bareKey: this.kindOf(key) !== 'string',
          value,
        });
      } while (this.accept(','));
    }
    const close = this.closing('}', open, outside);
    this.brackets--;
    this.nesting--;
    return { kind: 'object', entries, start: this.startOf(open), end: this.endOf(close) };
  }
}
