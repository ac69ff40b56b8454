/**
 * The compare view's rows: the diff laid out for the webview, which only draws them. Each row holds a step of
 * each side (where there is one) with what it is, where it is in its file, and for a changed step each field that
 * differs with its value on both sides, the part that differs, and where the field is in each file.
 */
import { GraphLayout, type CompactRange, type CompareField, type CompareRow, type CompareStep, type GraphNodeKind, type LineRange } from '../../../shared/protocol';
import type { Steps } from '../common/steps';
import { shorten } from '../common/text';
import type { Span } from '../common/types';
import type { DiffRow, TraceDiff } from './diff';
import type { FieldChange } from './fields';
import { fieldSubject, stepHeading } from './labels';
import type { TraceSource } from './sources';
import type { Step, StepCall } from './steps';

export interface ViewSide {
  source: TraceSource;
  toRange(span: Span): LineRange;
}

export interface ViewOptions {
  /** Characters of a field's value shown (`agentTraces.preview.maxTextLength`). */
  maxTextLength: number;
}

const summaryLength = 160;

/** The rows of the compare view, in the diff's order. */
export function* compareRows(diff: TraceDiff, left: ViewSide, right: ViewSide, options: ViewOptions): Steps<CompareRow[]> {
  const rows: CompareRow[] = new Array(diff.rows.length);
  for (let r = 0; r < diff.rows.length; r++) {
    if (r % 500 === 499) yield;
    rows[r] = viewRow(diff.rows[r], left, right, options);
  }
  return rows;
}

function viewRow(row: DiffRow, left: ViewSide, right: ViewSide, options: ViewOptions): CompareRow {
  const view: CompareRow = { kind: row.kind, height: rowHeight(row) };
  if (row.left) view.left = viewStep(row.left, left, true);
  if (row.right) view.right = viewStep(row.right, right, row.kind !== 'same');
  if (row.kind === 'changed') {
    view.fields = (row.fields ?? []).map((field) => viewField(row, field, left, right, options));
    if (row.moreFields) view.moreFields = row.moreFields;
    if (row.outcome) view.outcome = row.outcome;
  }
  if (row.reordered) view.reordered = true;
  return view;
}

/** A header line, and one line per field (and for the fields not listed) of a changed step. */
function rowHeight(row: DiffRow): number {
  const lines = row.kind === 'changed' ? (row.fields?.length ?? 0) + (row.moreFields ? 1 : 0) : 0;
  return GraphLayout.headerHeight + lines * GraphLayout.lineHeight + 6;
}

function viewStep(step: Step, side: ViewSide, described: boolean): CompareStep {
  const spans = side.source.stepSpans(step.index);
  const view: CompareStep = {
    index: step.index,
    kind: step.kind as GraphNodeKind,
    title: '',
    summary: '',
    range: compact(side.toRange(spans.range)),
    selection: compact(side.toRange(spans.selection)),
  };
  if (described) {
    const heading = stepHeading(step);
    view.title = heading.title;
    view.summary = shorten(heading.summary, summaryLength);
  }
  const tools = step.kind === 'output' ? (step.answers?.name !== undefined ? [step.answers.name] : []) : step.calls.flatMap((call) => (call.name !== undefined ? [call.name] : []));
  if (tools.length > 0) view.tools = tools;
  if (step.failed) view.failed = true;
  return view;
}

function viewField(row: DiffRow, field: FieldChange, left: ViewSide, right: ViewSide, options: ViewOptions): CompareField {
  const view: CompareField = { path: field.path, label: fieldLabel(row, field) };
  const link = row.link && field.path === 'tool_call_id';
  const leftText = link ? linkText(row.link!.left, field.left) : shownValue(field.left, options.maxTextLength);
  const rightText = link ? linkText(row.link!.right, field.right) : shownValue(field.right, options.maxTextLength);
  if (leftText !== undefined) {
    view.left = leftText;
    view.leftRange = compact(left.toRange(left.source.locate(row.left!.index, field.path)));
  }
  if (rightText !== undefined) {
    view.right = rightText;
    view.rightRange = compact(right.toRange(right.source.locate(row.right!.index, field.rightPath ?? field.path)));
  }
  if (typeof field.left === 'string' && typeof field.right === 'string' && leftText !== undefined && rightText !== undefined && !link) {
    const [leftMark, rightMark] = differingParts(leftText, rightText);
    view.leftMark = leftMark;
    view.rightMark = rightMark;
  }
  return view;
}

/** The field's path from what the step's head names: `arguments.seat` in a step making one call. */
function fieldLabel(row: DiffRow, field: FieldChange): string {
  const { subject, path } = fieldSubject(row.left!, row.right!, field);
  const calls = Math.max(row.left!.calls.length, row.right!.calls.length);
  return calls > 1 && /^tool_calls\./.test(field.path) && subject !== (row.left!.role ?? '') ? `${subject} · ${path}` : path;
}

/** What an output's link reads as: the call it answers (the id alone says nothing once ids are regenerated). */
function linkText(call: StepCall | undefined, id: unknown): string | undefined {
  if (call) return `answers #${call.step.index} ${call.name ?? '?'}${typeof id === 'string' ? ` (${id})` : ''}`;
  return id === undefined ? 'answers no call' : `answers no call (${String(id)})`;
}

/** A string as it is (its line breaks kept); anything else as JSON; cut at the limit. Undefined for an absent side. */
function shownValue(value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The stretch of each string between their common start and their common end, widened to whole words: `12A` and
 * `14C` differ as words, not from their second character.
 */
export function differingParts(left: string, right: string): [[number, number], [number, number]] {
  let prefix = 0;
  const shorter = Math.min(left.length, right.length);
  while (prefix < shorter && left.charCodeAt(prefix) === right.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && left.charCodeAt(left.length - 1 - suffix) === right.charCodeAt(right.length - 1 - suffix)) suffix++;
  while (prefix > 0 && isWordCharacter(left.charCodeAt(prefix - 1)) && (isWordCharacter(left.charCodeAt(prefix)) || isWordCharacter(right.charCodeAt(prefix)))) prefix--;
  while (suffix > 0 && isWordCharacter(left.charCodeAt(left.length - suffix)) && (isWordCharacter(left.charCodeAt(left.length - suffix - 1)) || isWordCharacter(right.charCodeAt(right.length - suffix - 1)))) suffix--;
  return [[prefix, left.length - suffix], [prefix, right.length - suffix]];
}

function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code > 127;
}

function compact(range: LineRange): CompactRange {
  return [range.start.line, range.start.character, range.end.line, range.end.character];
}
