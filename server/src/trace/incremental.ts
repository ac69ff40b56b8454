/**
 * The model of an edited trace built from the model of the version before it: only the edited event is read again
 * (an edit between events reads nothing), everything after the edit is moved by the edit's length, and the other
 * events and calls are kept with their links (found again when the edited event's kind or ids changed, unless it is
 * no output and makes no call before and after). It answers only when the result is provably the tree a full read
 * of the new text gives; otherwise the caller reads it all.
 */
import type { TextChange } from '../common/languageService';
import { shiftValue } from '../json/shift';
import { relinkedTrace, type JsonValue, type SyntaxProblem, type TraceModel } from './model';
import { parseEventJson, type ParsedJson } from './parser';
import type { TextSource } from '../common/textSource';
import { firstEndingAtOrAfter } from '../common/spans';

/**
 * What an incremental read changed, for the checks that can reuse the previous version's per-event problems:
 * events from `firstShifted` on moved by `delta`; the event at `edited` (-1: none) was read again.
 */
export interface RereadStep {
  edited: number;
  firstShifted: number;
  delta: number;
}

/**
 * The model of `text`, the previous model's text changed by `change`, built by re-reading only what the edit
 * touched; undefined when the edit may change the structure around it (the caller then reads the whole text).
 * The previous model's tree is moved into the new model: the previous model must not be used afterwards.
 */
export function reread(previous: TraceModel, text: TextSource, change: TextChange): { model: TraceModel; step: RereadStep } | undefined {
  const before = previous.text;
  const events = previous.eventsValue;
  const root = previous.root;
  const delta = change.newEnd - change.oldEnd;
  if (!events?.items || !root) return undefined;
  // Syntax errors elsewhere are kept, moved: the reader's state where the edited event starts depends only on the
  // text before it, and an event read alone without an error leaves it in the state it found it in. A line break
  // typed with errors around may change folds the reader counts differently (inside comments): read it all.
  const broken = previous.syntaxErrors.length > 0;
  if (broken && (events.unclosed || root.unclosed || hasLineBreak(before, change.start, change.oldEnd) || hasLineBreak(text, change.start, change.newEnd))) {
    return undefined;
  }
  if (previous.start !== 0 || previous.end !== before.length || before.length + delta !== text.length) return undefined;
  const { start: from, oldEnd: to } = change;
  // The brackets of the events array are never part of the edit.
  if (from <= events.start || to >= events.end) return undefined;
  const items = events.items;
  const k = firstEndingAtOrAfter(items, from + 1);
  const enclosing = root === events ? [events] : [root, events];

  let regionStart: number;
  let regionEnd: number;
  let replacement: JsonValue | undefined;
  let regionFolds: number[] = [];
  let depth = previous.depth;
  if (k < items.length && items[k].start < from && to < items[k].end) {
    // Inside one event, its first and last characters untouched: read that event again, alone.
    regionStart = items[k].start;
    regionEnd = items[k].end;
    const reread = readEvent(text, regionStart, regionEnd + delta);
    const value = reread.root;
    if (reread.errors.length > 0 || !value || value.start !== regionStart || value.end !== regionEnd + delta) return undefined;
    const newDepth = reread.depth === 0 ? 0 : reread.depth + enclosing.length;
    if (!broken && newDepth >= previous.depth) {
      // As deep as the deepest before, or deeper: the event read before the edit can change nothing (in a text
      // without errors it reads alone without one too).
      depth = newDepth;
    } else {
      const old = readEvent(before, regionStart, regionEnd);
      if (old.errors.length > 0) return undefined;
      const oldDepth = old.depth === 0 ? 0 : old.depth + enclosing.length;
      // The deepest nesting elsewhere is not known: an edit that makes the deepest event shallower reads it all.
      if (oldDepth < previous.depth) depth = Math.max(previous.depth, newDepth);
      else if (newDepth >= oldDepth) depth = newDepth;
      else return undefined;
    }
    replacement = value;
    regionFolds = reread.folds;
  } else {
    // Between two events (or before the first, after the last): only blanks and the one comma may be there after it.
    if (k < items.length && (items[k].start < from || to > items[k].start)) return undefined;
    const gapStart = k > 0 ? items[k - 1].end : events.start + 1;
    const gapEnd = k < items.length ? items[k].start : events.end - 1;
    const commas = k > 0 && k < items.length ? 1 : 0;
    if (!onlyBlanksAndCommas(text, gapStart, gapEnd + delta, commas)) return undefined;
    // A gap that was broken (a comma missing or doubled) is read in full when mended.
    if (broken && !onlyBlanksAndCommas(before, gapStart, gapEnd, commas)) return undefined;
    regionStart = from;
    regionEnd = to;
  }

  // No error may lie inside what is read again, nor touch it: a value cut short by an error (a string running to the
  // end of its line, an object closed by a mismatched bracket) ends where the text after it says. An error on the
  // edited event's first character (a comma missing before it) belongs to the text before.
  if (broken && previous.syntaxErrors.some((e) => e.start <= regionEnd && e.end >= regionStart && !(replacement && e.start === regionStart && e.end === regionStart + 1))) {
    return undefined;
  }

  // A multi-line container that becomes one line (or the reverse) adds or removes a fold: read it all.
  if (hasLineBreak(before, from, to) || hasLineBreak(text, from, change.newEnd)) {
    for (const container of enclosing) {
      const folded = hasFoldAt(previous.folds, container.start);
      if (folded !== hasLineBreak(text, container.start, container.end + delta)) return undefined;
    }
  }

  // Nothing can fail from here on: the previous tree is patched in place.
  const firstShifted = replacement ? k + 1 : k;
  for (let i = firstShifted; i < items.length; i++) shiftValue(items[i], delta);
  if (replacement) items[k] = replacement;
  for (const container of enclosing) container.end += delta;
  if (root !== events) {
    for (const f of root.fields ?? []) {
      if (f.keyStart < regionEnd) continue;
      f.keyStart += delta;
      f.keyEnd += delta;
      if (f.value) shiftValue(f.value, delta);
    }
  }
  const folds = patchedFolds(previous.folds, regionStart, regionEnd, regionFolds, delta);
  const edited = replacement ? k : -1;
  const errors = broken ? movedErrors(previous.syntaxErrors, regionEnd, delta) : previous.syntaxErrors;
  const model = relinkedTrace(previous, text, { root, errors, folds, depth }, edited);
  return { model, step: { edited, firstShifted, delta } };
}

/**
 * The event in source[from, to) read alone, with the source's offsets. Chunks are read through a slice of the event
 * (joining them all would copy the whole document).
 */
function readEvent(source: TextSource, from: number, to: number): ParsedJson {
  if (typeof source === 'string') return parseEventJson(source, from, to);
  const read = parseEventJson(source.slice(from, to), 0, to - from);
  if (read.root) shiftValue(read.root, from);
  for (let i = 0; i < read.folds.length; i++) read.folds[i] += from;
  for (const error of read.errors) {
    error.start += from;
    error.end += from;
  }
  return read;
}

/** Whether text[from, to) holds only the blanks JSON allows and exactly `commas` commas. */
function onlyBlanksAndCommas(text: TextSource, from: number, to: number, commas: number): boolean {
  let seen = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) seen++;
    else if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return false;
  }
  return seen === commas;
}

/** A line break as the reader counts lines (a \n, or a \r); stops at the first (indexOf would search past `to`). */
function hasLineBreak(text: TextSource, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
  }
  return false;
}

/** Whether a fold starts at `start`; asked of the containers around all events, which close last: searched from the end. */
function hasFoldAt(folds: number[], start: number): boolean {
  for (let i = folds.length - 2; i >= 0; i -= 2) if (folds[i] === start) return true;
  return false;
}

/**
 * The fold pairs of the new version, made from the previous ones in place. The reader records a container's fold
 * when it closes, so in an error-free document the pairs come in order of their ends: those ending before the
 * region, the region's own (replaced by `regionFolds`), then those ending after it (moved; the ones around the
 * region keep their start).
 */
function patchedFolds(folds: number[], regionStart: number, regionEnd: number, regionFolds: number[], delta: number): number[] {
  const first = firstFoldEndingAfter(folds, regionStart);
  const after = firstFoldEndingAfter(folds, regionEnd);
  if (after - first === regionFolds.length) for (let i = 0; i < regionFolds.length; i++) folds[first + i] = regionFolds[i];
  else if (regionFolds.length < 10_000) folds.splice(first, after - first, ...regionFolds);
  else folds = folds.slice(0, first).concat(regionFolds, folds.slice(after));
  for (let i = first + regionFolds.length; i < folds.length; i += 2) {
    if (folds[i] >= regionEnd) folds[i] += delta;
    folds[i + 1] += delta;
  }
  return folds;
}

/** The index of the first pair whose end is after `offset` (the pairs are in order of their ends). */
function firstFoldEndingAfter(folds: number[], offset: number): number {
  let lo = 0;
  let hi = folds.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (folds[2 * mid + 1] > offset) hi = mid;
    else lo = mid + 1;
  }
  return 2 * lo;
}

/**
 * The syntax errors of the new version: none lay inside the edited event (it reads alone without one, before and
 * after the edit); those after it move. One at the event's first character (a missing comma before it) stays.
 */
function movedErrors(errors: SyntaxProblem[], regionEnd: number, delta: number): SyntaxProblem[] {
  return errors.map((e) => (e.start >= regionEnd ? { ...e, start: e.start + delta, end: e.end + delta } : e));
}
