import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardrailService as service } from '../../../server/src/guardrail';
import { context, model } from './helpers';

const FIELDS = ['id', 'type', 'function', 'metadata', 'server'];

function completionAtEnd(text: string) {
  return service.completion(model(text), text.length, context);
}

test('completion at the end of a 100,000-letter name replaces exactly that name (read in one pass)', () => {
  const text = 'x := ' + 'a'.repeat(100_000);
  const entries = completionAtEnd(text);
  assert.ok(entries.some((e) => e.label === 'len'));
  assert.ok(entries.every((e) => e.replace!.start === 5 && e.replace!.end === text.length));
  const digits = 'x := 123' + 'b'.repeat(50_000);
  assert.deepEqual(completionAtEnd(digits)[0].replace, { start: 8, end: digits.length });
});

test('field completion after a long line and a long chain reads the chain backwards to the first name', () => {
  const rule = 'raise "x" if:\n    (c: ToolCall)\n    ';
  const labels = (line: string) => completionAtEnd(rule + line).map((e) => e.label);
  assert.deepEqual(labels('q'.repeat(100_000) + ' or c.'), FIELDS);
  assert.deepEqual(labels('c.' + 'x'.repeat(100_000)), FIELDS);
  assert.deepEqual(labels('c.function.' + 'n'.repeat(50_000)), ['name', 'arguments']);
  assert.deepEqual(labels('1c.function.'), ['name', 'arguments']);
  assert.deepEqual(labels('x..c.function.'), ['name', 'arguments']);
  assert.ok(labels('c.function.1.').includes('len'));
  assert.deepEqual(labels('c.a'.repeat(30_000) + '.'), []);
  const entries = completionAtEnd(rule + 'c.fun');
  assert.deepEqual(entries[0].replace, { start: rule.length + 2, end: rule.length + 5 });
});

test('an import line too long for its pattern still completes names', () => {
  const text = 'from invariant.detectors import ' + 'a'.repeat(10_000);
  assert.ok(completionAtEnd(text).some((e) => e.label === 'len'));
  assert.ok(completionAtEnd('from invariant.detectors import pii, s').some((e) => e.label === 'secrets'));
});

test('the outline of 100,000 rules lists each with its own variables (one scope lookup per rule)', () => {
  const text = Array.from({ length: 100_000 }, (_, i) => `raise "r${i}" if:\n    (m${i}: Message)\n`).join('');
  const outline = service.symbols(model(text), undefined, { ...context.settings, maxRuleOutlineEntries: 100_000 });
  assert.equal(outline.length, 100_000);
  assert.deepEqual([outline[0], outline[99_999]].map((r) => [r.name, r.children!.map((c) => `${c.name}: ${c.detail}`)]), [
    ['r0', ['m0: Message']],
    ['r99999', ['m99999: Message']],
  ]);
});

test('the outline lists the first 10,000 rules and declarations by default, then one entry saying how many more there are', () => {
  const text = 'from m import a, b\n' + Array.from({ length: 10_002 }, (_, i) => `raise "r${i}" if:\n    (m${i}: Message)\n`).join('') + 'p(x: Message) :=\n    x.content\n';
  const outline = service.symbols(model(text));
  assert.equal(outline.length, 10_001);
  assert.deepEqual(outline.slice(0, 3).map((entry) => entry.name), ['a', 'b', 'r0']);
  assert.equal(outline[9_999].name, 'r9997');
  const notice = outline[10_000];
  const firstLeftOut = text.indexOf('raise "r9998"');
  assert.deepEqual(notice, {
    name: '5 more rules and declarations are not listed: the outline lists the first 10000',
    detail: 'setting agentTraces.guardrails.maxOutlineEntries',
    kind: 'metadata',
    span: { start: firstLeftOut, end: text.length - 1 },
    selection: { start: firstLeftOut, end: firstLeftOut },
  });
});

test('the outline cap comes from the settings; an import\'s names that do not all fit are left out together', () => {
  const text = 'raise "one" if:\n    (m: Message)\nfrom m import a, b, c\nraise "two" if:\n    (n: Message)\n';
  const names = (max: number) => service.symbols(model(text), undefined, { ...context.settings, maxRuleOutlineEntries: max }).map((entry) => entry.name);
  assert.deepEqual(names(5), ['one', 'a', 'b', 'c', 'two']);
  assert.deepEqual(names(4), ['one', 'a', 'b', 'c', '1 more rules and declarations are not listed: the outline lists the first 4']);
  assert.deepEqual(names(3), ['one', '4 more rules and declarations are not listed: the outline lists the first 3']);
});
