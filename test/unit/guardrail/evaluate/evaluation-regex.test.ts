import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { compile, compileUncached, pyFindIter, pyFullMatch, pyMatch, type CompiledPattern, type Spans } from '../../../../server/src/guardrail/evaluate/regex';
import { PyError } from '../../../../server/src/guardrail/evaluate/values';
import { repoRoot } from '../helpers';

/**
 * The rule evaluator's regexes against Python 3.11's `re`: every case of python/regex-cases.json (computed once with
 * Python by python/regex_cases.py) through the evaluator's engine as it chooses (JavaScript's engine on a translation,
 * or the backtracking matcher), and through the backtracking matcher alone.
 */

interface Case {
  pattern: string;
  flags: number;
  text: string;
  why: string;
  error?: { type: string; message: string };
  search?: number[][] | null;
  match?: number[][] | null;
  fullmatch?: number[][] | null;
  finditer?: number[][][];
  /** Match.lastindex of each finditer match. */
  lastindex?: (number | null)[];
}

const data = JSON.parse(readFileSync(path.join(repoRoot(), 'test/unit/guardrail/evaluate/python/regex-cases.json'), 'utf8')) as { python: string; cases: Case[] };

/** Code-point spans per group, as Python gives them. */
function inCodePoints(text: string, spans: Spans | null): number[][] | null {
  if (!spans) return null;
  const cp = (offset: number) => (offset < 0 ? -1 : Array.from(text.slice(0, offset)).length);
  const out: number[][] = [];
  for (let i = 0; i < spans.length; i += 2) out.push([cp(spans[i]), cp(spans[i + 1])]);
  return out;
}

function results(p: CompiledPattern, text: string) {
  return {
    search: inCodePoints(text, p.exec(text, 0, text.length, 'search')),
    match: inCodePoints(text, p.exec(text, 0, text.length, 'match')),
    fullmatch: inCodePoints(text, p.exec(text, 0, text.length, 'fullmatch')),
    finditer: [...p.iterate(text)].map((m) => inCodePoints(text, m)!),
  };
}

function lastIndexes(p: CompiledPattern, text: string): (number | null)[] {
  return [...p.iterate(text)].map((m) => {
    const last = p.lastIndex(text, text.length, m);
    return last < 0 ? null : last;
  });
}

function compileError(f: () => unknown): { type: string; message: string } | null {
  try {
    f();
    return null;
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return { type: e.pyType, message: e.detail };
  }
}

describe(`Python ${data.python} re: ${data.cases.length} pattern/text cases`, () => {
  it('the table holds the audit\'s eleven cases and at least 100 in all', () => {
    assert.ok(data.cases.length >= 100);
    assert.equal(data.cases.filter((c) => c.why.startsWith('issue:')).length, 11);
  });

  for (const c of data.cases) {
    it(`${JSON.stringify(c.pattern)} on ${JSON.stringify(c.text)}: ${c.why}`, () => {
      const error = compileError(() => compile(c.pattern, c.flags));
      if (c.error) {
        assert.deepEqual(error, c.error);
        return;
      }
      assert.equal(error, null);
      const expected = { search: c.search, match: c.match, fullmatch: c.fullmatch, finditer: c.finditer };
      assert.equal(compile(c.pattern, c.flags).groups, (c as { groups?: number }).groups);
      assert.deepEqual(results(compile(c.pattern, c.flags), c.text), expected, 'the engine as chosen');
      assert.deepEqual(results(compileUncached(c.pattern, c.flags, false), c.text), expected, 'the backtracking matcher');
      assert.deepEqual(lastIndexes(compile(c.pattern, c.flags), c.text), c.lastindex, 'lastindex, after the engine as chosen');
      assert.deepEqual(lastIndexes(compileUncached(c.pattern, c.flags, false), c.text), c.lastindex, 'lastindex, after the backtracking matcher');
    });
  }

  it('JavaScript\'s engine takes most patterns; the matcher takes those it would match differently', () => {
    const compiled = data.cases.filter((c) => !c.error).map((c) => compile(c.pattern, c.flags));
    const translated = compiled.filter((p) => p.translated).length;
    assert.ok(translated > compiled.length / 2, `${translated} of ${compiled.length} translated`);
    for (const p of ['(a|)*', '(?:(a)|b)+', '(a)?b\\1', '(a)?(?(1)b|c)', '(?:a|ab){2}+c', '(?i)(a)\\1']) assert.equal(compile(p).translated, false, p);
    for (const p of ['\\s+', '(?i)k', 'a++b', '(?>a+)a', '(a)(b)\\2', '\\bder\\b', '(\\w+)@(\\w+)']) assert.equal(compile(p).translated, true, p);
  });
});

describe('the regex helpers the evaluator calls', () => {
  it('pyMatch, pyFullMatch and pyFindIter', () => {
    assert.equal(pyFullMatch('abc', 'abc\n'), true);
    assert.equal(pyFullMatch('a.b', 'a\nb', { dotAll: true }), true);
    assert.notEqual(pyMatch('\\Aab', 'ab'), null);
    assert.deepEqual(pyFindIter('(?m)^a', 'a\na').map((m) => m.start), [0, 2]);
    assert.deepEqual(pyFindIter('a', '😀a😀a'), [{ start: 2, end: 3, text: 'a' }, { start: 5, end: 6, text: 'a' }]);
  });
});
