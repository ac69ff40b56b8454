import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lex } from '../../../server/src/guardrail/lexer';
import { describe, model } from './helpers';

/** The layout tokens of a file, line by line: `>` an INDENT, `<` a DEDENT, `;` a NEWLINE. */
function layout(text: string): string {
  return lex(text).tokens.map((t) => (t.kind === 'indent' ? '>' : t.kind === 'dedent' ? '<' : t.kind === 'newline' ? ';' : '')).join('');
}

const quantifiers = 'from invariant import count, forall\n';

/**
 * Cases of every shape the official preprocessor allows, each with the verdict of the official parser (its grammar
 * and preprocessor, invariant @2340fe2 with lark 1.3.1, run on these exact texts): true when it parses.
 */
const cases: [string, string, boolean][] = [
  ['a deep first line, then shallower ones (unit 3: six INDENTs, then five DEDENTs)',
    'raise "x" if:\n                    (m: Message)\n   m.role == "user"\n   m.content == "a"\n', true],
  ['a deep first line with a 4-space unit', 'raise "x" if:\n            (m: Message)\n    m.role == "user"\n', true],
  ['deep, shallower, then deeper without an opener', 'raise "x" if:\n            (m: Message)\n    m.role == "user"\n        m.content == "b"\n    m.content == "c"\n', true],
  ['a line below the body, above the rule (unit 2)', 'raise "x" if:\n    (m: Message)\n  m.role == "a"\n', true],
  ['3- and 4-space rules in one file', 'raise "x" if:\n   (m: Message)\n   m.role == "a"\nraise "y" if:\n    (n: Message)\n    n.role == "b"\n', true],
  ['3- and 4-space lines in one body', 'raise "x" if:\n   (m: Message)\n    m.role == "a"\n   m.content == "b"\n', true],
  ['tabs', 'raise "x" if:\n\t(m: Message)\n\tm.role == "a"\n', true],
  ['tabs with a nested quantifier', `${quantifiers}raise "x" if:\n\t(m: Message)\n\tforall:\n\t\t(c: ToolCall)\n\t\tc.function.name == "a"\n\tm.role == "b"\n`, true],
  ['nested quantifier blocks, negated or not', `${quantifiers}raise "x" if:\n    (m: Message)\n    count(min=2):\n        (c: ToolCall)\n        c.function.name == "a"\n    not forall:\n        (d: ToolCall)\n        d.function.name == "b"\n`, true],
  ['a quantifier body whose first line is deeper than the rest', `${quantifiers}raise "x" if:\n    (m: Message)\n    forall:\n            (c: ToolCall)\n        c.function.name == "a"\n    m.role == "b"\n`, true],
  ['a quantifier body closed to a level between two openers', `${quantifiers}raise "x" if:\n  (m: Message)\n  forall:\n      (c: ToolCall)\n    c.function.name == "a"\n  m.role == "b"\n`, true],
  ['a dedent past two levels at once', `${quantifiers}raise "x" if:\n        (m: Message)\n        forall:\n            (c: ToolCall)\n    m.role == "a"\n`, true],
  ['a deeper line without an opener inside a quantifier, then back', `${quantifiers}raise "x" if:\n    (m: Message)\n    forall:\n        (c: ToolCall)\n            c.function.name == "a"\n      m.role == "b"\n`, true],
  ['continuation lines after an operator, deeper or not, and inside brackets', 'raise "x" if:\n    (m: Message)\n    m.role == "a" and\n        m.content == "b"\n    m.role == "c" or\n    m.content == "d"\n    len([1,\n        2]) == 2\n', true],
  ['a continuation line inside brackets below the counter (its DEDENT lands inside the call)', 'raise "x" if:\n    (m: Message)\n    len([1,\n  2]) == 2\n', false],
  ['a comment-only line below a quantifier body closes it', `${quantifiers}raise "x" if:\n    (m: Message)\n    forall:\n        (c: ToolCall)\n    # note\n        m.role == "a"\n`, true],
  ['a comment-only line at column 0 closes the rule', 'raise "x" if:\n    (m: Message)\n# note\n    m.role == "a"\n', false],
  ['a deeper comment-only line', 'raise "x" if:\n    (m: Message)\n        # note\n    m.role == "a"\n', true],
  ['a declaration block whose first line is deeper', 'p(m: Message) :=\n        m.role == "a"\n    m.content == "b"\nraise "x" if:\n    (m: Message)\n    p(m)\n', true],
  ['the whole file indented', '    raise "x" if:\n        (m: Message)\n        m.role == "a"\n', true],
  ['deeper lines without an opener at the top level', 'x := 1\n    y := 2\n', true],
  ['a def body two levels deep (the grammar has no nested block among statements)', 'def f(a: str):\n        x := 1\n    y := 2\n', false],
  // Upstream puts the DEDENTs a line causes at the end of the line before it: after a comment they are lost in it.
  ['a comment at the end of a block\'s last line', 'raise "x" if:\n    (m: Message)  # the message\nraise "y" if:\n    (n: Message)\n', false],
  ['a comment-only line ending a block (a commented-out condition)', 'raise "x" if:\n    (m: Message)\n    # m.role == "user"\nraise "y" if:\n    (n: Message)\n', false],
  ['a comment ending a quantifier body', `${quantifiers}raise "x" if:\n    (m: Message)\n    forall:\n        (c: ToolCall)  # c\n    m.role == "a"\n`, false],
  ['a comment at column 0 between rules, and one at the end of the file', 'raise "x" if:\n    (m: Message)\n# the next rule\nraise "y" if:\n    (n: Message)  # last\n', true],
  ['a comment inside a block, not on its last line', 'raise "x" if:\n    (m: Message)  # the message\n    m.role == "a"\n', true],
  ['a deep comment-only line before shallower conditions (it opens a block of its own)', 'raise "x" if:\n        # explain\n    (m: Message)\n', false],
  ['a comment ending in a colon before a deeper line', 'raise "x" if:\n    (m: Message)  # then:\n        m.role == "a"\n', false],
  ['a block holding only comments', 'raise "x" if:\n    # nothing yet\n', false],
];

for (const [name, text, valid] of cases) {
  test(`indentation as upstream: ${name} ${valid ? 'parses' : 'is a syntax error'}`, () => {
    const syntax = describe(text).filter((p) => p.includes(' gr/syntax ') || p.includes(' gr/empty-rule '));
    if (valid) assert.deepEqual(describe(text).filter((p) => p.startsWith('error')), []);
    else assert.notDeepEqual(syntax, []);
  });
}

test('the tokens: one counter, several INDENTs for one opener, one DEDENT per level below it', () => {
  // unit 3; 20 spaces is level 6 after the opener: six INDENTs; back to level 1: five DEDENTs; the end closes 1
  assert.equal(layout('raise "x" if:\n                    (m: Message)\n   m.role == "user"\n'), ';>>>>>>;<<<<<;<');
  // a deeper line without an opener emits nothing and leaves the counter, so coming back emits nothing either
  assert.equal(layout('raise "x" if:\n    a\n        b\n    c\n'), ';>;;;<');
  // no stack: a dedent to a level between two openers is just one DEDENT per level
  assert.equal(layout('forall:\n  a\n  count:\n      b\n    c\n'), ';>;;>>;<;<<');
  assert.equal(lex('raise "x" if:\n                    (m: Message)\n   m.role == "user"\n').indentUnit, 3);
});

test('a first line a hundred levels deep is a hundred nested blocks, read without recursion', () => {
  // unit 1 (the last line); the official parser accepts this text too
  const text = `raise "x" if:\n${' '.repeat(100)}(m: Message)\n m.role == "a"\n`;
  assert.deepEqual(describe(text), []);
  assert.equal(layout(text), `;${'>'.repeat(100)};${'<'.repeat(99)};<`);
});

test('a comment that swallows the end of a block is one error, on the comment, saying what to do', () => {
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)\n    # m.role == "user"\nraise "y" if:\n    (n: Message)\n'), [
    'error gr/syntax 3:5-3:23 The official parser reads this comment to the end of the line together with the end of the block, so the block never ends and the policy fails to load: move the comment above the last line of the block, or indent it like the next line',
  ]);
  // a deep comment-only line that opens an empty block and loses its end: one error, not one per level
  assert.deepEqual(describe('raise "x" if:\n            # explain\n    (m: Message)\n').length, 1);
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)  # then:\n        m.role == "a"\n'), [
    "error gr/syntax 2:19-2:26 The official parser takes this comment's final ':' for a block opener, and the block it opens below is lost inside the comment, so the policy fails to load: end the comment differently, or indent the next line like this one",
  ]);
  assert.deepEqual(describe('raise "x" if:\n    # nothing yet\n'), [
    "error gr/empty-rule 1:11-1:14 This rule has no conditions, only comments: write them on the lines after 'if:', indented",
  ]);
});

test('a deep first line keeps every condition of the rule, in order', () => {
  const rule = model('raise "x" if:\n                    (m: Message)\n   m.role == "user"\n   m.content == "a"\n').program.statements[0];
  assert.equal(rule.kind, 'rule');
  assert.deepEqual(rule.kind === 'rule' ? rule.body.map((e) => e.kind) : [], ['typed', 'binary', 'binary']);
});
