import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSteps } from '../../../server/src/common/steps';
import { AlignmentBudget, alignKeys } from '../../../server/src/diff/align';
import { random } from '../testing';

function align(a: number[], b: number[], limit = Infinity): { pairs: number[]; budget: AlignmentBudget } {
  const budget = new AlignmentBudget(limit);
  const pairs: number[] = [];
  runSteps(alignKeys(a, 0, a.length, b, 0, b.length, budget, pairs));
  return { pairs, budget };
}

/** The length of a longest common subsequence, by dynamic programming. */
function lcsLength(a: number[], b: number[]): number {
  const row = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = a[i - 1] === b[j - 1] ? diagonal + 1 : Math.max(row[j], row[j - 1]);
      diagonal = above;
    }
  }
  return row[b.length];
}

function assertValid(a: number[], b: number[], pairs: number[]): void {
  for (let p = 0; p < pairs.length; p += 2) {
    assert.equal(a[pairs[p]], b[pairs[p + 1]], `pair ${pairs[p]}, ${pairs[p + 1]} matches equal keys`);
    if (p > 0) assert.ok(pairs[p] > pairs[p - 2] && pairs[p + 1] > pairs[p - 1], 'pairs increase on both sides');
  }
}

describe('alignment of key sequences', () => {
  it('matches common ends, unique anchors and what lies between them', () => {
    assert.deepEqual(align([1, 2, 3], [1, 2, 3]).pairs, [0, 0, 1, 1, 2, 2]);
    assert.deepEqual(align([1, 2, 3], [1, 9, 3]).pairs, [0, 0, 2, 2]);
    assert.deepEqual(align([5, 1, 2, 5], [2, 5, 1]).pairs.length / 2, 2);
    assert.deepEqual(align([], [1]).pairs, []);
    assert.deepEqual(align([7, 7, 7], [7, 7]).pairs, [0, 0, 1, 1]);
  });

  it('finds a longest common subsequence where no key is unique (Myers), on random sequences', () => {
    const next = random(11);
    for (let round = 0; round < 400; round++) {
      const sequence = () => Array.from({ length: Math.floor(next() * 60) }, () => Math.floor(next() * 4)).concat([0, 1, 2, 3, 0, 1, 2, 3]);
      const a = sequence();
      const b = sequence();
      const { pairs } = align(a, b);
      assertValid(a, b, pairs);
      assert.equal(pairs.length / 2, lcsLength(a, b), `round ${round}: ${a} / ${b}`);
    }
  });

  it('gives valid pairs with anchors on unique keys, on random sequences', () => {
    const next = random(12);
    for (let round = 0; round < 400; round++) {
      const sequence = () => Array.from({ length: Math.floor(next() * 80) }, () => Math.floor(next() * 40));
      const a = sequence();
      const b = sequence();
      const { pairs } = align(a, b);
      assertValid(a, b, pairs);
      // The common ends are always matched.
      if (a.length > 0 && b.length > 0 && a[0] === b[0]) assert.deepEqual(pairs.slice(0, 2), [0, 0]);
    }
  });

  it('leaves a stretch unaligned and reports it when the work limit runs out', () => {
    const next = random(13);
    const a = Array.from({ length: 3000 }, () => Math.floor(next() * 3));
    const b = Array.from({ length: 3000 }, () => Math.floor(next() * 3));
    const { pairs, budget } = align([9, ...a, 8], [9, ...b, 8], 5000);
    assertValid([9, ...a, 8], [9, ...b, 8], pairs);
    // The common start and end are matched; what lies between them is given up whole.
    assert.equal(budget.skipped.length, 1);
    const [aFrom, aTo, bFrom, bTo] = budget.skipped[0];
    assert.deepEqual([aFrom, aTo, bFrom, bTo], [aFrom, 3001, aFrom, 3001]);
    assert.deepEqual(pairs, [...Array.from({ length: aFrom }, (_, i) => [i, i]).flat(), 3001, 3001]);
  });
});
