/**
 * What changed between two aligned steps, field by field: each leaf that differs by its path from the step
 * (`tool_calls.0.function.arguments.seat`, `content`, `call.kwargs.order_id`), the calls of a message paired by
 * what they are rather than by their place in the list.
 */
import type { Step, StepCall } from './steps';
import { sameValue } from './values';

export interface FieldChange {
  /** Dotted path from the step: keys and indexes (of the left step when the field is on both sides). */
  path: string;
  /** The path on the right, when it is another (a call paired with one at another place in the list). */
  rightPath?: string;
  /** The value on each side; absent on a side that does not have the field. */
  left?: unknown;
  right?: unknown;
}

export interface FieldChanges {
  fields: FieldChange[];
  /** Changed fields beyond those listed (see DiffOptions.maxFieldsPerStep). */
  more: number;
}

/** Nesting compared field by field down to this depth; deeper values that differ are one change. */
const maxDepth = 64;

/**
 * The calls of two aligned steps paired: the same call (tool and arguments) first, then the same tool, then by
 * position. Returns the right call of each left call (undefined: none), and whether the pairs cross (the same
 * calls in another order).
 */
export function pairCalls(left: readonly StepCall[], right: readonly StepCall[]): { partners: (StepCall | undefined)[]; crossed: boolean } {
  const partners: (StepCall | undefined)[] = new Array(left.length).fill(undefined);
  const taken = new Uint8Array(right.length);
  const pass = (same: (a: StepCall, b: StepCall) => boolean) => {
    for (let i = 0; i < left.length; i++) {
      if (partners[i]) continue;
      for (let j = 0; j < right.length; j++) {
        if (taken[j] || !same(left[i], right[j])) continue;
        partners[i] = right[j];
        taken[j] = 1;
        break;
      }
    }
  };
  pass((a, b) => a.fingerprint.hash === b.fingerprint.hash && a.fingerprint.check === b.fingerprint.check);
  pass((a, b) => a.name !== undefined && a.name === b.name);
  pass(() => true);
  let crossed = false;
  let last = -1;
  for (const partner of partners) {
    if (!partner) continue;
    if (partner.position < last) crossed = true;
    last = partner.position;
  }
  return { partners, crossed };
}

export function fieldChanges(left: Step, right: Step, partners: readonly (StepCall | undefined)[], maxFields: number): FieldChanges {
  const changes: FieldChanges = { fields: [], more: 0 };
  const add: Add = (path, rightPath, a, b) => {
    if (changes.fields.length >= maxFields) {
      changes.more++;
      return;
    }
    const change: FieldChange = a === absent ? { path: rightPath } : { path };
    if (rightPath !== path && a !== absent && b !== absent) change.rightPath = rightPath;
    if (a !== absent) change.left = a;
    if (b !== absent) change.right = b;
    changes.fields.push(change);
  };
  if (left.calls.length > 0 && right.calls.length > 0 && left.kind !== 'call' && left.kind !== 'entry' && isRecord(left.value) && isRecord(right.value)) {
    const { tool_calls: leftCalls, ...leftRest } = left.value;
    const { tool_calls: rightCalls, ...rightRest } = right.value;
    compare(leftRest, rightRest, '', '', 0, add);
    if (callsAreObjects(leftCalls, left) && callsAreObjects(rightCalls, right)) compareCalls(left.calls, right.calls, partners, add);
    else compare(leftCalls, rightCalls, 'tool_calls', 'tool_calls', 1, add);
  } else compare(left.value, right.value, '', '', 0, add);
  return changes;
}

/** Every item of the list is a call the step read (no number or string among them). */
function callsAreObjects(list: unknown, step: Step): boolean {
  return Array.isArray(list) && list.length === step.calls.length;
}

type Add = (path: string, rightPath: string, a: unknown, b: unknown) => void;

function compareCalls(left: readonly StepCall[], right: readonly StepCall[], partners: readonly (StepCall | undefined)[], add: Add): void {
  const paired = new Set<StepCall>();
  left.forEach((call, i) => {
    const partner = partners[i];
    if (!partner) {
      add(call.path, call.path, call.value, absent);
      return;
    }
    paired.add(partner);
    compare(call.value, partner.value, call.path, partner.path, 2, add);
  });
  for (const call of right) if (!paired.has(call)) add(call.path, call.path, absent, call.value);
}

const absent = Symbol('absent');

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compare(a: unknown, b: unknown, path: string, rightPath: string, depth: number, add: Add): void {
  if (a === b) return;
  const bothArrays = Array.isArray(a) && Array.isArray(b);
  const bothRecords = isRecord(a) && isRecord(b);
  if ((!bothArrays && !bothRecords) || depth >= maxDepth) {
    if (!sameValue(a, b)) add(path, rightPath, a, b);
    return;
  }
  const inner = (key: string) => [path === '' ? key : `${path}.${key}`, rightPath === '' ? key : `${rightPath}.${key}`] as const;
  if (bothArrays) {
    const length = Math.max(a.length, b.length);
    for (let i = 0; i < length; i++) compare(i < a.length ? a[i] : absent, i < b.length ? b[i] : absent, ...inner(String(i)), depth + 1, add);
    return;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  for (const key of Object.keys(left)) compare(left[key], Object.prototype.hasOwnProperty.call(right, key) ? right[key] : absent, ...inner(key), depth + 1, add);
  for (const key of Object.keys(right)) if (!Object.prototype.hasOwnProperty.call(left, key)) add(...inner(key), absent, right[key]);
}
