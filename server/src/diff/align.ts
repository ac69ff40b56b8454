/**
 * Sequence alignment of two lists of keys (integers: equal keys are equal items), bounded for big inputs: common
 * ends are matched first, then items that occur exactly once on each side anchor the alignment (the longest run of
 * them in the same order), and the stretches between anchors are aligned with Myers' O(ND) algorithm in linear
 * space. The work is counted: once the budget is spent, a stretch left is not aligned (its items stay unmatched) and
 * the stretch is reported, so a caller can pair it more cheaply and say so.
 */
import type { Steps } from '../common/steps';

/** Work units (key comparisons and table updates) between two points where the alignment may pause. */
const unitsPerStep = 200_000;

export class AlignmentBudget {
  private spent = 0;
  private nextPause = unitsPerStep;
  /** Stretches not aligned because the budget ran out, as [leftStart, leftEnd, rightStart, rightEnd). */
  readonly skipped: [number, number, number, number][] = [];

  constructor(readonly limit: number) {}

  get exhausted(): boolean {
    return this.spent >= this.limit;
  }

  /** Counts work; true when a pause is due. */
  charge(units: number): boolean {
    this.spent += units;
    if (this.spent < this.nextPause) return false;
    this.nextPause = this.spent + unitsPerStep;
    return true;
  }
}

/** Thrown inside Myers' search when the budget runs out: the stretch is given up whole. */
class OutOfBudget {}

/**
 * Pairs (i, j) with a[i] === b[j], increasing in both, as long a common subsequence as the budget allows, appended
 * to `pairs` as i, j, i, j, … . Only positions in [aStart, aEnd) and [bStart, bEnd) are looked at.
 */
export function* alignKeys(
  a: ArrayLike<number>, aStart: number, aEnd: number, b: ArrayLike<number>, bStart: number, bEnd: number,
  budget: AlignmentBudget, pairs: number[],
): Steps<void> {
  // Stretches still to align, in order: the stack holds them reversed so that pairs come out sorted.
  const stack: number[] = [aStart, aEnd, bStart, bEnd];
  while (stack.length > 0) {
    let bHi = stack.pop()!;
    let bLo = stack.pop()!;
    let aHi = stack.pop()!;
    let aLo = stack.pop()!;
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) pairs.push(aLo++, bLo++);
    let suffix = 0;
    while (aLo < aHi - suffix && bLo < bHi - suffix && a[aHi - 1 - suffix] === b[bHi - 1 - suffix]) suffix++;
    const tail: number[] = [];
    for (let k = suffix; k > 0; k--) tail.push(aHi - k, bHi - k);
    aHi -= suffix;
    bHi -= suffix;
    if (aLo < aHi && bLo < bHi) {
      if (budget.exhausted) budget.skipped.push([aLo, aHi, bLo, bHi]);
      else {
        const anchors = uniqueAnchors(a, aLo, aHi, b, bLo, bHi, budget);
        if (anchors.length > 0) {
          // The stretches between anchors go on the stack (last first), each anchor pair after its stretch.
          const parts: number[][] = [];
          let ai = aLo;
          let bi = bLo;
          for (let k = 0; k < anchors.length; k += 2) {
            parts.push([ai, anchors[k], bi, anchors[k + 1]], [anchors[k], anchors[k + 1]]);
            ai = anchors[k] + 1;
            bi = anchors[k + 1] + 1;
          }
          parts.push([ai, aHi, bi, bHi]);
          pushParts(stack, parts, tail);
          if (budget.charge(0)) yield;
          continue;
        }
        const found: number[] = [];
        try {
          yield* myers(a, aLo, aHi, b, bLo, bHi, budget, found);
          for (const value of found) pairs.push(value);
        } catch (error) {
          if (!(error instanceof OutOfBudget)) throw error;
          budget.skipped.push([aLo, aHi, bLo, bHi]);
        }
      }
    }
    for (const value of tail) pairs.push(value);
  }
}

/**
 * Queues stretches ([aLo, aHi, bLo, bHi]) and matched pairs ([i, j]) to be handled in order, then the tail pairs.
 * Pairs are queued as empty-looking stretches that match at once: [i, i + 1, j, j + 1] with equal keys.
 */
function pushParts(stack: number[], parts: number[][], tail: number[]): void {
  if (tail.length > 0) stack.push(tail[0], tail[tail.length - 2] + 1, tail[1], tail[tail.length - 1] + 1);
  for (let k = parts.length - 1; k >= 0; k--) {
    const part = parts[k];
    if (part.length === 2) stack.push(part[0], part[0] + 1, part[1], part[1] + 1);
    else if (part[0] < part[1] || part[2] < part[3]) stack.push(part[0], part[1], part[2], part[3]);
  }
}

/**
 * Keys found exactly once in each stretch, paired, and of those the longest run increasing on both sides (patience
 * sorting): pairs i, j, … sorted. Empty when there are none.
 */
function uniqueAnchors(
  a: ArrayLike<number>, aLo: number, aHi: number, b: ArrayLike<number>, bLo: number, bHi: number, budget: AlignmentBudget,
): number[] {
  budget.charge(aHi - aLo + bHi - bLo);
  // Per key: its position on the left (-2 when it occurs twice or more there), then the same on the right.
  const left = new Map<number, number>();
  for (let i = aLo; i < aHi; i++) left.set(a[i], left.has(a[i]) ? -2 : i);
  const right = new Map<number, number>();
  for (let j = bLo; j < bHi; j++) {
    const key = b[j];
    if (!left.has(key) || left.get(key)! < 0) continue;
    right.set(key, right.has(key) ? -2 : j);
  }
  const candidates: number[] = [];
  for (let i = aLo; i < aHi; i++) {
    const j = right.get(a[i]);
    if (j !== undefined && j >= 0 && left.get(a[i]) === i) candidates.push(i, j);
  }
  if (candidates.length === 0) return [];
  return increasingRun(candidates);
}

/** Of pairs sorted by their first member, the longest subsequence whose second members increase. */
function increasingRun(pairs: number[]): number[] {
  const count = pairs.length / 2;
  // tails[k]: index (in pairs) of the smallest last element of an increasing run of length k + 1.
  const tails: number[] = [];
  const previous = new Int32Array(count);
  for (let p = 0; p < count; p++) {
    const j = pairs[2 * p + 1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[2 * tails[mid] + 1] < j) lo = mid + 1;
      else hi = mid;
    }
    previous[p] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = p;
  }
  const run: number[] = new Array(tails.length * 2);
  for (let p = tails[tails.length - 1], k = tails.length - 1; p >= 0; p = previous[p], k--) {
    run[2 * k] = pairs[2 * p];
    run[2 * k + 1] = pairs[2 * p + 1];
  }
  return run;
}

/**
 * Myers' difference algorithm in linear space: the middle snake of the shortest edit script splits the stretch in
 * two, each aligned the same way. Pairs appended in order. Throws OutOfBudget when the budget runs out.
 */
function* myers(
  a: ArrayLike<number>, aLo: number, aHi: number, b: ArrayLike<number>, bLo: number, bHi: number,
  budget: AlignmentBudget, pairs: number[],
): Steps<void> {
  while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) pairs.push(aLo++, bLo++);
  let suffix = 0;
  while (aLo < aHi - suffix && bLo < bHi - suffix && a[aHi - 1 - suffix] === b[bHi - 1 - suffix]) suffix++;
  const n = aHi - suffix - aLo;
  const m = bHi - suffix - bLo;
  if (n > 0 && m > 0) {
    const split = yield* middleSnake(a, aLo, n, b, bLo, m, budget);
    if (split) {
      yield* myers(a, aLo, aLo + split[0], b, bLo, bLo + split[1], budget, pairs);
      yield* myers(a, aLo + split[0], aLo + n, b, bLo + split[1], bLo + m, budget, pairs);
    }
  }
  for (let k = suffix; k > 0; k--) pairs.push(aHi - k, bHi - k);
}

/**
 * Where the forward and backward searches for the shortest edit script meet: offsets (x, y) into the stretches
 * a[aLo, aLo + n) and b[bLo, bLo + m), which both start and end with a difference. Undefined when they have no item
 * in common.
 */
function* middleSnake(
  a: ArrayLike<number>, aLo: number, n: number, b: ArrayLike<number>, bLo: number, m: number, budget: AlignmentBudget,
): Steps<[number, number] | undefined> {
  const maxD = Math.ceil((n + m) / 2);
  const offset = maxD;
  const size = 2 * maxD + 2;
  // forward[k]: furthest x on diagonal k (x - y = k) going forwards; backward[k]: the same from the ends.
  const forward = new Int32Array(size).fill(-1);
  const backward = new Int32Array(size).fill(-1);
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  const delta = n - m;
  const odd = (delta & 1) !== 0;
  // Diagonals that ran off the edges are not searched again.
  let fStart = 0;
  let fEnd = 0;
  let bStart = 0;
  let bEnd = 0;
  for (let d = 0; d < maxD; d++) {
    if (budget.exhausted) throw new OutOfBudget();
    if (budget.charge(2 * d + 2)) yield;
    for (let k = -d + fStart; k <= d - fEnd; k += 2) {
      const index = offset + k;
      let x = k === -d || (k !== d && forward[index - 1] < forward[index + 1]) ? forward[index + 1] : forward[index - 1] + 1;
      let y = x - k;
      const from = x;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      if (x > from && budget.charge(x - from)) yield;
      forward[index] = x;
      if (x > n) fEnd += 2;
      else if (y > m) fStart += 2;
      else if (odd) {
        const other = offset + delta - k;
        if (other >= 0 && other < size && backward[other] !== -1 && x >= n - backward[other]) return [x, y];
      }
    }
    for (let k = -d + bStart; k <= d - bEnd; k += 2) {
      const index = offset + k;
      let x = k === -d || (k !== d && backward[index - 1] < backward[index + 1]) ? backward[index + 1] : backward[index - 1] + 1;
      let y = x - k;
      const from = x;
      while (x < n && y < m && a[aLo + n - x - 1] === b[bLo + m - y - 1]) {
        x++;
        y++;
      }
      if (x > from && budget.charge(x - from)) yield;
      backward[index] = x;
      if (x > n) bEnd += 2;
      else if (y > m) bStart += 2;
      else if (!odd) {
        const other = offset + delta - k;
        if (other >= 0 && other < size && forward[other] !== -1) {
          const fx = forward[other];
          const fy = offset + fx - other;
          if (fx >= n - x) return [fx, fy];
        }
      }
    }
  }
  return undefined;
}
