/**
 * The diff as `agent-traces diff` prints it: one line per added or removed step and per changed field, a summary,
 * and the JSON form (steps by their numbers, as addresses count events).
 */
import { count } from '../common/text';
import type { DiffRow, TraceDiff } from './diff';
import { callLabel, differingLabels, fieldSubject, namedCallLabel, stepLabel, valueLabel } from './labels';
import type { StepCall } from './steps';
import { shallowValue } from './values';

export interface ChangeRecord {
  kind: 'added' | 'removed' | 'changed';
  left: number | null;
  right: number | null;
  fields?: { path: string; left?: unknown; right?: unknown }[];
  /** Changed fields beyond those listed. */
  moreFields?: number;
  outcome?: 'fails' | 'succeeds';
}

/** The changes in the documented JSON form. */
export function changeRecords(diff: TraceDiff): ChangeRecord[] {
  const records: ChangeRecord[] = [];
  for (const row of diff.rows) {
    if (row.kind === 'same') continue;
    const record: ChangeRecord = { kind: row.kind, left: row.left?.index ?? null, right: row.right?.index ?? null };
    if (row.kind === 'changed') {
      record.fields = (row.fields ?? []).map(({ path, left, right }) => ({ path, ...(left !== undefined ? { left: shallowValue(left) } : {}), ...(right !== undefined ? { right: shallowValue(right) } : {}) }));
      if (row.moreFields) record.moreFields = row.moreFields;
      if (row.outcome) record.outcome = row.outcome;
    }
    records.push(record);
  }
  return records;
}

/** `+ step 5 …`, `- step 7 …`, and for a changed step one `~ step 10 → 11 …` line per field (not yet escaped). */
export function changeLines(diff: TraceDiff): string[] {
  const lines: string[] = [];
  for (const row of diff.rows) {
    if (row.kind === 'added') lines.push(`+ step ${row.right!.index} ${stepLabel(row.right!)}`);
    else if (row.kind === 'removed') lines.push(`- step ${row.left!.index} ${stepLabel(row.left!)}`);
    else if (row.kind === 'changed') lines.push(...changedLines(row));
  }
  return lines;
}

function changedLines(row: DiffRow): string[] {
  const left = row.left!;
  const right = row.right!;
  const prefix = `~ step ${left.index} → ${right.index}`;
  const lines: string[] = [];
  if (row.outcome) lines.push(`${prefix} ${fieldSubject(left, right, { path: '' }).subject}: now ${row.outcome === 'fails' ? 'fails' : 'succeeds'}`);
  for (const field of row.fields ?? []) {
    const { subject, path } = fieldSubject(left, right, field);
    if (row.link && field.path === 'tool_call_id') {
      lines.push(`${prefix} ${subject}: answers ${answered(row.link.left)} → ${answered(row.link.right)}`);
      continue;
    }
    const [before, after] = typeof field.left === 'string' && typeof field.right === 'string'
      ? differingLabels(field.left, field.right)
      : [shownValue(field.left, field.path), shownValue(field.right, field.path)];
    lines.push(`${prefix} ${subject}: ${path} ${before} → ${after}`);
  }
  if (row.moreFields) lines.push(`${prefix} ${fieldSubject(left, right, { path: '' }).subject}: ${count(row.moreFields)} more field${row.moreFields === 1 ? '' : 's'} changed`);
  return lines;
}

function answered(call: StepCall | undefined): string {
  return call ? `step ${call.step.index} ${callLabel(call, 50)}` : 'no call';
}

/** A whole call added to or removed from a step reads as the call, not as its JSON. */
function shownValue(value: unknown, path: string): string {
  if (/^tool_calls\.\d+$/.test(path) && typeof value === 'object' && value !== null) {
    const fn = (value as { function?: { name?: unknown; arguments?: unknown } }).function;
    if (fn && typeof fn.name === 'string') return namedCallLabel(fn.name, fn.arguments, 60);
  }
  return valueLabel(value);
}

/** `12 steps → 14 steps: 2 added, 1 removed, 1 changed (1 call now fails)`, or that they are the same. */
export function summaryLine(diff: TraceDiff): string {
  const { added, removed, changed, reordered, nowFail, nowSucceed } = diff.counts;
  const sizes = `${count(diff.left.length)} step${diff.left.length === 1 ? '' : 's'} → ${count(diff.right.length)} step${diff.right.length === 1 ? '' : 's'}`;
  const notes: string[] = [];
  if (nowFail > 0) notes.push(`${count(nowFail)} call${nowFail === 1 ? '' : 's'} now fail${nowFail === 1 ? 's' : ''}`);
  if (nowSucceed > 0) notes.push(`${count(nowSucceed)} call${nowSucceed === 1 ? '' : 's'} now succeed${nowSucceed === 1 ? 's' : ''}`);
  if (reordered > 0) notes.push(`${count(reordered)} parallel step${reordered === 1 ? '' : 's'} in another order, not a change`);
  const noted = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  if (added + removed + changed === 0) return `${sizes}: the same step for step${noted}`;
  return `${sizes}: ${count(added)} added, ${count(removed)} removed, ${count(changed)} changed${noted}`;
}
