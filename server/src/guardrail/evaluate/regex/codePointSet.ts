/**
 * Sets of code points as sorted, disjoint, non-adjacent inclusive ranges, flattened (`[a0, b0, a1, b1, …]`): what a
 * character class of a Python pattern matches, once its flags are applied. Both the JavaScript translation and the
 * backtracking matcher read them.
 */
export const MAX_CODE_POINT = 0x10ffff;

export class CodePointSet {
  private constructor(readonly ranges: readonly number[]) {}

  static readonly EMPTY = new CodePointSet([]);
  static readonly ALL = new CodePointSet([0, MAX_CODE_POINT]);

  static of(...codePoints: number[]): CodePointSet {
    return CodePointSet.fromRanges(codePoints.flatMap((c) => [c, c]));
  }

  static range(from: number, to: number): CodePointSet {
    return new CodePointSet([from, to]);
  }

  /** From any list of inclusive ranges (unsorted, overlapping): normalized. */
  static fromRanges(flat: readonly number[]): CodePointSet {
    const pairs: [number, number][] = [];
    for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
    pairs.sort((x, y) => x[0] - y[0]);
    const out: number[] = [];
    for (const [a, b] of pairs) {
      const n = out.length;
      if (n > 0 && a <= out[n - 1] + 1) {
        if (b > out[n - 1]) out[n - 1] = b;
      } else {
        out.push(a, b);
      }
    }
    return new CodePointSet(out);
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  has(cp: number): boolean {
    const r = this.ranges;
    let lo = 0;
    let hi = r.length / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp < r[2 * mid]) hi = mid - 1;
      else if (cp > r[2 * mid + 1]) lo = mid + 1;
      else return true;
    }
    return false;
  }

  union(other: CodePointSet): CodePointSet {
    if (other.isEmpty) return this;
    if (this.isEmpty) return other;
    return CodePointSet.fromRanges([...this.ranges, ...other.ranges]);
  }

  complement(): CodePointSet {
    const out: number[] = [];
    let next = 0;
    const r = this.ranges;
    for (let i = 0; i < r.length; i += 2) {
      if (r[i] > next) out.push(next, r[i] - 1);
      next = r[i + 1] + 1;
    }
    if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
    return new CodePointSet(out);
  }

  intersect(other: CodePointSet): CodePointSet {
    return this.complement().union(other.complement()).complement();
  }

  subtract(other: CodePointSet): CodePointSet {
    return this.intersect(other.complement());
  }

  /** Each code point, for small sets (callers check the size first). */
  *codePoints(): Iterable<number> {
    const r = this.ranges;
    for (let i = 0; i < r.length; i += 2) for (let c = r[i]; c <= r[i + 1]; c++) yield c;
  }

  get size(): number {
    let n = 0;
    for (let i = 0; i < this.ranges.length; i += 2) n += this.ranges[i + 1] - this.ranges[i] + 1;
    return n;
  }

  equals(other: CodePointSet): boolean {
    return this.ranges.length === other.ranges.length && this.ranges.every((v, i) => v === other.ranges[i]);
  }
}

/** Decodes the generated tables' range lists: base-36 "start-length" pairs, starts counted from the previous end. */
export function decodeRanges(encoded: string): CodePointSet {
  const flat: number[] = [];
  let previous = 0;
  for (const part of encoded.split(',')) {
    const dash = part.indexOf('-');
    const start = previous + parseInt(dash < 0 ? part : part.slice(0, dash), 36);
    const end = dash < 0 ? start : start + parseInt(part.slice(dash + 1), 36);
    flat.push(start, end);
    previous = end;
  }
  return CodePointSet.fromRanges(flat);
}

/** Decodes the generated tables' maps: base-36 "start:count:stride:delta" runs, starts counted from the previous start. */
export function decodeMap(encoded: string): Map<number, number> {
  const map = new Map<number, number>();
  let previous = 0;
  for (const part of encoded.split(',')) {
    const [start, count, stride, delta] = part.split(':');
    const first = previous + parseInt(start, 36);
    const d = delta.startsWith('-') ? -parseInt(delta.slice(1), 36) : parseInt(delta, 36);
    for (let i = 0, cp = first; i < parseInt(count, 36); i++, cp += Number(stride)) map.set(cp, cp + d);
    previous = first;
  }
  return map;
}
