import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardrailService } from '../../../server/src/guardrail';
import { at, context, describe, model, problems, spanText } from './helpers';

test('model.tokens lists every token with its kind, text, range and decoded value', () => {
  const text = 'x := f(r"a\\"b", <EMAIL>, {{ who }}) # note\n';
  assert.deepEqual(model(text).tokens.map((t) => [t.kind, t.text, t.start, t.end, t.value]), [
    ['name', 'x', 0, 1, undefined],
    ['op', ':=', 2, 4, undefined],
    ['name', 'f', 5, 6, undefined],
    ['op', '(', 6, 7, undefined],
    ['string', 'r"a\\"b"', 7, 14, 'a"b'],
    ['op', ',', 14, 15, undefined],
    ['valueRef', '<EMAIL>', 16, 23, 'EMAIL'],
    ['op', ',', 23, 24, undefined],
    ['placeholder', '{{ who }}', 25, 34, 'who'],
    ['op', ')', 34, 35, undefined],
    ['newline', '', 42, 42, undefined],
    ['eof', '', 43, 43, undefined],
  ]);
});

test('names whose character hashes collide stay distinct, and keywords inside longer names stay names', () => {
  // 'Aa' and 'BB' have the same 31-based string hash.
  const text = 'Aa := 1\nBB := "b"\niff := 2\nnotx := 3\nr := 4\nraise "x" if:\n    Aa == BB\n    iff + notx + r > 0\n';
  assert.deepEqual(describe(text), []);
  const m = model(text);
  assert.equal(spanText(text, guardrailService.definition(m, at(text, 'BB', 0, 1))[0].selection!), 'BB');
  assert.equal(guardrailService.definition(m, at(text, 'BB', 0, 1))[0].selection!.start, at(text, 'BB'));
  assert.equal(guardrailService.definition(m, at(text, 'Aa', 0, 1))[0].selection!.start, at(text, 'Aa'));
});

test('thousands of distinct names all resolve', () => {
  const lines: string[] = [];
  for (let i = 0; i < 3000; i++) lines.push(`c${i} := ${i}`);
  lines.push('raise "x" if:', '    c0 + c1500 + c2999 > c3000', '');
  assert.deepEqual(describe(lines.join('\n')), ['error gr/unknown-identifier 3002:26-3002:31 Failed to resolve identifier c3000']);
});

test('a line that fails inside a list keeps none of its items in the block', () => {
  const text = 'raise "x" if:\n    (m: Message)\n    f(m, [1, 2 3], 4)\n    m.role == "a"\n';
  const rule = model(text).program.statements[0];
  assert.ok(rule.kind === 'rule');
  assert.deepEqual(rule.body.map((e) => e.kind), ['typed', 'binary']);
  assert.deepEqual(describe(text), ["error gr/syntax 3:16-3:17 Expected ',' or ']' but found '3'"]);
});

test('problem ranges are plain start/end pairs, also where a token is blamed', () => {
  for (const text of [
    'raise "x" if:\n    (m: Message)\n    m.role:\n        m\n',
    'raise "x" if:\n    call is t:ool:x\n',
    'A := 1\nA := 2\nraise "x" if:\n    (m: Message)\n    (m: Message)\n    not in\n',
  ]) {
    const list = problems(text);
    assert.ok(list.length > 0);
    for (const p of list) {
      assert.deepEqual(Object.keys(p.span).sort(), ['end', 'start']);
      for (const r of p.related ?? []) assert.deepEqual(Object.keys(r.span).sort(), ['end', 'start']);
    }
  }
  const quantifier = 'raise "x" if:\n    (m: Message)\n    m.role:\n        m\n';
  const colon = at(quantifier, 'role:', 4);
  assert.deepEqual(guardrailService.validate(model(quantifier), context)[0].span, { start: colon, end: colon + 1 });
});
