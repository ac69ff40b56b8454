/**
 * Each event's own problems, kept per checked model so that the check of an incrementally read version (see
 * incremental.ts) finds again only those of the events it read again and moves the others by the edit's length.
 */
import type { Problem } from '../common/types';
import type { RereadStep } from './incremental';
import type { TraceModel } from './model';

interface EventChecks {
  /** The unknownKeyHints setting they were found with. */
  hints: boolean;
  /** By event index. */
  events: Problem[][];
}

/** The checks a version's problems can start from: a checked ancestor's, and the rereads since it. */
interface Pending {
  base: EventChecks;
  steps: RereadStep[];
}

export const noProblems: Problem[] = [];

/** Rereads between two checks past which the previous problems are not carried on (each costs a pass over the events). */
const maxCarriedSteps = 64;

const checked = new WeakMap<TraceModel, EventChecks>();
const pending = new WeakMap<TraceModel, Pending>();

export function keepEventProblems(model: TraceModel, hints: boolean, events: Problem[][]): void {
  checked.set(model, { hints, events });
  pending.delete(model);
}

/** Called when `next` was read from `previous` by `step`: its check may start from what was found for `previous`. */
export function carryEventProblems(previous: TraceModel, next: TraceModel, step: RereadStep): void {
  const base = checked.get(previous);
  if (base) {
    pending.set(next, { base, steps: [step] });
    return;
  }
  const before = pending.get(previous);
  if (before && before.steps.length < maxCarriedSteps) pending.set(next, { base: before.base, steps: [...before.steps, step] });
}

/** Per event: its problems carried from an earlier check, moved; undefined for the events that must be checked. */
export function reusedEventProblems(model: TraceModel, hints: boolean): (Problem[] | undefined)[] | undefined {
  const carried = pending.get(model);
  const count = model.events.length;
  if (!carried || carried.base.hints !== hints || carried.base.events.length !== count) return undefined;
  const shifts = new Float64Array(count + 1);
  const edited = new Uint8Array(count);
  for (const step of carried.steps) {
    if (step.edited >= 0) edited[step.edited] = 1;
    shifts[step.firstShifted] += step.delta;
  }
  const out: (Problem[] | undefined)[] = new Array(count);
  let shift = 0;
  for (let i = 0; i < count; i++) {
    shift += shifts[i];
    if (edited[i]) continue;
    const list = carried.base.events[i];
    out[i] = shift === 0 || list.length === 0 ? list : list.map((problem) => moved(problem, shift));
  }
  return out;
}

/** An event's own problems point inside the event only (no related locations). */
function moved(problem: Problem, shift: number): Problem {
  return { ...problem, span: { start: problem.span.start + shift, end: problem.span.end + shift } };
}
