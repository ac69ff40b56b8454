/**
 * A step-aligned diff of two traces. Steps are aligned by what they are, never by their place or their ids, in
 * three passes: equal steps first (role, text, tools and arguments, what an output says and which tool it answers),
 * then, between those, steps of the same kind calling the same tools (or answering the same tool), then steps of the
 * same kind; a pair of the later passes is a changed step, reported field by field. Parallel calls (calls-only
 * steps that follow one another, and the outputs that follow one another) are aligned as sets: their order among
 * themselves is no change. Call ids are left out (they are regenerated on every run): an output is compared by the
 * call it answers, through the alignment of the calls.
 */
import { runSteps, type Steps } from '../common/steps';
import { AlignmentBudget, alignKeys } from './align';
import { fieldChanges, pairCalls, type FieldChange } from './fields';
import { readSteps, type Step, type StepCall, type StepFormat } from './steps';
import { combined, Hasher, IgnoreRule, type Fingerprint } from './values';

export interface TraceInput {
  format: StepFormat;
  values: readonly unknown[];
}

export interface DiffOptions {
  /** Keys or dotted paths left out of the comparison (see IgnoreRule). */
  ignore?: readonly string[];
  /** Compare call ids too: a regenerated id is then a change. */
  compareIds?: boolean;
  /** Work the alignment may do (key comparisons) before it pairs what is left by position. */
  maxAlignmentWork?: number;
  /** Fields listed per changed step; a count says how many more changed. */
  maxFieldsPerStep?: number;
}

export const defaultMaxAlignmentWork = 20_000_000;
export const defaultMaxFieldsPerStep = 100;

export type RowKind = 'same' | 'added' | 'removed' | 'changed';

export interface DiffRow {
  kind: RowKind;
  left?: Step;
  right?: Step;
  /** Changed steps: the fields that differ. */
  fields?: FieldChange[];
  moreFields?: number;
  /** An output that answers another call than its counterpart does (through the alignment of the calls). */
  link?: { left?: StepCall; right?: StepCall };
  /** The call now fails (its output, or its logged result, reports a failure) or now succeeds. */
  outcome?: 'fails' | 'succeeds';
  /** Paired steps in another order among parallel calls (or calls of one step in another order): not a change. */
  reordered?: boolean;
}

export interface DiffCounts {
  same: number;
  added: number;
  removed: number;
  changed: number;
  reordered: number;
  nowFail: number;
  nowSucceed: number;
}

export interface TraceDiff {
  left: Step[];
  right: Step[];
  /** Every step of both sides, aligned, in order. */
  rows: DiffRow[];
  counts: DiffCounts;
  /** Stretches of steps (first and last index on each side) the work limit left to be paired by position. */
  approximated: { left: [number, number]; right: [number, number] }[];
}

export function diffTraces(left: TraceInput, right: TraceInput, options: DiffOptions = {}): TraceDiff {
  return runSteps(diffTracesInSteps(left, right, options));
}

/** The diff as steps that yield where it may pause (see common/steps.ts). */
export function* diffTracesInSteps(left: TraceInput, right: TraceInput, options: DiffOptions = {}): Steps<TraceDiff> {
  const read = { ignore: new IgnoreRule(options.ignore), compareIds: options.compareIds === true, hasher: new Hasher() };
  const a = yield* readSteps(left.values, left.format, read);
  const b = yield* readSteps(right.values, right.format, read);
  const [sideA, sideB] = yield* keyedSides(a, b);
  const budget = new AlignmentBudget(options.maxAlignmentWork ?? defaultMaxAlignmentWork);
  const rows: DiffRow[] = [];
  const approximated: TraceDiff['approximated'] = [];
  const pairs: number[] = [];
  yield* alignKeys(sideA.exact, 0, a.length, sideB.exact, 0, b.length, budget, pairs);
  let i = 0;
  let j = 0;
  for (let p = 0; p <= pairs.length; p += 2) {
    const pi = p < pairs.length ? pairs[p] : a.length;
    const pj = p < pairs.length ? pairs[p + 1] : b.length;
    if (i < pi || j < pj) yield* alignGap(sideA, sideB, i, pi, j, pj, budget, rows, approximated);
    if (p < pairs.length) rows.push({ kind: 'same', left: sideA.steps[pi], right: sideB.steps[pj] });
    i = pi + 1;
    j = pj + 1;
  }
  orderParallelRows(rows, sideA.parallel, sideB.parallel);
  const partners = pairAllCalls(rows);
  const maxFields = options.maxFieldsPerStep ?? defaultMaxFieldsPerStep;
  for (let r = 0; r < rows.length; r++) {
    if (r % 500 === 499) yield;
    compareRow(rows[r], partners, maxFields, [sideA.checks, sideB.checks]);
  }
  return { left: a, right: b, rows, counts: countRows(rows), approximated };
}

/** One side's steps in the order they are aligned in, with their keys in that order. */
interface KeyedSide {
  /** Steps in alignment order: file order, except that each run of parallel steps is sorted by what they are. */
  steps: Step[];
  /** Keys of equal steps; of steps of the same kind calling the same tools; of steps of the same kind. */
  exact: Int32Array;
  similar: Int32Array;
  kind: Int32Array;
  /** Per step index: the bits of its fingerprint its exact key leaves out, which confirm an equality. */
  checks: Int32Array;
  /** Per step index: 1 when the step is in a run of parallel steps of two or more. */
  parallel: Uint8Array;
}

/**
 * Interns the short keys of kinds and tools (two texts and a small number) as small integers: equal keys, on
 * either side, get the same number. The texts are looked up as they are, never joined into a new string.
 */
class KeyTable {
  private readonly texts = new Map<string, number>();
  private readonly numbers = new Map<number, Map<number, number>>();

  private text(value: string): number {
    let number = this.texts.get(value);
    if (number === undefined) {
      number = this.texts.size;
      this.texts.set(value, number);
    }
    return number;
  }

  of(first: string, second: string, small: number): number {
    const outer = this.text(first) * 0x100 + small;
    let inner = this.numbers.get(outer);
    if (!inner) this.numbers.set(outer, (inner = new Map()));
    const key = this.text(second);
    let number = inner.get(key);
    if (number === undefined) {
      number = this.count++;
      inner.set(key, number);
    }
    return number;
  }

  private count = 0;
}

/** What both sides' steps are, fingerprinted (yielding every few hundred steps). */
function* fingerprints(steps: Step[], keys: KeyTable): Steps<{ kind: Int32Array; similar: Int32Array; exact: Fingerprint[] }> {
  const n = steps.length;
  const kind = new Int32Array(n);
  const similar = new Int32Array(n);
  const exact: Fingerprint[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (i % 500 === 499) yield;
    const step = steps[i];
    const toolNames = step.kind === 'output' ? answeredName(step) : step.calls.length === 1 ? (step.calls[0].name ?? '?') : step.calls.map((call) => call.name ?? '?').sort().join(',');
    kind[i] = keys.of(step.kind, step.role ?? '', step.calls.length > 0 ? 1 : 0);
    similar[i] = keys.of('', toolNames, kind[i]);
    exact[i] = exactFingerprint(step, similar[i]);
  }
  return { kind, similar, exact };
}

/**
 * Both sides' exact fingerprints as small integers: the rank of each 53-bit hash among all of them (equal hashes,
 * equal ranks), found by sorting rather than with a map of boxed numbers.
 */
function exactKeys(a: Fingerprint[], b: Fingerprint[]): [Int32Array, Int32Array] {
  const sorted = new Float64Array(a.length + b.length);
  a.forEach((f, i) => (sorted[i] = f.hash));
  b.forEach((f, i) => (sorted[a.length + i] = f.hash));
  sorted.sort();
  const rank = (hash: number) => {
    let low = 0;
    let high = sorted.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sorted[mid] < hash) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  return [Int32Array.from(a, (f) => rank(f.hash)), Int32Array.from(b, (f) => rank(f.hash))];
}

function* keyedSides(a: Step[], b: Step[]): Steps<[KeyedSide, KeyedSide]> {
  const keys = new KeyTable();
  const printsA = yield* fingerprints(a, keys);
  const printsB = yield* fingerprints(b, keys);
  const [exactA, exactB] = exactKeys(printsA.exact, printsB.exact);
  return [arrange(a, printsA, exactA), arrange(b, printsB, exactB)];
}

function arrange(steps: Step[], prints: { kind: Int32Array; similar: Int32Array; exact: Fingerprint[] }, exact: Int32Array): KeyedSide {
  const n = steps.length;
  const order = parallelOrder(steps, exact, prints.similar);
  const parallel = new Uint8Array(n);
  for (const [start, end] of order.runs) parallel.fill(1, start, end);
  const inOrder = (source: Int32Array) => {
    const target = new Int32Array(n);
    for (let p = 0; p < n; p++) target[p] = source[order.positions[p]];
    return target;
  };
  const ordered: Step[] = new Array(n);
  for (let p = 0; p < n; p++) ordered[p] = steps[order.positions[p]];
  return {
    steps: ordered, exact: inOrder(exact), similar: inOrder(prints.similar), kind: inOrder(prints.kind),
    checks: Int32Array.from(prints.exact, (f) => f.check), parallel,
  };
}

function answeredName(step: Step): string {
  return step.answers ? (step.answers.name ?? '?') : '';
}

/** What makes two steps equal: their kind and tools, their compared value, with their calls as a set. */
function exactFingerprint(step: Step, similar: number): Fingerprint {
  const shape = { hash: similar, check: 0 };
  if (step.calls.length === 0 || step.kind === 'call' || step.kind === 'entry') return combined([shape, step.fingerprint]);
  const calls = step.calls.map((call) => call.fingerprint).sort((x, y) => x.hash - y.hash || x.check - y.check);
  return combined([shape, step.fingerprint, ...calls]);
}

/**
 * Step indexes in the order they are aligned in: runs of calls-only steps, and runs of outputs, sorted by tool, then
 * (outputs) by the call they answer, then by what they are, so that parallel calls made or answered in another
 * order align with each other.
 */
function parallelOrder(steps: Step[], exact: Int32Array, names: Int32Array): { positions: Int32Array; runs: [number, number][] } {
  const n = steps.length;
  const positions = new Int32Array(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  const runs: [number, number][] = [];
  const answered = (i: number) => steps[i].answers?.fingerprint.hash ?? 0;
  let i = 0;
  while (i < n) {
    const outputs = steps[i].kind === 'output';
    if (!outputs && !steps[i].callsOnly) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && (outputs ? steps[end].kind === 'output' : steps[end].callsOnly)) end++;
    if (end - i > 1) {
      runs.push([i, end]);
      const run = Array.from(positions.subarray(i, end));
      run.sort((x, y) => names[x] - names[y] || answered(x) - answered(y) || exact[x] - exact[y] || x - y);
      positions.set(run, i);
    }
    i = end;
  }
  return { positions, runs };
}

/**
 * The rows for a stretch without equal steps: steps of the same kind and tools paired first, then steps of the same
 * kind; a stretch the work limit leaves is paired by position where kinds agree.
 */
function* alignGap(
  a: KeyedSide, b: KeyedSide, aLo: number, aHi: number, bLo: number, bHi: number, budget: AlignmentBudget,
  rows: DiffRow[], approximated: TraceDiff['approximated'],
): Steps<void> {
  const pairs: number[] = [];
  if (aLo < aHi && bLo < bHi) yield* refine(a, b, 0, aLo, aHi, bLo, bHi, budget, pairs, approximated);
  let i = aLo;
  let j = bLo;
  for (let p = 0; p <= pairs.length; p += 2) {
    const pi = p < pairs.length ? pairs[p] : aHi;
    const pj = p < pairs.length ? pairs[p + 1] : bHi;
    for (; i < pi; i++) rows.push({ kind: 'removed', left: a.steps[i] });
    for (; j < pj; j++) rows.push({ kind: 'added', right: b.steps[j] });
    if (p < pairs.length) rows.push({ kind: 'changed', left: a.steps[pi], right: b.steps[pj] });
    i = pi + 1;
    j = pj + 1;
  }
}

function* refine(
  a: KeyedSide, b: KeyedSide, level: 0 | 1, aLo: number, aHi: number, bLo: number, bHi: number, budget: AlignmentBudget,
  pairs: number[], approximated: TraceDiff['approximated'],
): Steps<void> {
  const found: number[] = [];
  const skippedBefore = budget.skipped.length;
  yield* alignKeys(level === 0 ? a.similar : a.kind, aLo, aHi, level === 0 ? b.similar : b.kind, bLo, bHi, budget, found);
  // A stretch the first pass leaves lies between its pairs: the second pass meets it again and pairs it by position.
  const skipped = budget.skipped.splice(skippedBefore);
  if (level === 1) {
    for (const stretch of skipped) pairByPosition(a, b, stretch, found, approximated);
    for (const value of skipped.length > 0 ? sortedPairs(found) : found) pairs.push(value);
    return;
  }
  let i = aLo;
  let j = bLo;
  for (let p = 0; p <= found.length; p += 2) {
    const pi = p < found.length ? found[p] : aHi;
    const pj = p < found.length ? found[p + 1] : bHi;
    if (i < pi && j < pj) yield* refine(a, b, 1, i, pi, j, pj, budget, pairs, approximated);
    if (p < found.length) pairs.push(pi, pj);
    i = pi + 1;
    j = pj + 1;
  }
}

function sortedPairs(pairs: number[]): number[] {
  const list: [number, number][] = [];
  for (let p = 0; p < pairs.length; p += 2) list.push([pairs[p], pairs[p + 1]]);
  return list.sort((x, y) => x[0] - y[0]).flat();
}

/** The fallback when the work limit is reached: the i-th steps of the stretch on each side are paired when of one kind. */
function pairByPosition(a: KeyedSide, b: KeyedSide, [aLo, aHi, bLo, bHi]: [number, number, number, number], pairs: number[], approximated: TraceDiff['approximated']): void {
  const length = Math.min(aHi - aLo, bHi - bLo);
  for (let t = 0; t < length; t++) if (a.kind[aLo + t] === b.kind[bLo + t]) pairs.push(aLo + t, bLo + t);
  approximated.push({ left: spanOf(a.steps, aLo, aHi), right: spanOf(b.steps, bLo, bHi) });
}

function spanOf(steps: Step[], from: number, to: number): [number, number] {
  let first = Infinity;
  let last = -Infinity;
  for (let p = from; p < to; p++) {
    first = Math.min(first, steps[p].index);
    last = Math.max(last, steps[p].index);
  }
  return [first, last];
}

/**
 * Rows of paired parallel steps go back to the left side's order; a pair whose right step then comes before an
 * earlier row's is marked reordered.
 */
function orderParallelRows(rows: DiffRow[], parallelA: Uint8Array, parallelB: Uint8Array): void {
  const inBlock = (row: DiffRow) => row.left !== undefined && row.right !== undefined && parallelA[row.left.index] === 1 && parallelB[row.right.index] === 1;
  let r = 0;
  while (r < rows.length) {
    if (!inBlock(rows[r])) {
      r++;
      continue;
    }
    let end = r + 1;
    while (end < rows.length && inBlock(rows[end])) end++;
    const block = rows.slice(r, end).sort((x, y) => x.left!.index - y.left!.index);
    let furthest = -1;
    for (const row of block) {
      if (row.right!.index < furthest) row.reordered = true;
      furthest = Math.max(furthest, row.right!.index);
    }
    rows.splice(r, end - r, ...block);
    r = end;
  }
}

/** The calls of every pair of steps paired (see pairCalls): the right call of each left call. */
function pairAllCalls(rows: DiffRow[]): Map<StepCall, StepCall> {
  const partners = new Map<StepCall, StepCall>();
  for (const row of rows) {
    if (!row.left || !row.right || row.left.calls.length === 0 || row.right.calls.length === 0) continue;
    const paired = pairCalls(row.left.calls, row.right.calls);
    row.left.calls.forEach((call, i) => {
      const partner = paired.partners[i];
      if (partner) partners.set(call, partner);
    });
    if (paired.crossed) row.reordered = true;
  }
  return partners;
}

function compareRow(row: DiffRow, partners: Map<StepCall, StepCall>, maxFields: number, checks: [Int32Array, Int32Array]): void {
  const { left, right } = row;
  if (!left || !right) return;
  // Equal keys are equal hashes: the rest of their fingerprints confirms it.
  if (row.kind === 'same' && checks[0][left.index] !== checks[1][right.index]) row.kind = 'changed';
  if (row.kind === 'changed') {
    const changes = fieldChanges(left, right, left.calls.map((call) => partners.get(call)), maxFields);
    if (changes.fields.length > 0) row.fields = changes.fields;
    if (changes.more > 0) row.moreFields = changes.more;
  }
  if (left.kind === 'output' && right.kind === 'output') {
    const answered = left.answers ? partners.get(left.answers) : undefined;
    if ((left.answers !== undefined || right.answers !== undefined) && answered !== right.answers) {
      row.link = { left: left.answers, right: right.answers };
      if (!row.fields?.some((field) => field.path === 'tool_call_id')) {
        const link: FieldChange = { path: 'tool_call_id' };
        if (left.callId !== undefined) link.left = left.callId;
        if (right.callId !== undefined) link.right = right.callId;
        (row.fields ??= []).push(link);
      }
    }
  }
  if (left.failed !== right.failed) row.outcome = right.failed ? 'fails' : 'succeeds';
  row.kind = row.fields || row.moreFields || row.outcome ? 'changed' : 'same';
}

function countRows(rows: DiffRow[]): DiffCounts {
  const counts: DiffCounts = { same: 0, added: 0, removed: 0, changed: 0, reordered: 0, nowFail: 0, nowSucceed: 0 };
  for (const row of rows) {
    counts[row.kind]++;
    if (row.reordered) counts.reordered++;
    if (row.outcome === 'fails') counts.nowFail++;
    else if (row.outcome === 'succeeds') counts.nowSucceed++;
  }
  return counts;
}

/** Whether the two traces are the same step for step. */
export function isSame(diff: TraceDiff): boolean {
  return diff.counts.added === 0 && diff.counts.removed === 0 && diff.counts.changed === 0;
}
