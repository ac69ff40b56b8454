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
  code: 'gr/syntax' | 'gr/inconsistent-dedent';
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
const VALUE_REF = /<[A-Za-z_:]+>/y;
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/y;
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;

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
function endsOperand(token: Token | undefined): boolean {
  if (!token) return false;
  switch (token.kind) {
    case 'name': case 'number': case 'string': case 'valueRef': case 'placeholder': return true;
    case 'keyword': return token.text === 'True' || token.text === 'False' || token.text === 'None';
    case 'op': return token.text === ')' || token.text === ']' || token.text === '}' || token.text === '*';
    default: return false;
  }
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
 * Turns rule text into tokens with explicit INDENT/DEDENT/NEWLINE tokens, following the official parser's
 * indentation rules: common indentation removed; the unit is the smallest non-zero indentation; a block opens only
 * after a line ending in `:` or `:=`; deeper lines without an opener continue the current block; dedenting to a
 * level that was never opened is an error.
 */
export function lex(text: string): LexResult {
  const tokens: Token[] = [];
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

  const levels: number[] = [0];
  /** The previous line ended in `:`/`:=`; 'hidden' when a comment followed the colon. */
  let opener: false | true | 'hidden' = false;
  let openerToken: Token | undefined;
  let pos = 0;
  let lineNo = 0;

  const levelOf = (line: LineInfo) => Math.floor((line.contentStart - line.start - common) / unit);

  /** The next line (after `from`) that holds code rather than only a comment, or -1. */
  const nextCodeLine = (from: number): number => {
    for (let i = from; i < lines.length; i++) {
      const l = lines[i];
      if (!l.blank && text.charCodeAt(l.contentStart) !== 35) return i;
    }
    return -1;
  };

  while (lineNo < lines.length) {
    const line = lines[lineNo];
    if (line.blank) {
      lineNo++;
      continue;
    }
    const n = levelOf(line);
    const commentOnly = text.charCodeAt(line.contentStart) === 35;
    const here = { start: line.contentStart, end: line.contentStart };
    let top = levels[levels.length - 1];
    if (n > top && opener) {
      if (opener === 'hidden' && openerToken) {
        problems.push({
          code: 'gr/syntax',
          span: { start: openerToken.start, end: openerToken.end },
          message: `A comment after '${openerToken.text}' hides it from the parser, so the indented block below does not open: move the comment to its own line`,
        });
      }
      levels.push(n);
      tokens.push({ kind: 'indent', text: '', start: line.start, end: line.contentStart, value: undefined });
    } else if (n < top) {
      const next = commentOnly ? nextCodeLine(lineNo + 1) : -1;
      if (commentOnly && next !== -1 && levelOf(lines[next]) >= top) {
        problems.push({
          code: 'gr/syntax',
          span: { start: line.contentStart, end: line.end },
          message: 'This comment is indented less than the block around it and ends that block: indent it like the surrounding lines',
        });
      } else {
        while (n < top) {
          if (levels[levels.length - 2] < n) {
            // Between two open levels: the official parser crashes here; the line is kept in the inner block.
            problems.push({
              code: 'gr/inconsistent-dedent',
              span: { start: line.start, end: line.contentStart },
              message: 'This line is indented to a level that no enclosing block opened: indent it like the lines above or below it',
            });
            break;
          }
          levels.pop();
          tokens.push({ kind: 'dedent', text: '', start: here.start, end: here.end, value: undefined });
          top = levels[levels.length - 1];
        }
      }
    }

    // Tokens of this line (a triple-quoted string may carry the scan onto later lines).
    pos = line.contentStart;
    let lineEnd = line.end;
    let lineHasTokens = false;
    let lastCommentAfterToken = false;
    while (pos < lineEnd) {
      const c = text.charCodeAt(pos);
      if (isSpace(c)) {
        pos++;
        continue;
      }
      if (c === 35 /* # */) {
        comments.push({ start: pos, end: text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd });
        lastCommentAfterToken = lineHasTokens;
        pos = lineEnd;
        break;
      }
      const tokenStart = pos;
      if (isIdentStart(c)) {
        let p = pos + 1;
        while (p < text.length && isIdentPart(text.charCodeAt(p))) p++;
        const word = text.slice(pos, p);
        const q = text.charCodeAt(p);
        if ((word === 'r' || word === 'f') && (q === 34 || q === 39)) {
          const end = scanString(text, p, tokenStart, problems);
          tokens.push(stringToken(text, tokenStart, end, 1));
          pos = end;
          if (end > lineEnd) {
            ({ lineNo, lineEnd } = advanceLines(lines, lineNo, end));
          }
        } else {
          tokens.push({ kind: KEYWORDS.has(word) ? 'keyword' : 'name', text: word, start: pos, end: p, value: undefined });
          pos = p;
        }
        lineHasTokens = true;
        continue;
      }
      if (isDigit(c) || (c === 46 && isDigit(text.charCodeAt(pos + 1)))) {
        NUMBER.lastIndex = pos;
        const m = NUMBER.exec(text)!;
        let end = pos + m[0].length;
        // `1.foo` is a member access on 1, not a malformed number.
        if (text.charCodeAt(end - 1) === 46 && isIdentStart(text.charCodeAt(end))) end--;
        tokens.push({ kind: 'number', text: text.slice(pos, end), start: pos, end, value: undefined });
        pos = end;
        lineHasTokens = true;
        continue;
      }
      if (c === 34 || c === 39) {
        const end = scanString(text, pos, tokenStart, problems);
        tokens.push(stringToken(text, tokenStart, end, 0));
        pos = end;
        if (end > lineEnd) {
          ({ lineNo, lineEnd } = advanceLines(lines, lineNo, end));
        }
        lineHasTokens = true;
        continue;
      }
      if (c === 123 /* { */ && text.charCodeAt(pos + 1) === 123) {
        PLACEHOLDER.lastIndex = pos;
        const m = PLACEHOLDER.exec(text);
        if (m && pos + m[0].length <= lineEnd) {
          tokens.push({ kind: 'placeholder', text: m[0], start: pos, end: pos + m[0].length, value: m[1] });
          pos += m[0].length;
          lineHasTokens = true;
          continue;
        }
      }
      if (c === 60 /* < */ && !endsOperand(tokens[tokens.length - 1])) {
        VALUE_REF.lastIndex = pos;
        const m = VALUE_REF.exec(text);
        if (m && pos + m[0].length <= lineEnd) {
          tokens.push({ kind: 'valueRef', text: m[0], start: pos, end: pos + m[0].length, value: m[0].slice(1, -1) });
          pos += m[0].length;
          lineHasTokens = true;
          continue;
        }
      }
      const op = operatorAt(text, pos, c);
      if (op !== undefined) {
        tokens.push({ kind: 'op', text: op, start: pos, end: pos + op.length, value: undefined });
        pos += op.length;
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
      const last = tokens[tokens.length - 1];
      const nl = text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
      tokens.push({ kind: 'newline', text: '', start: nl, end: nl, value: undefined });
      const endsInOpener = last.kind === 'op' && (last.text === ':' || last.text === ':=');
      opener = endsInOpener ? (lastCommentAfterToken ? 'hidden' : true) : false;
      openerToken = endsInOpener ? last : undefined;
    } else {
      opener = false;
      openerToken = undefined;
    }
    lineNo++;
  }
  while (levels.length > 1) {
    levels.pop();
    tokens.push({ kind: 'dedent', text: '', start: text.length, end: text.length, value: undefined });
  }
  tokens.push({ kind: 'eof', text: '', start: text.length, end: text.length, value: undefined });
  return { tokens, comments, problems, indentUnit: unit };
}

/** The operator starting at `pos` (shared constant strings, so tokens allocate no text). */
function operatorAt(text: string, pos: number, c: number): string | undefined {
  const d = text.charCodeAt(pos + 1);
  switch (c) {
    case 42: return d === 42 ? '**' : '*';
    case 61: return d === 61 ? '==' : '=';
    case 33: return d === 61 ? '!=' : undefined;
    case 60: return d === 61 ? '<=' : '<';
    case 62: return d === 61 ? '>=' : '>';
    case 45: return d === 62 ? '->' : '-';
    case 126: return d === 62 ? '~>' : undefined;
    case 58: return d === 61 ? ':=' : ':';
    case 40: return '(';
    case 41: return ')';
    case 91: return '[';
    case 93: return ']';
    case 123: return '{';
    case 125: return '}';
    case 44: return ',';
    case 46: return '.';
    case 43: return '+';
    case 47: return '/';
    case 37: return '%';
    default: return undefined;
  }
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

function stringToken(text: string, start: number, end: number, prefixLength: number): Token {
  const raw = text.slice(start, end);
  const body = raw.slice(prefixLength);
  const q = body[0];
  const triple = body.length >= 3 && body[1] === q && body[2] === q;
  const open = triple ? 3 : 1;
  const closed = body.length >= open * 2 && body.endsWith(triple ? q + q + q : q);
  let inner = body.slice(open, closed ? body.length - open : body.length);
  // Only escaped quotes are unescaped: `"\d"` stays a working regex, as in the official parser.
  if (inner.indexOf('\\') >= 0) inner = inner.replace(/\\(["'])/g, '$1');
  return { kind: 'string', text: raw, start, end, value: inner };
}
