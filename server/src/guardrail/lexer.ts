import type { Span } from '../common/types';

export type TokenKind =
  | 'name' | 'keyword' | 'number' | 'string' | 'op' | 'valueRef' | 'placeholder'
  | 'newline' | 'indent' | 'dedent' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Source text; for strings the raw literal, for layout tokens ''. */
  text: string;
  start: number;
  end: number;
  /** Decoded string value, placeholder or value-reference name. */
  value?: string;
}

export interface LexProblem {
  span: Span;
  message: string;
  code: 'gr/syntax';
}

/**
 * Tokens as parallel arrays: one entry per token and no object per token, so a big file's tokens cost the garbage
 * collector a handful of arrays. Texts are shared strings (keywords and operators are constants, names interned).
 */
export interface TokenStream {
  count: number;
  /** Index into TOKEN_KINDS. */
  kinds: Uint8Array;
  /** Index into `strings` of the token's text; -1 for a string literal, whose text is its range of `source`. */
  textIds: Int32Array;
  /** Index into `strings` of the decoded string value, placeholder or value-reference name; -1 for other tokens. */
  valueIds: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  strings: string[];
  source: string;
}

export interface LexedStream {
  stream: TokenStream;
  comments: Span[];
  problems: LexProblem[];
  indentUnit: number;
  /**
   * Comments that upstream swallows layout tokens into (it places the INDENTs and DEDENTs a line causes at the end
   * of the line before it). Not in `problems`: whether that breaks the file is for the parser to judge on the
   * stream lexed with `exactLayout`, where those tokens are missing as they are upstream.
   */
  lostLayout: LexProblem[];
}

export interface LexResult {
  tokens: Token[];
  comments: Span[];
  problems: LexProblem[];
  /** Indentation unit in characters, as the official parser derives it. */
  indentUnit: number;
}

export const KEYWORDS = new Set([
  'raise', 'if', 'else', 'import', 'from', 'as', 'def', 'not', 'and', 'or', 'is', 'in', 'for',
  'contains_only', 'True', 'False', 'None',
]);

const OPERATORS_2 = new Set(['**', '==', '!=', '<=', '>=', '->', '~>', ':=']);
const OPERATORS_1 = new Set(['(', ')', '[', ']', '{', '}', ',', '.', ':', '=', '<', '>', '+', '-', '*', '/', '%']);
const VALUE_REF_PATTERN = /<[A-Za-z_:]+>/y;
const PLACEHOLDER_PATTERN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/y;
const NUMBER_PATTERN = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xfeff;
}

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Tokens that end an operand: after them `<` is the less-than operator, not a `<VALUE>` reference. */
function endsOperand(tokens: TokenBuilder): boolean {
  const last = tokens.count - 1;
  if (last < 0) return false;
  const text = tokenText(tokens, last);
  switch (tokens.kinds[last]) {
    case NAME: case NUMBER: case STRING: case VALUE_REF: case PLACEHOLDER: return true;
    case KEYWORD: return text === 'True' || text === 'False' || text === 'None';
    case OP: return text === ')' || text === ']' || text === '}' || text === '*';
    default: return false;
  }
}

/** Token kinds in the order of their codes in `TokenStream.kinds`. */
export const TOKEN_KINDS: readonly TokenKind[] = [
  'name', 'keyword', 'number', 'string', 'op', 'valueRef', 'placeholder', 'newline', 'indent', 'dedent', 'eof',
];
export const NAME = 0, KEYWORD = 1, NUMBER = 2, STRING = 3, OP = 4, VALUE_REF = 5, PLACEHOLDER = 6, NEWLINE = 7, INDENT = 8, DEDENT = 9, EOF = 10;

const OPERATOR_TEXTS = [...OPERATORS_2, ...OPERATORS_1];
/** Strings every stream starts with: '' (layout tokens), the keywords, then the operators. */
const CONSTANT_STRINGS = ['', ...KEYWORDS, ...OPERATOR_TEXTS];
const FIRST_KEYWORD = 1;
const KEYWORD_END = FIRST_KEYWORD + KEYWORDS.size;
const OPERATOR_IDS = new Map(OPERATOR_TEXTS.map((op, i) => [op, KEYWORD_END + i]));
const EMPTY = 0;
/** Number of strings every stream's table starts with; text ids below it are keywords and operators. */
export const CONSTANT_TEXT_COUNT = CONSTANT_STRINGS.length;

/** The text id of a keyword or operator in every stream. */
export function constantTextId(text: string): number {
  const id = CONSTANT_STRINGS.indexOf(text);
  if (id <= 0) throw new Error(`not a keyword or operator: ${text}`);
  return id;
}

/** Operator text ids by character code (one character) and by first * 128 + second code (two characters). */
const ONE_CHAR_OPERATOR = new Int32Array(128).fill(-1);
const TWO_CHAR_OPERATOR = new Int32Array(128 * 128).fill(-1);
for (const [op, id] of OPERATOR_IDS) {
  if (op.length === 1) ONE_CHAR_OPERATOR[op.charCodeAt(0)] = id;
  else TWO_CHAR_OPERATOR[op.charCodeAt(0) * 128 + op.charCodeAt(1)] = id;
}
/** The two-character operators come first in the table. */
const LAST_TWO_CHAR_OPERATOR = KEYWORD_END + OPERATORS_2.size - 1;
const COLON_ID = OPERATOR_IDS.get(':')!;
const WALRUS_ID = OPERATOR_IDS.get(':=')!;

/** Appends tokens to growable parallel arrays. */
class TokenBuilder implements TokenStream {
  count = 0;
  kinds: Uint8Array;
  textIds: Int32Array;
  valueIds: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  readonly strings: string[] = CONSTANT_STRINGS.slice();

  constructor(readonly source: string, capacity: number) {
    this.kinds = new Uint8Array(capacity);
    this.textIds = new Int32Array(capacity);
    this.valueIds = new Int32Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  push(kind: number, textId: number, start: number, end: number, valueId: number): void {
    const i = this.count++;
    if (i === this.kinds.length) this.grow();
    this.kinds[i] = kind;
    this.textIds[i] = textId;
    this.valueIds[i] = valueId;
    this.starts[i] = start;
    this.ends[i] = end;
  }

  /** Adds a string to the stream's table and returns its id. */
  add(text: string): number {
    this.strings.push(text);
    return this.strings.length - 1;
  }

  private grow(): void {
    const size = this.kinds.length * 2 + 16;
    const kinds = new Uint8Array(size);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const textIds = new Int32Array(size);
    textIds.set(this.textIds);
    this.textIds = textIds;
    const valueIds = new Int32Array(size);
    valueIds.set(this.valueIds);
    this.valueIds = valueIds;
    const starts = new Int32Array(size);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Int32Array(size);
    ends.set(this.ends);
    this.ends = ends;
  }
}

/**
 * One string per distinct identifier: repeated names share one entry of the stream's string table instead of each
 * occurrence slicing a new string. Open addressing on a hash of the characters, so a repeated name allocates nothing.
 */
class Interner {
  /** String ids (+1; 0 = empty slot). */
  private slots = new Int32Array(2048);
  private hashes = new Int32Array(2048);
  private size = 0;

  constructor(private readonly tokens: TokenBuilder) {
    for (let id = FIRST_KEYWORD; id < KEYWORD_END; id++) {
      const word = tokens.strings[id];
      this.insert(hashOf(word, 0, word.length), id);
    }
  }

  /** `hash`: hashOf(text, start, end), which the caller computes while scanning the name. */
  intern(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    const strings = this.tokens.strings;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const slot = this.slots[i];
      if (slot === 0) {
        const id = this.tokens.add(text.slice(start, end));
        this.insert(hash, id);
        return id;
      }
      if (this.hashes[i] === hash) {
        const found = strings[slot - 1];
        if (found.length === length && sameText(found, text, start)) return slot - 1;
      }
    }
  }

  private insert(hash: number, id: number): void {
    if ((this.size + 1) * 2 > this.slots.length) this.grow();
    const mask = this.slots.length - 1;
    let i = hash & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = id + 1;
    this.hashes[i] = hash;
    this.size++;
  }

  private grow(): void {
    const oldSlots = this.slots;
    const oldHashes = this.hashes;
    this.slots = new Int32Array(oldSlots.length * 2);
    this.hashes = new Int32Array(oldSlots.length * 2);
    const mask = this.slots.length - 1;
    for (let j = 0; j < oldSlots.length; j++) {
      if (oldSlots[j] === 0) continue;
      let i = oldHashes[j] & mask;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.slots[i] = oldSlots[j];
      this.hashes[i] = oldHashes[j];
    }
  }
}

function hashOf(text: string, start: number, end: number): number {
  let hash = 0;
  for (let p = start; p < end; p++) hash = (Math.imul(hash, 31) + text.charCodeAt(p)) | 0;
  return hash;
}

function sameText(word: string, text: string, start: number): boolean {
  for (let k = 0; k < word.length; k++) {
    if (word.charCodeAt(k) !== text.charCodeAt(start + k)) return false;
  }
  return true;
}

/** The source text of token `i`. */
export function tokenText(stream: TokenStream, i: number): string {
  const id = stream.textIds[i];
  return id < 0 ? stream.source.slice(stream.starts[i], stream.ends[i]) : stream.strings[id];
}

/** Token objects for a stream (editor features that look at single tokens). */
export function materializeTokens(stream: TokenStream): Token[] {
  const tokens = new Array<Token>(stream.count);
  for (let i = 0; i < stream.count; i++) {
    const valueId = stream.valueIds[i];
    tokens[i] = {
      kind: TOKEN_KINDS[stream.kinds[i]],
      text: tokenText(stream, i),
      start: stream.starts[i],
      end: stream.ends[i],
      value: valueId < 0 ? undefined : stream.strings[valueId],
    };
  }
  return tokens;
}

function levelOf(line: LineInfo, common: number, unit: number): number {
  return Math.floor((line.contentStart - line.start - common) / unit);
}

interface LineInfo {
  start: number;
  /** Offset of the first non-whitespace character. */
  contentStart: number;
  end: number;
  blank: boolean;
}

function scanLines(text: string): LineInfo[] {
  const lines: LineInfo[] = [];
  let start = 0;
  for (;;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    let p = start;
    while (p < end && isSpace(text.charCodeAt(p))) p++;
    lines.push({ start, contentStart: p, end, blank: p === end });
    if (end >= text.length) break;
    start = end + 1;
  }
  return lines;
}

/** Leading whitespace removed from every line, as Python's textwrap.dedent does. */
function commonIndent(text: string, lines: LineInfo[]): number {
  let prefix: string | null = null;
  for (const line of lines) {
    if (line.blank) continue;
    const ws = text.slice(line.start, line.contentStart);
    if (prefix === null) {
      prefix = ws;
      continue;
    }
    let i = 0;
    while (i < prefix.length && i < ws.length && prefix[i] === ws[i]) i++;
    prefix = prefix.slice(0, i);
    if (prefix.length === 0) return 0;
  }
  return prefix?.length ?? 0;
}

/**
 * Turns rule text into tokens with explicit INDENT/DEDENT/NEWLINE tokens, exactly as the official preprocessor
 * places them: common indentation removed; the unit is the smallest non-zero indentation; one counter of levels;
 * after a line ending in `:` or `:=`, one INDENT per level the next line is deeper than the counter; a deeper line
 * without an opener emits nothing; one DEDENT per level below the counter. Whether the sequence is valid is left to
 * the parser, as upstream leaves it to the grammar.
 */
export function lex(text: string): LexResult {
  const { stream, comments, problems, indentUnit } = lexStream(text);
  return { tokens: materializeTokens(stream), comments, problems, indentUnit };
}

/** Like `lex`, with the tokens as parallel arrays (what the parser reads). */
export function lexStream(text: string, exactLayout = false): LexedStream {
  const tokens = new TokenBuilder(text, Math.max(64, text.length >> 2));
  const interner = new Interner(tokens);
  const comments: Span[] = [];
  const problems: LexProblem[] = [];
  const lines = scanLines(text);
  const common = commonIndent(text, lines);

  let unit = 0;
  for (const line of lines) {
    if (line.blank) continue;
    const depth = line.contentStart - line.start - common;
    if (depth > 0 && (unit === 0 || depth < unit)) unit = depth;
  }
  if (unit === 0) unit = 1;

  /** The official preprocessor's one counter of open levels (not a stack: it never remembers which were opened). */
  let counter = 0;
  /** The previous line ended in `:`/`:=`; 'hidden' when a comment followed the colon. */
  let opener: false | true | 'hidden' = false;
  let openerToken = -1;
  /**
   * The comment the previous non-blank line ends with. Upstream places the layout tokens a line causes at the end
   * of the line before it, so after a comment they become part of the comment and are lost.
   */
  let endingComment: Span | null = null;
  const lostLayout: LexProblem[] = [];
  let pos = 0;
  let lineNo = 0;

  while (lineNo < lines.length) {
    const line = lines[lineNo];
    if (line.blank) {
      lineNo++;
      continue;
    }
    // Comment-only lines count like any other line, as upstream: they can open and close blocks.
    const n = levelOf(line, common, unit);
    if (n > counter && opener) {
      if (opener === 'hidden' && openerToken >= 0) {
        // Upstream no block opens here and the grammar fails; the block is still opened to read what follows.
        problems.push({
          code: 'gr/syntax',
          span: { start: tokens.starts[openerToken], end: tokens.ends[openerToken] },
          message: `A comment after '${tokenText(tokens, openerToken)}' hides it from the parser, so the indented block below does not open: move the comment to its own line`,
        });
      }
      // One INDENT per level of difference; the grammar reads each extra one as a nested block of conditions.
      for (; counter < n; counter++) tokens.push(INDENT, EMPTY, line.start, line.contentStart, -1);
    } else if (n < counter) {
      if (endingComment) {
        lostLayout.push({
          code: 'gr/syntax',
          span: endingComment,
          message: 'The official parser reads this comment to the end of the line together with the end of the block, so the block never ends and the policy fails to load: move the comment above the last line of the block, or indent it like the next line',
        });
      }
      // One DEDENT per level below the counter; a deeper line without an opener emits nothing and keeps it.
      const lost = exactLayout && endingComment !== null;
      for (; counter > n; counter--) if (!lost) tokens.push(DEDENT, EMPTY, line.contentStart, line.contentStart, -1);
    } else if (n > counter && endingComment && /:=?\s*$/.test(text.slice(endingComment.start, endingComment.end))) {
      // Upstream a line ending in ':' opens a block even when the colon ends a comment: its INDENTs are lost in it.
      lostLayout.push({
        code: 'gr/syntax',
        span: endingComment,
        message: "The official parser takes this comment's final ':' for a block opener, and the block it opens below is lost inside the comment, so the policy fails to load: end the comment differently, or indent the next line like this one",
      });
      if (exactLayout) counter = n;
    }

    // Tokens of this line (a triple-quoted string may carry the scan onto later lines).
    pos = line.contentStart;
    let lineEnd = line.end;
    let lineHasTokens = false;
    let lastCommentAfterToken = false;
    let lineComment: Span | null = null;
    while (pos < lineEnd) {
      const c = text.charCodeAt(pos);
      if (isSpace(c)) {
        pos++;
        continue;
      }
      if (c === 35 /* # */) {
        lineComment = { start: pos, end: text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd };
        comments.push(lineComment);
        lastCommentAfterToken = lineHasTokens;
        pos = lineEnd;
        break;
      }
      const tokenStart = pos;
      if (isIdentStart(c)) {
        let p = pos + 1;
        let hash = c;
        let q = text.charCodeAt(p);
        while (isIdentPart(q)) {
          hash = (Math.imul(hash, 31) + q) | 0;
          q = text.charCodeAt(++p);
        }
        if (p === pos + 1 && (c === 114 /* r */ || c === 102 /* f */) && (q === 34 || q === 39)) {
          const end = scanString(text, p, tokenStart, problems);
          pushString(tokens, text, tokenStart, end, 1);
          pos = end;
          if (end > lineEnd) {
            ({ lineNo, lineEnd } = advanceLines(lines, lineNo, end));
          }
        } else {
          const id = interner.intern(text, pos, p, hash);
          tokens.push(id < KEYWORD_END ? KEYWORD : NAME, id, pos, p, -1);
          pos = p;
        }
        lineHasTokens = true;
        continue;
      }
      if (isDigit(c) || (c === 46 && isDigit(text.charCodeAt(pos + 1)))) {
        NUMBER_PATTERN.lastIndex = pos;
        const m = NUMBER_PATTERN.exec(text)!;
        let end = pos + m[0].length;
        // `1.foo` is a member access on 1, not a malformed number.
        if (text.charCodeAt(end - 1) === 46 && isIdentStart(text.charCodeAt(end))) end--;
        tokens.push(NUMBER, tokens.add(text.slice(pos, end)), pos, end, -1);
        pos = end;
        lineHasTokens = true;
        continue;
      }
      if (c === 34 || c === 39) {
        const end = scanString(text, pos, tokenStart, problems);
        pushString(tokens, text, tokenStart, end, 0);
        pos = end;
        if (end > lineEnd) {
          ({ lineNo, lineEnd } = advanceLines(lines, lineNo, end));
        }
        lineHasTokens = true;
        continue;
      }
      if (c === 123 /* { */ && text.charCodeAt(pos + 1) === 123) {
        PLACEHOLDER_PATTERN.lastIndex = pos;
        const m = PLACEHOLDER_PATTERN.exec(text);
        if (m && pos + m[0].length <= lineEnd) {
          tokens.push(PLACEHOLDER, tokens.add(m[0]), pos, pos + m[0].length, tokens.add(m[1]));
          pos += m[0].length;
          lineHasTokens = true;
          continue;
        }
      }
      if (c === 60 /* < */ && !endsOperand(tokens)) {
        VALUE_REF_PATTERN.lastIndex = pos;
        const m = VALUE_REF_PATTERN.exec(text);
        if (m && pos + m[0].length <= lineEnd) {
          tokens.push(VALUE_REF, tokens.add(m[0]), pos, pos + m[0].length, tokens.add(m[0].slice(1, -1)));
          pos += m[0].length;
          lineHasTokens = true;
          continue;
        }
      }
      const op = operatorAt(text, pos, c);
      if (op >= 0) {
        const length = op <= LAST_TWO_CHAR_OPERATOR ? 2 : 1;
        tokens.push(OP, op, pos, pos + length, -1);
        pos += length;
        lineHasTokens = true;
        continue;
      }
      if (c === 59 /* ; */) {
        problems.push({
          code: 'gr/syntax',
          span: { start: pos, end: pos + 1 },
          message: "';' is not part of the rule language: put each condition on its own line",
        });
        pos++;
        continue;
      }
      // A run of characters the language does not know is one problem, not one per character.
      let p = pos + 1;
      while (p < lineEnd && !isSpace(text.charCodeAt(p)) && !isKnownStart(text, p)) p++;
      const bad = text.slice(pos, Math.min(p, pos + 20));
      problems.push({
        code: 'gr/syntax',
        span: { start: pos, end: p },
        message: `Unexpected character${p - pos > 1 ? 's' : ''} '${printable(bad)}${p - pos > 20 ? '…' : ''}'`,
      });
      pos = p;
    }
    if (lineHasTokens) {
      const last = tokens.count - 1;
      const nl = text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
      tokens.push(NEWLINE, EMPTY, nl, nl, -1);
      const endsInOpener = tokens.kinds[last] === OP && (tokens.textIds[last] === COLON_ID || tokens.textIds[last] === WALRUS_ID);
      opener = endsInOpener ? (lastCommentAfterToken ? 'hidden' : true) : false;
      openerToken = endsInOpener ? last : -1;
    } else {
      opener = false;
      openerToken = -1;
    }
    endingComment = lineComment;
    lineNo++;
  }
  for (; counter > 0; counter--) tokens.push(DEDENT, EMPTY, text.length, text.length, -1);
  tokens.push(EOF, EMPTY, text.length, text.length, -1);
  return { stream: tokens, comments, problems, indentUnit: unit, lostLayout };
}

/** Text id of the operator starting at `pos`, or -1 (ids of the shared constant strings, so tokens allocate no text). */
function operatorAt(text: string, pos: number, c: number): number {
  if (c >= 128) return -1;
  const d = text.charCodeAt(pos + 1);
  if (d < 128) {
    const two = TWO_CHAR_OPERATOR[c * 128 + d];
    if (two >= 0) return two;
  }
  return ONE_CHAR_OPERATOR[c];
}

function isKnownStart(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  return isIdentStart(c) || isDigit(c) || c === 34 || c === 39 || c === 35 || c === 59 ||
    OPERATORS_1.has(text[p]) || OPERATORS_2.has(text.slice(p, p + 2));
}

function printable(s: string): string {
  return s.replace(/[\x00-\x1f\x7f-\x9f]/g, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function advanceLines(lines: LineInfo[], lineNo: number, offset: number): { lineNo: number; lineEnd: number } {
  while (lineNo + 1 < lines.length && lines[lineNo].end < offset) lineNo++;
  return { lineNo, lineEnd: lines[lineNo].end };
}

/** Scans a string literal whose quote is at `quote`; returns its end offset (after the closing quote). */
function scanString(text: string, quote: number, tokenStart: number, problems: LexProblem[]): number {
  const q = text[quote];
  if (text[quote + 1] === q && text[quote + 2] === q) {
    const close = q + q + q;
    let p = quote + 3;
    while (p < text.length) {
      const c = text[p];
      if (c === '\\') {
        p += 2;
        continue;
      }
      if (c === q && text.startsWith(close, p)) return p + 3;
      p++;
    }
    problems.push({
      code: 'gr/syntax',
      span: { start: tokenStart, end: Math.min(text.length, quote + 3) },
      message: `Unterminated triple-quoted string: add the closing ${close}`,
    });
    return text.length;
  }
  let p = quote + 1;
  while (p < text.length) {
    const c = text[p];
    if (c === '\\' && text[p + 1] !== '\n') {
      p += 2;
      continue;
    }
    if (c === '\n') break;
    if (c === q) return p + 1;
    p++;
  }
  problems.push({
    code: 'gr/syntax',
    span: { start: tokenStart, end: p },
    message: `Unterminated string: add the closing ${q} on the same line`,
  });
  return p;
}

function pushString(tokens: TokenBuilder, text: string, start: number, end: number, prefixLength: number): void {
  const body = start + prefixLength;
  const length = end - body;
  const q = text.charCodeAt(body);
  const triple = length >= 3 && text.charCodeAt(body + 1) === q && text.charCodeAt(body + 2) === q;
  const open = triple ? 3 : 1;
  let closed = length >= open * 2;
  for (let p = end - open; closed && p < end; p++) closed = text.charCodeAt(p) === q;
  let inner = text.slice(body + open, closed ? end - open : end);
  // Only escaped quotes are unescaped: `"\d"` stays a working regex, as in the official parser.
  if (inner.indexOf('\\') >= 0) inner = inner.replace(/\\(["'])/g, '$1');
  // The literal's own text is not stored: it is the source range (see TokenStream.textIds).
  tokens.push(STRING, -1, start, end, tokens.add(inner));
}
