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
import { combinedHash, IgnoreRule, sameValue, valueHash } from './values';

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
  const read = { ignore: new IgnoreRule(options.ignore), compareIds: options.compareIds === true };
  const a = yield* readSteps(left.values, left.format, read);
  const b = yield* readSteps(right.values, right.format, read);
  const keys = new KeyTable();
  const sideA = yield* keyed(a, keys);
  const sideB = yield* keyed(b, keys);
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
    compareRow(rows[r], partners, maxFields);
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
  /** Per step index: 1 when the step is in a run of parallel steps of two or more. */
  parallel: Uint8Array;
}

/** Interns keys (texts, hashes) as small integers: equal keys, on either side, get the same number. */
class KeyTable {
  private readonly numbers = new Map<string | number, number>();

  of(text: string | number): number {
    let number = this.numbers.get(text);
    if (number === undefined) {
      number = this.numbers.size;
      this.numbers.set(text, number);
    }
    return number;
  }
}

function* keyed(steps: Step[], keys: KeyTable): Steps<KeyedSide> {
  const n = steps.length;
  const exact = new Int32Array(n);
  const similar = new Int32Array(n);
  const kind = new Int32Array(n);
  const names = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    if (i % 500 === 499) yield;
    const step = steps[i];
    const toolNames = step.kind === 'output' ? answeredName(step) : step.calls.map((call) => call.name ?? '?').sort().join(',');
    const shape = `${step.kind}|${step.role ?? ''}|${step.calls.length > 0 ? 'calls' : ''}`;
    kind[i] = keys.of(shape);
    similar[i] = keys.of(`${shape}|${toolNames}`);
    names[i] = similar[i];
    exact[i] = keys.of(combinedHash(similar[i], exactHash(step)));
  }
  const order = parallelOrder(steps, exact, names);
  const parallel = new Uint8Array(n);
  for (const [start, end] of order.runs) parallel.fill(1, start, end);
  const ordered: Step[] = new Array(n);
  const inOrder = (source: Int32Array) => {
    const target = new Int32Array(n);
    for (let p = 0; p < n; p++) target[p] = source[order.positions[p]];
    return target;
  };
  for (let p = 0; p < n; p++) ordered[p] = steps[order.positions[p]];
  return { steps: ordered, exact: inOrder(exact), similar: inOrder(similar), kind: inOrder(kind), parallel };
}

function answeredName(step: Step): string {
  return step.answers ? (step.answers.name ?? '?') : '';
}

/** What makes two steps equal: their compared value, with their calls as a set. */
function exactHash(step: Step): number {
  const value = step.value;
  if (step.calls.length === 0 || step.kind === 'call' || step.kind === 'entry' || typeof value !== 'object' || value === null) return valueHash(value);
  const { tool_calls: _calls, ...rest } = value as Record<string, unknown>;
  return combinedHash(valueHash(rest), ...step.calls.map((call) => call.key).sort((x, y) => x - y));
}

/**
 * Step indexes in the order they are aligned in: runs of calls-only steps, and runs of outputs, sorted by tool (and
 * then by what they are), so that parallel calls made or answered in another order align with each other.
 */
function parallelOrder(steps: Step[], exact: Int32Array, names: Int32Array): { positions: Int32Array; runs: [number, number][] } {
  const n = steps.length;
  const positions = new Int32Array(n);
  for (let i = 0; i < n; i++) positions[i] = i;
  const runs: [number, number][] = [];
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
      run.sort((x, y) => names[x] - names[y] || exact[x] - exact[y] || x - y);
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

function compareRow(row: DiffRow, partners: Map<StepCall, StepCall>, maxFields: number): void {
  const { left, right } = row;
  if (!left || !right) return;
  // Equal keys are equal hashes: the values themselves confirm it.
  if (row.kind === 'same' && !sameSteps(left, right)) row.kind = 'changed';
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

function sameSteps(left: Step, right: Step): boolean {
  if (left.calls.length === 0 || left.kind === 'call' || left.kind === 'entry') return sameValue(left.value, right.value);
  const { tool_calls: _left, ...leftRest } = left.value as Record<string, unknown>;
  const { tool_calls: _right, ...rightRest } = right.value as Record<string, unknown>;
  if (!sameValue(leftRest, rightRest) || left.calls.length !== right.calls.length) return false;
  const unmatched = [...right.calls];
  for (const call of left.calls) {
    const k = unmatched.findIndex((other) => other.key === call.key && sameValue(other.value, call.value));
    if (k < 0) return false;
    unmatched.splice(k, 1);
  }
  return true;
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
