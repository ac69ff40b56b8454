import { test } from 'node:test';
import assert from 'node:assert/strict';
import { guardrailService as service } from '../../../server/src/guardrail';
import type { RuleModel } from '../../../server/src/guardrail/model';
import { context, describe, model } from './helpers';

/** Runs every editor feature at the start, the end and a spread of offsets: none may throw. */
function exercise(m: RuleModel): void {
  const offsets = [0, m.text.length, m.text.length - 2];
  for (let k = 1; k < 20; k++) offsets.push(Math.floor((m.text.length * k) / 20));
  for (const offset of offsets) {
    service.hover(m, offset, context);
    service.definition(m, offset);
    service.references(m, offset, true);
    service.highlights(m, offset);
    service.completion(m, offset, context);
    service.prepareRename!(m, offset);
    service.rename!(m, offset, 'renamed');
  }
  service.symbols(m);
  service.folding(m);
}

test('2,500 fields after one name are checked and navigable without exhausting the stack', () => {
  const text = 'x := call' + '.a'.repeat(2_500) + '\n';
  assert.deepEqual(describe(text), ['error gr/unknown-identifier 1:6-1:10 Failed to resolve identifier call']);
  const m = model(text);
  exercise(m);
  assert.deepEqual(service.symbols(m).map((s) => s.name), ['x']);
});

test('types flow through a chain of 2,500 method calls', () => {
  const text = 'raise "r" if:\n    (m: Message)\n    y := m.role' + '.lower()'.repeat(2_500) + '\n    y == "a"\n';
  assert.deepEqual(describe(text), []);
  const m = model(text);
  exercise(m);
  assert.match(service.hover(m, text.lastIndexOf('y =='), context)!.markdown, /\(variable\) y: str/);
});

test('2,500 chained calls and 3,000 chained + are checked in full', () => {
  assert.deepEqual(describe('x := f' + '()'.repeat(2_500) + '\n'), ['error gr/unknown-identifier 1:6-1:7 Failed to resolve identifier f']);
  const sum = 'a := 1\nx := a' + ' + a'.repeat(3_000) + ' + b\n';
  assert.deepEqual(describe(sum), [`error gr/unknown-identifier 2:${6 + 4 * 3_001}-2:${7 + 4 * 3_001} Failed to resolve identifier b`]);
  const m = model(sum);
  exercise(m);
  assert.equal(service.references(m, 0, true).length, 3_002);
  const power = 'a := 2\nx := a' + ' ** a'.repeat(3_000) + '\n';
  assert.deepEqual(describe(power), []);
  exercise(model(power));
  const condition = 'raise "r" if:\n    (m: Message)\n    m.role == "a"' + ' or m.role == "a"'.repeat(2_000) + '\n';
  assert.deepEqual(describe(condition), []);
  exercise(model(condition));
});

test('a ternary chain is read in a loop; past the operator limit it gets one problem', () => {
  const chain = 'x := 1' + ' if True else 1'.repeat(1_000) + '\n';
  assert.deepEqual(describe(chain), []);
  exercise(model(chain));
  const huge = 'x := ' + 'a if b else '.repeat(9_000) + 'c\n';
  assert.deepEqual(describe(huge), [`error gr/syntax 1:${6 + 12 * 5_000 + 2}-1:${6 + 12 * 5_000 + 4} This line has too many operators to check`]);
  exercise(model(huge));
});

test('brackets, lists, objects and unary operators nested past the limit get gr/too-deep and the file stays usable', () => {
  const message = 'Expression nested deeper than 120 levels: the rest of this line is not checked';
  const cases = [
    ['x := ' + '('.repeat(5_000) + 'a' + ')'.repeat(5_000), '('],
    ['x := ' + '['.repeat(5_000) + 'a' + ']'.repeat(5_000), '['],
    ['x := ' + '{"k": '.repeat(5_000) + '1' + '}'.repeat(5_000), '{'],
    ['x := ' + 'f('.repeat(5_000) + ')'.repeat(5_000), '('],
    ['x := ' + '-'.repeat(5_000) + 'a', '-'],
  ];
  for (const [line, opener] of cases) {
    const text = line + '\ny := nope\n';
    const column = text.split(opener, 121).join(opener).length + 1;
    assert.deepEqual(describe(text), [
      `error gr/too-deep 1:${column}-1:${column + 1} ${message}`,
      'error gr/unknown-identifier 2:6-2:10 Failed to resolve identifier nope',
    ]);
    exercise(model(text));
  }
  const nested = 'a := 1\nb := True\nx := ' + '('.repeat(100) + 'a if b else '.repeat(1_000) + 'a.b' + ')'.repeat(100) + '\n';
  assert.deepEqual(describe(nested), []);
  exercise(model(nested));
});

test('types that depend on thousands of declarations in reverse order degrade to unknown instead of overflowing', () => {
  const lines = Array.from({ length: 5_000 }, (_, i) => `x${i} := x${i + 1}.content`);
  lines.push('x5000 := "text"', '');
  const text = lines.join('\n');
  assert.deepEqual(describe(text), []);
  const m = model(text);
  exercise(m);
  assert.match(service.hover(m, 0, context)!.markdown, /\(constant\) x0/);
});
