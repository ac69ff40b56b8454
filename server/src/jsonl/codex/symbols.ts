/**
 * The outline of a Codex rollout: the session first (its id, folder and Codex version, with the totals: calls, time
 * and tokens), then one entry per prompt the user typed (its turn runs to the next prompt) with the calls of the
 * turn nested under it (`shell: npm test`, failed ones marked ✗), compactions as entries of their own. Codex's own
 * context messages and the UI events that repeat the turn are not entries.
 */
import type { Budget } from '../../common/budget';
import type { OutlineItem, Span } from '../../common/types';
import { shorten } from '../../common/text';
import { turnOutline, type OutlineEntry } from '../../calls/outline';
import type { Line, LinesModel } from '../lines';
import { callTitle } from '../../responses/itemText';
import { rolloutOf } from './rollout';
import { absolute, type RolloutCall, type RolloutModel, type RolloutStep } from './types';

const titleLength = 80;

export function rolloutSymbols(model: LinesModel, max: number, budget?: Budget): OutlineItem[] {
  const rollout = rolloutOf(model);
  return turnOutline<RolloutStep, RolloutCall>(rollout, {
    entry,
    leadingEntry: (step) => ({ name: '(calls before the first prompt)', kind: 'message', selection: selectionOf(step) }),
    callTitle: (call) => callTitle(call, titleLength),
    header: header(rollout),
  }, max, budget);
}

/** Whether a record opens an outline entry: a prompt, or a compaction. */
export function startsEntry(step: RolloutStep): boolean {
  return step.role === 'prompt' || step.role === 'compaction';
}

function entry(step: RolloutStep): OutlineEntry | undefined {
  if (step.role === 'compaction') {
    return { name: 'Conversation compacted', detail: step.facts.summary ? shorten(step.facts.summary, 60) : undefined, kind: 'metadata', selection: selectionOf(step) };
  }
  if (step.role !== 'prompt') return undefined;
  const text = step.facts.item?.text || '(empty prompt)';
  const item = step.facts.item!;
  return { name: shorten(text, titleLength), detail: clock(step.time), kind: 'message', selection: absolute(step.line, item.contentSpan) ?? selectionOf(step) };
}

function header(rollout: RolloutModel): (OutlineEntry & { span: Span }) | undefined {
  const meta = rollout.meta;
  const first = meta ?? rollout.steps[0];
  if (!first) return undefined;
  const facts = meta?.facts.meta;
  const name = facts?.id ? `Codex session ${facts.id}` : 'Codex rollout';
  const detail = [facts?.cwd, facts?.cliVersion ? `Codex ${facts.cliVersion}` : undefined].filter(Boolean).join(' · ') || undefined;
  return { name, detail, kind: 'trace', span: { ...first.span }, selection: selectionOf(first) };
}

function selectionOf(step: RolloutStep): Span {
  return absolute(step.line, step.facts.payloadTypeSpan ?? step.facts.typeSpan) ?? { start: step.span.start, end: step.span.start };
}

function clock(time: number | undefined): string | undefined {
  return time === undefined ? undefined : new Date(time).toISOString().slice(11, 19);
}

/** The lines that open an outline entry (for the count of entries left out past the limit). */
export function opensListedEntry(model: LinesModel): (line: Line) => boolean {
  const starts = new Set(rolloutOf(model).steps.filter(startsEntry).map((step) => step.line));
  return (line) => starts.has(line);
}
