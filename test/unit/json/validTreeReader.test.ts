import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { BudgetExceeded } from '../../../server/src/common/budget';
import { runSteps } from '../../../server/src/common/steps';
import { readValidTree, readValidTreeInSteps } from '../../../server/src/json/validTreeReader';
import { buildTree, buildTreeInSteps } from '../../../server/src/json/treeBuilder';
import type { ReadingPlan } from '../../../server/src/json/tree';
import { parseJson, shapeOfChild, type Shape } from '../../../server/src/trace/parser';
import { random } from '../testing';
import { trace, value } from './randomJson';

const words = { unit: 'file', oneValue: 'a trace file holds one JSON value', expectedValueHint: '', commentsWhere: 'in a trace' };
const tracePlan: ReadingPlan<Shape> = {
  childShape(parent, key, isObject) {
    const shape = shapeOfChild(parent, key, isObject);
    return shape === 'other' ? null : shape;
  },
  words,
};
/** Every container recorded (as a JSON Lines line is read). */
const everything: ReadingPlan<'value'> = { childShape: () => 'value', words };
/** No container recorded (as the syntax of a fix's result is checked). */
const nothing: ReadingPlan<'value'> = { childShape: () => null, words };
const plans: ReadingPlan<string>[] = [tracePlan as ReadingPlan<string>, everything, nothing];

/** What the fast reader must give: the tree builder's reading, when that found no error. */
function assertSameAsTreeBuilder(text: string, from: number, end: number, plan: ReadingPlan<string>, label: string): void {
  const fast = readValidTree(text, from, end, plan);
  const tolerant = buildTree(text, from, end, plan);
  if (tolerant.errors.length > 0) assert.equal(fast, undefined, `${label}: accepted text the tree builder finds broken: ${JSON.stringify(text.slice(from, end))}`);
  else assert.deepStrictEqual(fast, tolerant, `${label}: ${JSON.stringify(text.slice(from, end))}`);
}

test('valid text: exactly the tree builder\'s tree, folds and depth, under every plan', () => {
  const next = random(28);
  for (let round = 0; round < 400; round++) {
    const text = round % 2 === 0 ? trace(next) : value(next, 0);
    for (const plan of plans) {
      assert.notEqual(readValidTree(text, 0, text.length, plan), undefined, `refused valid text ${JSON.stringify(text)}`);
      assertSameAsTreeBuilder(text, 0, text.length, plan, `round ${round}`);
    }
  }
});

test('a range of a longer text, and a leading byte order mark, read as the tree builder reads them', () => {
  const next = random(7);
  for (let round = 0; round < 150; round++) {
    const body = trace(next);
    const before = ['', 'xx', '\ufeff', '123', '"'][round % 5];
    const after = ['', '345"]', 'e5', 'ue', '0041"]', ' , ]', '\\'][round % 7];
    const text = `${before}${body}${after}`;
    assertSameAsTreeBuilder(text, before.length, before.length + body.length, tracePlan as ReadingPlan<string>, `round ${round}`);
  }
  for (const scalar of ['12', '-1.5', 'true', 'nul', '"a"', '"a\\"', '1e']) {
    for (const after of ['', '345', 'e5', 'ue', '"', 'x']) {
      const text = `${scalar}${after}`;
      for (const plan of plans) assertSameAsTreeBuilder(text, 0, scalar.length, plan, `${scalar} before ${after}`);
    }
  }
  const bom = '\ufeff[{"role": "user"}]';
  assert.deepStrictEqual(readValidTree(bom, 0, bom.length, tracePlan), buildTree(bom, 0, bom.length, tracePlan));
});

test('broken text: refused wherever the tree builder finds an error, and read alike where it finds none', () => {
  const next = random(99);
  const troubles = ['"', '\\', ',', '}', ']', '{', '[', ':', '\u0001', '\n', '\t', 'x', '\\u12', '\\x', '//', '/*', '01', '-', '1.', 'tru', ' ', '\r'];
  let refused = 0;
  for (let round = 0; round < 1500; round++) {
    const valid = trace(next);
    const at = Math.floor(next() * (valid.length + 1));
    const r = next();
    let text: string;
    if (r < 0.4) text = valid.slice(0, at) + valid.slice(at + 1 + Math.floor(next() * 3));
    else if (r < 0.9) text = valid.slice(0, at) + troubles[Math.floor(next() * troubles.length)] + valid.slice(at);
    else text = valid.slice(0, at);
    for (const plan of plans) assertSameAsTreeBuilder(text, 0, text.length, plan, `round ${round}`);
    if (readValidTree(text, 0, text.length, tracePlan) === undefined) refused++;
    // What the trace reader gives is always the tree builder's reading, errors included.
    assert.deepStrictEqual(parseJson(text), buildTree(text, 0, text.length, tracePlan), `round ${round}: ${JSON.stringify(text)}`);
  }
  assert.ok(refused > 500, `only ${refused} broken texts were refused: the mutations hardly break anything`);
});

test('every escape of a string: refused exactly when broken', () => {
  const cases = ['\\"', '\\\\', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\u0041', '\\uffff', '\\uD800', '\\u12', '\\u12g4', '\\x', '\\a', '\\0',
    '\\\\x', '\\\\\\x', '\\', '\u0000', '\u001f', '\t', '\n', '\r', '\u007f', '\u2028', 'é'];
  for (const inside of cases) {
    for (const pad of ['', 'a'.repeat(70)]) {
      const text = `[{"role": "tool", "content": "${pad}${inside}${pad}", "k${inside}": 1}]`;
      for (const plan of plans) assertSameAsTreeBuilder(text, 0, text.length, plan, JSON.stringify(inside));
      let parses = true;
      try {
        JSON.parse(text);
      } catch {
        parses = false;
      }
      assert.equal(readValidTree(text, 0, text.length, tracePlan) !== undefined, parses, `${JSON.stringify(inside)}: refused unlike JSON.parse`);
    }
  }
});

test('deep nesting: a container not recorded is stepped over without the call stack; deep recorded ones are left to the tree builder', () => {
  const deep = 100_000;
  const text = `[{"role": "tool", "content": ${'['.repeat(deep)}1${']'.repeat(deep)}}, {"role": "user"}]`;
  const fast = readValidTree(text, 0, text.length, tracePlan);
  assert.notEqual(fast, undefined);
  assert.deepStrictEqual(fast, buildTree(text, 0, text.length, tracePlan));
  assert.equal(fast!.depth, deep + 2);
  const recorded = `${'['.repeat(200)}${']'.repeat(200)}`;
  assert.equal(readValidTree(recorded, 0, recorded.length, everything), undefined);
  assert.deepStrictEqual(parseJson(recorded), buildTree(recorded, 0, recorded.length, tracePlan));
});

test('in steps: the same tree, with pauses between events, and a spent budget stops it', () => {
  const events = Array.from({ length: 3000 }, (_, i) => ({ role: i % 2 ? 'tool' : 'assistant', tool_call_id: `c${i}`, content: `line\n"${i}"\t`.repeat(20) }));
  for (const text of [JSON.stringify(events, null, 2), JSON.stringify({ messages: events, other: [1, 2] })]) {
    const steps = readValidTreeInSteps(text, 0, text.length, tracePlan, undefined, 0);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    assert.ok(pauses > 10, `only ${pauses} pauses`);
    assert.deepStrictEqual(step.value, runSteps(buildTreeInSteps(text, 0, text.length, tracePlan, undefined, 1000)));
    const cancelled = { isCancellationRequested: true };
    assert.throws(() => readValidTree(text, 0, text.length, tracePlan, cancelled), (error) => error instanceof BudgetExceeded && error.reason === 'cancelled');
  }
});
