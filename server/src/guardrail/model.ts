import type { Problem, Span } from '../common/types';
import type { DocumentInput } from '../common/languageService';
import { LineIndex } from '../common/lineIndex';
import type { Program } from './ast';
import { materializeTokens, type Token } from './lexer';
import { parse, type SyntaxProblem } from './parser';
import { resolve, type Occurrence, type Resolution, type RuleSymbol } from './resolve';

/** One parsed version of a rule file; every feature works from it. */
export interface RuleModel {
  uri: string;
  version: number;
  text: string;
  lines: LineIndex;
  /** Token objects, made on first use (the parser reads the compact stream). */
  readonly tokens: Token[];
  comments: Span[];
  program: Program;
  syntaxProblems: SyntaxProblem[];
  /** Name-resolution and type problems (computed with the parse: diagnostics need nothing more). */
  semanticProblems: Problem[];
  /** Scopes, symbols and the occurrence index for editor features; built on first use, then kept with the model. */
  readonly resolution: Resolution;
}

export function buildModel(doc: DocumentInput): RuleModel {
  const parsed = parse(doc.text, doc.budget);
  let resolution: Resolution | undefined;
  let tokens: Token[] | undefined;
  return {
    uri: doc.uri,
    version: doc.version,
    text: doc.text,
    lines: new LineIndex(doc.text),
    get tokens(): Token[] {
      return (tokens ??= materializeTokens(parsed.tokens));
    },
    comments: parsed.comments,
    program: parsed.program,
    syntaxProblems: parsed.problems,
    // A line that does not parse is left out of the program, and the names it uses with it: with syntax errors an
    // import may only look unused (the line being typed uses it), so no import is called unused then.
    semanticProblems: resolve(parsed.program, false, parsed.problems.length === 0).problems,
    get resolution(): Resolution {
      return (resolution ??= resolve(parsed.program, true));
    },
  };
}

/** Index of the token covering `offset` (or ending exactly at it), or -1. */
export function tokenAt(model: RuleModel, offset: number): number {
  const tokens = model.tokens;
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tokens[mid].start <= offset) lo = mid;
    else hi = mid - 1;
  }
  for (let i = lo; i >= 0 && i >= lo - 2; i--) {
    const t = tokens[i];
    if (t.kind === 'newline' || t.kind === 'indent' || t.kind === 'dedent' || t.kind === 'eof') continue;
    if (t.start <= offset && offset <= t.end) return i;
  }
  return -1;
}

/** The innermost name occurrence at `offset` (a cursor right after a name still counts). */
export function occurrenceAt(model: RuleModel, offset: number): Occurrence | undefined {
  const list = model.resolution.occurrences;
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].span.start <= offset) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  for (let i = found; i >= 0 && i >= found - 3; i--) {
    const o = list[i];
    if (o.span.start <= offset && offset <= o.span.end) return o;
  }
  return undefined;
}

/** Every occurrence of a symbol, declaration first. */
export function occurrencesOf(model: RuleModel, symbol: RuleSymbol): Occurrence[] {
  return model.resolution.occurrences.filter((o) => o.symbol === symbol);
}

/** The text of the line holding `offset`, trimmed. */
export function lineTextAt(model: RuleModel, offset: number): string {
  const { line } = model.lines.positionAt(offset);
  const start = model.lines.lineStart(line);
  const end = line + 1 < model.lines.lineCount ? model.lines.lineStart(line + 1) : model.text.length;
  return model.text.slice(start, end).trim();
}
