import { spend } from '../common/budget';
import { lastStartingAtOrBefore } from '../common/spans';
import type { DocumentInput, TextChange } from '../common/languageService';
import type { Problem } from '../common/types';
import { detached, movedNode } from '../json/relocate';
import type { Line, LinesModel } from './lines';
import { defaultMaxLines, linesModel, parseLine, parseLines, readLines, type LineReader } from './model';
import { changedRange } from './changedRange';

/**
 * The model of an edited version: the lines the edit touched are read again, every other line keeps what its one
 * parse found (its tree, its trace problems), moved to its new place. A line is read on its own, so this gives what
 * parseLines gives for the new text. The edit is the editor's (`edit`, as the server recorded it) or else is found by
 * comparing the two texts from both ends, which costs a small fraction of reading them. A document at its line limit is read again whole.
 */
export function parseLinesAfterEdit(previous: LinesModel, doc: DocumentInput, readLine: LineReader, edit?: TextChange): LinesModel {
  const maxLines = doc.maxLines ?? defaultMaxLines;
  if (previous.omittedLines > 0 || previous.maxLines !== maxLines || previous.lines.length === 0) return parseLines(doc, readLine);
  const oldText = previous.text;
  const text = doc.text;
  // An editor that reloads a file changed on disk (a session being written) replaces the whole text: what changed is
  // found by comparison, so that appended lines are read alone.
  const wholeText = edit !== undefined && edit.start === 0 && edit.oldEnd === oldText.length;
  const change = edit && !wholeText ? edit : changedRange(oldText, text);
  if (!change) return linesModel(doc, previous.lines.map((line) => moved(line, text, 0, 0, readLine)), 0);
  const old = previous.lines;
  // The first line the edit touches: the last starting at or before it.
  const first = Math.max(0, lastStartingAtOrBefore(old, change.start));
  // The first line left whole: its start and the line break before it lie after the edit.
  let after = first + 1;
  while (after < old.length && old[after].start <= change.oldEnd) after++;
  const delta = text.length - oldText.length;
  const stop = after < old.length ? old[after].start + delta : text.length + 1;
  const lines: Line[] = [];
  let steps = 0;
  for (let i = 0; i < first; i++) {
    steps = spend(doc.budget, steps);
    lines.push(moved(old[i], text, 0, 0, readLine));
  }
  // Up to the line limit, counting the lines kept after the edit: a paste of millions of lines is not read.
  const limit = maxLines - (old.length - after);
  const next = readLines(text, old[first].start, stop, first, limit, doc.budget, lines, readLine);
  if (next !== stop) {
    // Over the limit: read again whole, which counts the lines past it instead of reading them.
    if (lines.length >= limit) return parseLines(doc, readLine);
    throw new Error(`JSON Lines re-read stopped at ${next}, not at ${stop}`);
  }
  const numberDelta = lines.length - after;
  for (let i = after; i < old.length; i++) {
    steps = spend(doc.budget, steps);
    lines.push(moved(old[i], text, delta, numberDelta, readLine));
  }
  return linesModel(doc, lines, 0);
}

/**
 * A line as read at its new place (`delta` characters and `numberDelta` lines on) in text. Its tree is rebuilt over
 * the new text even when it did not move, so no line keeps an older version's text alive. A broken line (its tree
 * is the tolerant reader's) is read again; annotations are resolved again when a feature asks (their problems move).
 */
function moved(line: Line, text: string, delta: number, numberDelta: number, readLine: LineReader): Line {
  const number = line.number + numberDelta;
  const start = line.start + delta;
  const end = line.end + delta;
  if (line.kind === 'blank') return { number, start, end, kind: 'blank', errors: [] };
  const root = line.errors.length === 0 && line.root ? movedNode(line.root, text, delta) : undefined;
  if (!root) return parseLine(text, number, start, end, readLine);
  const copy: Line = { number, start, end, kind: line.kind, root, errors: [] };
  if (line.facts !== undefined) copy.facts = line.facts;
  if (line.traceProblems) copy.traceProblems = line.traceProblems.map((problem) => movedProblem(problem, delta));
  if (line.annotationProblems) copy.annotationProblems = line.annotationProblems.map((problem) => movedProblem(problem, delta));
  if (line.calledTools) copy.calledTools = line.calledTools.map((name) => name && detached(name));
  return copy;
}

/** Messages quote the trace (ids, names): copied, so they keep no older text alive. */
function movedProblem(problem: Problem, delta: number): Problem {
  const copy: Problem = { ...problem, span: { start: problem.span.start + delta, end: problem.span.end + delta }, message: detached(problem.message) };
  if (problem.suggestion !== undefined) copy.suggestion = detached(problem.suggestion);
  if (problem.related) {
    copy.related = problem.related.map((info) => ({ span: { start: info.span.start + delta, end: info.span.end + delta }, message: detached(info.message) }));
  }
  return copy;
}
