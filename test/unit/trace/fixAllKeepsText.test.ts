/**
 * Property: fix-all never loses a string of the trace. Every corpus trace is broken in thousands of ways (commas,
 * comments, unterminated comments, notes after the value, misspelled keys and roles, characters deleted or added,
 * a call list turned into an object); then the editor's fix-all and `check --fix` are applied, and every string of
 * the original that the breaking did not touch must still be in the result, in place: only a fix's edit inside the
 * string, or one that replaces exactly that string with another, may change it.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeActionParams } from 'vscode-languageserver/node';
import { applyEdits, fixAllEdits } from '../../../server/src/common/codeActions';
import type { TextEditSpan } from '../../../server/src/common/types';
import { codeActions } from '../../../server/src/lsp/codeActionRequest';
import { fixFile } from '../../../server/src/cli/fix';
import { Lexer } from '../../../server/src/json/scanner';
import { Token } from '../../../server/src/json/tokens';
import { traceService } from '../../../server/src/trace';
import { jsonSyntaxErrors } from '../../../server/src/trace/parser';
import { filesUnder, random } from '../testing';
import { context } from './helpers';

const corpus = path.resolve(__dirname, '../../../..', '../shared/corpus/traces');
const mutationsPerTrace = 40;

interface Tracked {
  start: number;
  end: number;
  raw: string;
}

interface Token {
  kind: number;
  start: number;
  end: number;
}

function tokensOf(text: string): Token[] {
  const lexer = new Lexer(text, 0, text.length);
  const tokens: Token[] = [];
  for (let kind = lexer.next(); kind !== Token.EOF; kind = lexer.next()) tokens.push({ kind, start: lexer.offset, end: lexer.offset + lexer.length });
  return tokens;
}

/** One splice of the text: text[start, end) becomes `insert`. */
interface Splice {
  start: number;
  end: number;
  insert: string;
}

type Mutation = (text: string, tokens: Token[], pick: <T>(items: T[]) => T | undefined, next: () => number) => Splice[] | undefined;

const at = (offset: number, insert: string): Splice => ({ start: offset, end: offset, insert });
const boundary = (tokens: Token[], pick: <T>(items: T[]) => T | undefined) => pick(tokens)?.end;
const stringsNamed = (text: string, tokens: Token[], raw: string) => tokens.filter((t) => t.kind === Token.String && text.slice(t.start, t.end) === raw);

const mutations: Record<string, Mutation> = {
  trailingComma: (_text, tokens, pick) => {
    const closer = pick(tokens.filter((t, i) => (t.kind === Token.CloseBrace || t.kind === Token.CloseBracket) && tokens[i - 1]?.kind !== Token.OpenBrace && tokens[i - 1]?.kind !== Token.OpenBracket));
    return closer && [at(closer.start, ',')];
  },
  blockComment: (_text, tokens, pick) => [at(boundary(tokens, pick) ?? 0, ' /* a note with "quotes" */ ')],
  lineComment: (_text, tokens, pick) => [at(boundary(tokens, pick) ?? 0, '\n// a note with "quotes"\n')],
  unterminatedComment: (_text, tokens, pick) => [at(boundary(tokens, pick) ?? 0, ' /* cut here')],
  unterminatedCommentAlone: (_text, tokens, pick) => [at(boundary(tokens, pick) ?? 0, '/*')],
  notesAfterValue: (text, _tokens, pick) => [at(text.length, pick(['\n// run notes: "flaky"\n', '\n/* run notes: "flaky"\nsecond line', '\n/* run notes */\n', '\nrun notes\n'])!)],
  misspelledRoleKey: (text, tokens, pick) => {
    const key = pick(stringsNamed(text, tokens, '"role"'));
    return key && [{ start: key.start, end: key.end, insert: pick(['"rol"', '"rule"', '"route"', '"Role"', '"roles"'])! }];
  },
  misspelledRole: (text, tokens, pick) => {
    const role = pick(['"user"', '"assistant"', '"tool"', '"system"'].flatMap((raw) => stringsNamed(text, tokens, raw)));
    return role && [{ start: role.start, end: role.end, insert: pick(['"usr"', '"assitant"', '"tol"', '"sytem"', '"agent"'])! }];
  },
  deleteCharacter: (text, _tokens, _pick, next) => {
    const offset = Math.floor(next() * text.length);
    return [{ start: offset, end: offset + 1, insert: '' }];
  },
  insertCharacter: (text, _tokens, pick, next) => [at(Math.floor(next() * text.length), pick(['{', '}', '[', ']', ',', ':', '"', '\\', '/', '*', 'x'])!)],
  deleteToken: (_text, tokens, pick) => {
    const token = pick(tokens.filter((t) => t.kind !== Token.String));
    return token && [{ start: token.start, end: token.end, insert: '' }];
  },
  callListToObject: (text, tokens, pick) => {
    const key = pick(stringsNamed(text, tokens, '"tool_calls"'));
    const i = key ? tokens.indexOf(key) : -1;
    if (i < 0 || tokens[i + 2]?.kind !== Token.OpenBracket) return undefined;
    let depth = 0;
    for (let j = i + 2; j < tokens.length; j++) {
      if (tokens[j].kind === Token.OpenBracket || tokens[j].kind === Token.OpenBrace) depth++;
      if (tokens[j].kind === Token.CloseBracket || tokens[j].kind === Token.CloseBrace) depth--;
      if (depth === 0) return [{ start: tokens[j].start, end: tokens[j].end, insert: '' }, { start: tokens[i + 2].start, end: tokens[i + 2].end, insert: '' }];
    }
    return undefined;
  },
};

/**
 * Moves the tracked strings through edits (non-overlapping): those before an edit shift, those an edit changes
 * inside or replaces by another string leave the check, and any other edit over a string is returned as a loss.
 */
function through(tracked: Tracked[], edits: readonly TextEditSpan[], text: string): { kept: Tracked[]; lost: string[] } {
  const kept: Tracked[] = [];
  const lost: string[] = [];
  for (const string of tracked) {
    let shift = 0;
    let dropped = false;
    for (const edit of edits) {
      const { start, end } = edit.span;
      if (end <= string.start) {
        shift += edit.newText.length - (end - start);
      } else if (start >= string.end) {
        continue;
      } else if (start > string.start && end < string.end) {
        dropped = true; // an edit inside the string: the problem it fixes is in this string
      } else if (start === string.start && end === string.end && /^"(?:[^"\\]|\\.)*"$/.test(edit.newText)) {
        dropped = true; // the string replaced by another (a corrected role, a fresh call id)
      } else {
        lost.push(`${string.raw} at ${string.start} by ${JSON.stringify(edit)} in ${JSON.stringify(text.slice(Math.max(0, start - 40), end + 40))}`);
        dropped = true;
      }
    }
    if (!dropped) kept.push({ ...string, start: string.start + shift, end: string.end + shift });
  }
  return { kept, lost };
}

function corpusOrSkip(t: TestContext): boolean {
  if (existsSync(corpus)) return true;
  if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
  t.skip(`corpus not found at ${corpus}`);
  return false;
}

test('fix-all and check --fix keep every string of thousands of broken corpus traces that the breaking left whole', (t) => {
  if (!corpusOrSkip(t)) return;
  const files = filesUnder(corpus, '.json');
  assert.ok(files.length > 0);
  const next = random(2026);
  const pick = <T>(items: T[]): T | undefined => (items.length === 0 ? undefined : items[Math.floor(next() * items.length)]);
  const names = Object.keys(mutations);
  let samples = 0;
  let editorFixes = 0;
  let cliFixes = 0;
  for (const file of files) {
    const original = readFileSync(file, 'utf8');
    const originalTokens = tokensOf(original);
    const strings: Tracked[] = originalTokens.filter((token) => token.kind === Token.String).map((token) => ({ ...token, raw: original.slice(token.start, token.end) }));
    for (let round = 0; round < mutationsPerTrace; round++) {
      // One to three breakings, each applied to the text the previous one left.
      let text = original;
      let tracked = strings;
      const applied: string[] = [];
      for (let count = 1 + Math.floor(next() * 3); count > 0; count--) {
        const name = pick(names)!;
        const splices = mutations[name](text, tokensOf(text), pick, next);
        if (!splices) continue;
        const edits = splices.map((s) => ({ span: { start: s.start, end: s.end }, newText: s.insert }));
        // Strings a breaking touches are no longer the original's: they leave the check.
        tracked = through(tracked, edits, text).kept;
        text = applyEdits(text, edits);
        applied.push(name);
      }
      samples++;
      const where = `${path.basename(file)} round ${round} (${applied.join(', ')})`;

      // The editor's fix-all: one pass, offered only when its result reads.
      const model = traceService.parse({ uri: 'file:///w/a.trace.json', version: 1, text });
      const problems = traceService.validate(model, context());
      const { edits } = fixAllEdits(traceService, model, problems);
      const document = TextDocument.create('file:///w/a.trace.json', 'agent-trace', 1, text);
      const params = { textDocument: { uri: document.uri }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [], only: ['source.fixAll'] } } as CodeActionParams;
      const offered = codeActions({ service: traceService, model } as never, document, params, problems, false);
      if (offered.length > 0) {
        editorFixes++;
        const result = TextDocument.applyEdits(document, offered[0].edit!.changes![document.uri]);
        assert.equal(result, applyEdits(text, edits), where);
        assert.deepEqual(jsonSyntaxErrors(result).filter((e) => e.code === 'json/syntax'), [], `${where}: the editor's fix-all left a syntax error`);
        const { kept, lost } = through(tracked, edits, text);
        assert.deepEqual(lost, [], `${where}: the editor's fix-all lost strings`);
        for (const s of kept) assert.equal(result.slice(s.start, s.end), s.raw, where);
      }

      // check --fix: pass after pass.
      const fixed = fixFile(traceService as never, 'file:///w/a.trace.json', text, context());
      if (fixed.passes.length > 0) cliFixes++;
      let passText = text;
      let passTracked = tracked;
      for (const passEdits of fixed.passes) {
        const { kept, lost } = through(passTracked, passEdits, passText);
        assert.deepEqual(lost, [], `${where}: check --fix lost strings`);
        passTracked = kept;
        passText = applyEdits(passText, passEdits);
      }
      assert.equal(passText, fixed.text, where);
      for (const s of passTracked) assert.equal(fixed.text.slice(s.start, s.end), s.raw, where);
    }
  }
  t.diagnostic(`${samples} broken traces: the editor offered fix-all on ${editorFixes}, check --fix wrote ${cliFixes}`);
  assert.ok(samples >= 2000, `${samples} samples`);
  // The property is only as good as the fixes it saw applied.
  assert.ok(editorFixes > samples / 5 && cliFixes > samples / 5, `fixes applied: editor ${editorFixes}, check --fix ${cliFixes} of ${samples}`);
});
