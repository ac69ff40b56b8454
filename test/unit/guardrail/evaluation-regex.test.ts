import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { pyFindIter, pyFullMatch, pyMatch, PyRegexError } from '../../../server/src/guardrail/evaluate/regex';

/** Python `re` semantics on JavaScript's engine, case by case (expected values as CPython 3.12 gives them). */
describe('Python regex translation', () => {
  it('anchors: $ also before a final newline, \\Z and \\A only at the ends, ^ at the start', () => {
    assert.equal(pyFullMatch('abc', 'abc\n'), true);
    assert.equal(pyFullMatch('abc', 'abc\n\n'), false);
    assert.equal(pyMatch('abc\\Z', 'abc\n'), null);
    assert.notEqual(pyMatch('\\Aab', 'ab'), null);
    assert.deepEqual(pyFindIter('^a', 'a\na').map((m) => m.start), [0]);
    assert.deepEqual(pyFindIter('(?m)^a', 'a\na').map((m) => m.start), [0, 2]);
  });

  it('named groups and back-references, inline flags at the start', () => {
    assert.equal(pyFullMatch('(?P<x>ab)-(?P=x)', 'ab-ab'), true);
    assert.equal(pyFullMatch('(?P<x>ab)-(?P=x)', 'ab-ba'), false);
    assert.equal(pyFullMatch('(?i)hello', 'HeLLo'), true);
    assert.equal(pyFullMatch('(?s)a.b', 'a\nb'), true);
    assert.equal(pyFullMatch('a.b', 'a\nb'), false);
    assert.equal(pyFullMatch('a.b', 'a\nb', { dotAll: true }), true);
  });

  it('scoped inline flags, and a dot that matches \\r (it stops only at \\n, as in Python)', () => {
    assert.equal(pyFullMatch('a(?i:bC)d', 'aBcd'), true);
    assert.equal(pyFullMatch('a(?i:bC)d', 'aBcD'), false);
    assert.equal(pyFullMatch('(?i:[a-c]x)', 'BX'), true);
    assert.equal(pyFullMatch('a(?s:.)b', 'a\nb'), true);
    assert.equal(pyFullMatch('(?s)a(?-s:.)b', 'a\nb'), false);
    assert.equal(pyFullMatch('a.b', 'a\rb'), true);
    assert.equal(pyFullMatch('(?P<q>x)(?i:y)(?P=q)', 'xYx'), true);
  });

  it('literal braces, escapes Python accepts, Unicode \\w and \\d, code points for .', () => {
    assert.equal(pyFullMatch('a{b}', 'a{b}'), true);
    assert.equal(pyFullMatch('a{,2}', 'aa'), true);
    assert.equal(pyFullMatch('x\\-y\\:z\\ w', 'x-y:z w'), true);
    assert.equal(pyFullMatch('[\\w-]+', 'é-ß_1'), true);
    assert.equal(pyFullMatch('\\d+', '١٢٣'), true);
    assert.equal(pyFullMatch('.', '😀'), true);
    assert.deepEqual(pyFindIter('\\bder\\b', 'oder der äder').map((m) => m.start), [5]);
    assert.deepEqual(pyFindIter('a\\B', 'ab a').map((m) => m.start), [0]);
    assert.equal(pyFullMatch('[]a]+', ']a'), true);
    assert.equal(pyFullMatch('[^]a]', 'b'), true);
  });

  it('rejects what Python rejects', () => {
    assert.throws(() => pyMatch('a**', 'a'), PyRegexError);
    assert.throws(() => pyMatch('(', 'a'), PyRegexError);
    assert.throws(() => pyMatch('*a', 'a'), PyRegexError);
    assert.throws(() => pyMatch('\\q', 'q'), PyRegexError);
  });
});
