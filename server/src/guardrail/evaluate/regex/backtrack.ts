import type { Anchor, Node, Program } from './compile';
import { CodePointSet } from './codePointSet';
import { category } from './unicode';

/**
 * A backtracking matcher with the semantics of Python's sre, for the patterns JavaScript's engine would match
 * differently (see javascript.ts): captures keep their value from an earlier iteration of a repeat, a repeat stops
 * after an iteration that matched nothing (instead of backtracking into it), possessive repeats are atomic per
 * iteration, a back-reference to a group that did not take part fails, conditionals, case-insensitive
 * back-references. Positions are UTF-16 offsets; it steps by code points.
 */

/** The matcher ran out of stack (a repeat of a complex subpattern over a very long text). */
export class MatcherTooDeep extends Error {}

type Continuation = (pos: number) => boolean;

export interface MatchAttempt {
  /** Offsets of group 0 and each group: [start0, end0, start1, end1, …], -1 where a group did not take part. */
  spans: Int32Array;
  /** The group that closed last on the way to the match (Python's `Match.lastindex`), or -1. */
  lastIndex: number;
}

export class Backtracker {
  private s = '';
  private end = 0;
  /** The spans, then the group that closed last (one slot more, so that saving and restoring the spans keeps it too). */
  private caps: Int32Array;
  private readonly lastSlot: number;
  private readonly bitmaps = new Map<CodePointSet, Uint8Array>();
  /** The characters a match can start with, when it cannot be empty: a search skips every other start. */
  private readonly starts: CodePointSet | null;

  constructor(private readonly program: Program) {
    this.lastSlot = 2 * (program.groups + 1);
    this.caps = new Int32Array(this.lastSlot + 1);
    const first = firstCharacters(program.root);
    this.starts = first.nullable ? null : first.set;
  }

  /**
   * Matches at exactly `pos` in `s[0:end]`. `full`: the match must reach `end`; `mustAdvance`: it must not be empty
   * (Python's rule for a search right after an empty match); `endAt`: it must end there (to replay a match found
   * before, for what only this matcher records).
   */
  matchAt(s: string, end: number, pos: number, full: boolean, mustAdvance: boolean, endAt = -1): MatchAttempt | null {
    this.s = s;
    this.end = end;
    this.caps.fill(-1);
    let matchEnd = -1;
    const accept: Continuation = (p) => {
      if (full && p !== end) return false;
      if (mustAdvance && p === pos) return false;
      if (endAt >= 0 && p !== endAt) return false;
      matchEnd = p;
      return true;
    };
    let found: boolean;
    try {
      found = this.node(this.program.root, pos, accept);
    } catch (e) {
      if (e instanceof RangeError && /call stack/.test(e.message)) throw new MatcherTooDeep();
      throw e;
    }
    if (!found) return null;
    const spans = this.caps.slice(0, this.lastSlot);
    spans[0] = pos;
    spans[1] = matchEnd;
    return { spans, lastIndex: this.caps[this.lastSlot] };
  }

  /** The first match starting at `pos` or later (each start tried in turn, as sre's search does). */
  search(s: string, end: number, pos: number, mustAdvance: boolean): MatchAttempt | null {
    for (let start = pos; start <= end; start = this.step(s, start)) {
      if (this.starts && (start >= end || !this.starts.has(s.codePointAt(start)!))) {
        if (start >= end) break;
        continue;
      }
      const m = this.matchAt(s, end, start, false, mustAdvance && start === pos);
      if (m) return m;
      if (start === end) break;
    }
    return null;
  }

  private step(s: string, pos: number): number {
    const c = s.charCodeAt(pos);
    if (c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length) {
      const d = s.charCodeAt(pos + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return pos + 2;
    }
    return pos + 1;
  }

  /** The position one code point before `pos`. */
  private back(pos: number): number {
    const c = this.s.charCodeAt(pos - 1);
    if (c >= 0xdc00 && c <= 0xdfff && pos >= 2) {
      const d = this.s.charCodeAt(pos - 2);
      if (d >= 0xd800 && d <= 0xdbff) return pos - 2;
    }
    return pos - 1;
  }

  private has(set: CodePointSet, cp: number): boolean {
    if (cp > 0xffff) return set.has(cp);
    let bitmap = this.bitmaps.get(set);
    if (!bitmap) {
      bitmap = new Uint8Array(0x2000);
      const r = set.ranges;
      for (let i = 0; i < r.length && r[i] <= 0xffff; i += 2) {
        for (let c = r[i]; c <= Math.min(r[i + 1], 0xffff); c++) bitmap[c >> 3] |= 1 << (c & 7);
      }
      this.bitmaps.set(set, bitmap);
    }
    return (bitmap[cp >> 3] & (1 << (cp & 7))) !== 0;
  }

  /** After one character of `set` at `pos`: its end, or -1. */
  private char(set: CodePointSet, pos: number): number {
    if (pos >= this.end) return -1;
    const cp = this.s.codePointAt(pos)!;
    if (!this.has(set, cp)) return -1;
    return pos + (cp > 0xffff ? 2 : 1);
  }

  private node(n: Node, pos: number, k: Continuation): boolean {
    switch (n.type) {
      case 'chars': {
        const next = this.char(n.set, pos);
        return next >= 0 && k(next);
      }
      case 'seq': return this.sequence(n.items, 0, pos, k);
      case 'alt':
        for (const branch of n.branches) if (this.node(branch, pos, k)) return true;
        return false;
      case 'group': {
        const i = 2 * n.index;
        return this.node(n.body, pos, (p) => {
          const start = this.caps[i];
          const end = this.caps[i + 1];
          const last = this.caps[this.lastSlot];
          this.caps[i] = pos;
          this.caps[i + 1] = p;
          this.caps[this.lastSlot] = n.index;
          if (k(p)) return true;
          this.caps[i] = start;
          this.caps[i + 1] = end;
          this.caps[this.lastSlot] = last;
          return false;
        });
      }
      case 'repeat':
        if (n.body.type === 'chars') return this.repeatChars(n.kind, n.min, n.max, n.body.set, pos, k);
        if (n.kind === 'greedy') return this.greedy(n.body, n.min, n.max, 0, pos, -1, k);
        if (n.kind === 'lazy') return this.lazy(n.body, n.min, n.max, 0, pos, -1, k);
        return this.possessive(n.body, n.min, n.max, pos, k);
      case 'atomic': {
        const saved = this.caps.slice();
        const end = this.once(n.body, pos);
        if (end < 0) return false;
        if (k(end)) return true;
        this.caps.set(saved);
        return false;
      }
      case 'look': return this.look(n, pos, k);
      case 'anchor': return this.anchor(n.anchor, pos) && k(pos);
      case 'backref': return this.backref(n.group, n.cases, pos, k);
      case 'cond': return this.node(this.caps[2 * n.group + 1] >= 0 ? n.yes : n.no, pos, k);
    }
  }

  private sequence(items: Node[], index: number, pos: number, k: Continuation): boolean {
    // A character matches one way only: a run of them is stepped through without a frame each.
    for (; index < items.length; index++) {
      const item = items[index];
      if (item.type !== 'chars') break;
      pos = this.char(item.set, pos);
      if (pos < 0) return false;
    }
    if (index === items.length) return k(pos);
    return this.node(items[index], pos, (p) => this.sequence(items, index + 1, p, k));
  }

  /** The body matched once, its first way (atomically): its end, or -1 (captures set by it are kept). */
  private once(body: Node, pos: number): number {
    let end = -1;
    this.node(body, pos, (p) => {
      end = p;
      return true;
    });
    return end;
  }

  /** sre's MAX_UNTIL: past the minimum, another iteration only if the last one moved. */
  private greedy(body: Node, min: number, max: number, count: number, pos: number, lastStart: number, k: Continuation): boolean {
    if (count < min) return this.node(body, pos, (p) => this.greedy(body, min, max, count + 1, p, lastStart, k));
    if (count < max && pos !== lastStart) {
      if (this.node(body, pos, (p) => this.greedy(body, min, max, count + 1, p, pos, k))) return true;
    }
    return k(pos);
  }

  /** sre's MIN_UNTIL: the rest first, then one more iteration if the last one moved. */
  private lazy(body: Node, min: number, max: number, count: number, pos: number, lastStart: number, k: Continuation): boolean {
    if (count < min) return this.node(body, pos, (p) => this.lazy(body, min, max, count + 1, p, lastStart, k));
    if (k(pos)) return true;
    if (count >= max || pos === lastStart) return false;
    return this.node(body, pos, (p) => this.lazy(body, min, max, count + 1, p, pos, k));
  }

  /** sre's POSSESSIVE_REPEAT: each iteration matched once, its first way; never backtracked into. */
  private possessive(body: Node, min: number, max: number, pos: number, k: Continuation): boolean {
    const saved = this.caps.slice();
    let count = 0;
    for (; count < min; count++) {
      const end = this.once(body, pos);
      if (end < 0) {
        this.caps.set(saved);
        return false;
      }
      pos = end;
    }
    for (let lastStart = -1; count < max && pos !== lastStart; count++) {
      lastStart = pos;
      const end = this.once(body, pos);
      if (end < 0) break;
      pos = end;
    }
    if (k(pos)) return true;
    this.caps.set(saved);
    return false;
  }

  /** A repeat of one character: matched forward in a loop, then backed off (no recursion per character). */
  private repeatChars(kind: 'greedy' | 'lazy' | 'possessive', min: number, max: number, set: CodePointSet, pos: number, k: Continuation): boolean {
    const ends = [pos];
    let p = pos;
    const limit = kind === 'lazy' ? min : max;
    while (ends.length - 1 < limit) {
      const next = this.char(set, p);
      if (next < 0) break;
      ends.push((p = next));
    }
    if (ends.length - 1 < min) return false;
    if (kind === 'possessive') return k(p);
    if (kind === 'greedy') {
      for (let i = ends.length - 1; i >= min; i--) if (k(ends[i])) return true;
      return false;
    }
    for (let count = min; ; count++) {
      if (k(p)) return true;
      if (count >= max) return false;
      const next = this.char(set, p);
      if (next < 0) return false;
      p = next;
    }
  }

  private look(n: Extract<Node, { type: 'look' }>, pos: number, k: Continuation): boolean {
    let start = pos;
    let possible = true;
    if (n.behind) {
      for (let i = 0; i < n.width; i++) {
        if (start <= 0) {
          possible = false;
          break;
        }
        start = this.back(start);
      }
    }
    const saved = this.caps.slice();
    const matched = possible && this.once(n.body, start) >= 0;
    if (matched === n.negate) {
      this.caps.set(saved);
      return false;
    }
    if (k(pos)) return true;
    this.caps.set(saved);
    return false;
  }

  private anchor(anchor: Anchor, pos: number): boolean {
    const s = this.s;
    switch (anchor) {
      case 'beginning': case 'beginningString': return pos === 0;
      case 'beginningLine': return pos === 0 || s.charCodeAt(pos - 1) === 0x0a;
      case 'end': return pos === this.end || (pos + 1 === this.end && s.charCodeAt(pos) === 0x0a);
      case 'endLine': return pos === this.end || s.charCodeAt(pos) === 0x0a;
      case 'endString': return pos === this.end;
      case 'boundary': case 'nonBoundary': case 'asciiBoundary': case 'asciiNonBoundary': {
        if (this.end === 0) return false;
        const word = category('word', anchor.startsWith('ascii'));
        const before = pos > 0 && this.has(word, s.codePointAt(this.back(pos))!);
        const after = pos < this.end && this.has(word, s.codePointAt(pos)!);
        return anchor === 'boundary' || anchor === 'asciiBoundary' ? before !== after : before === after;
      }
    }
  }

  private backref(group: number, cases: Extract<Node, { type: 'backref' }>['cases'], pos: number, k: Continuation): boolean {
    const start = this.caps[2 * group];
    const end = this.caps[2 * group + 1];
    if (start < 0 || end < 0 || end < start) return false;
    const length = end - start;
    if (pos + length > this.end) return false;
    if (!cases) return this.s.startsWith(this.s.slice(start, end), pos) && k(pos + length);
    let p = pos;
    for (let q = start; q < end;) {
      if (p >= this.end) return false;
      const a = this.s.codePointAt(q)!;
      const b = this.s.codePointAt(p)!;
      if (cases.lower(a) !== cases.lower(b)) return false;
      q += a > 0xffff ? 2 : 1;
      p += b > 0xffff ? 2 : 1;
    }
    return k(p);
  }
}

/** The characters a match of `n` can start with, and whether it can match nothing (then any start is possible). */
function firstCharacters(n: Node): { set: CodePointSet; nullable: boolean } {
  switch (n.type) {
    case 'chars': return { set: n.set, nullable: false };
    case 'seq': {
      let set = CodePointSet.EMPTY;
      for (const item of n.items) {
        const first = firstCharacters(item);
        set = set.union(first.set);
        if (!first.nullable) return { set, nullable: false };
      }
      return { set, nullable: true };
    }
    case 'alt': case 'cond': {
      const branches = n.type === 'alt' ? n.branches : [n.yes, n.no];
      const firsts = branches.map(firstCharacters);
      return { set: firsts.reduce((set, f) => set.union(f.set), CodePointSet.EMPTY), nullable: firsts.some((f) => f.nullable) };
    }
    case 'group': case 'atomic': return firstCharacters(n.body);
    case 'repeat': {
      const first = firstCharacters(n.body);
      return { set: first.set, nullable: first.nullable || n.min === 0 };
    }
    // Zero-width: the first character comes after them (they only narrow it).
    case 'look': case 'anchor': return { set: CodePointSet.EMPTY, nullable: true };
    case 'backref': return { set: CodePointSet.ALL, nullable: true };
  }
}
