/**
 * The compare view's rows: the diff laid out for the webview, which only draws them. Each row holds a step of
 * each side (where there is one) with what it is, and for a changed step each field that differs with its value on
 * both sides and the part that differs. Where a step or a field is in its file is found when it is clicked
 * (./compare.ts, locate): a row carries no ranges, so 100,000 rows cost no reading of where every step is.
 */
import { compareRowHeight, GraphLayout, type CompareField, type CompareRow, type CompareStep, type GraphNodeKind } from '../../../shared/protocol';
import type { Steps } from '../common/steps';
import { shorten } from '../common/text';
import type { DiffRow, TraceDiff } from './diff';
import type { FieldChange } from './fields';
import { fieldSubject, stepHeading } from './labels';
import type { Step, StepCall } from './steps';
import { deepJson } from './values';

export interface ViewOptions {
  /** Characters of a field's value shown (`agentTraces.preview.maxTextLength`). */
  maxTextLength: number;
}

const summaryLength = 120;

/** The rows of the compare view, in the diff's order. */
export function* compareRows(diff: TraceDiff, options: ViewOptions): Steps<CompareRow[]> {
  const rows: CompareRow[] = new Array(diff.rows.length);
  for (let r = 0; r < diff.rows.length; r++) {
    if (r % 500 === 499) yield;
    rows[r] = viewRow(diff.rows[r], options);
  }
  return rows;
}

function viewRow(row: DiffRow, options: ViewOptions): CompareRow {
  const view: CompareRow = { kind: row.kind };
  const height = rowHeight(row);
  if (height !== compareRowHeight) view.height = height;
  if (row.left) view.left = viewStep(row.left, true);
  if (row.right) view.right = viewStep(row.right, row.kind !== 'same');
  if (row.kind === 'changed') {
    view.fields = (row.fields ?? []).map((field) => viewField(row, field, options));
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

/** A step; `described` false for the right step of an unchanged row, which is what its left step is. */
function viewStep(step: Step, described: boolean): CompareStep {
  const view: CompareStep = { index: step.index };
  if (described) {
    const heading = stepHeading(step);
    view.kind = step.kind as GraphNodeKind;
    view.title = heading.title;
    view.summary = shorten(heading.summary, summaryLength);
  }
  const tools = step.kind === 'output' ? (step.answers?.name !== undefined ? [step.answers.name] : []) : step.calls.flatMap((call) => (call.name !== undefined ? [call.name] : []));
  if (tools.length > 0) view.tools = tools;
  if (step.failed) view.failed = true;
  return view;
}

function viewField(row: DiffRow, field: FieldChange, options: ViewOptions): CompareField {
  const view: CompareField = { path: field.path, label: fieldLabel(row, field) };
  if (field.rightPath !== undefined) view.rightPath = field.rightPath;
  const link = row.link && field.path === 'tool_call_id';
  const leftText = link ? linkText(row.link!.left, field.left) : shownValue(field.left, options.maxTextLength);
  const rightText = link ? linkText(row.link!.right, field.right) : shownValue(field.right, options.maxTextLength);
  if (leftText !== undefined) view.left = leftText;
  if (rightText !== undefined) view.right = rightText;
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
  const text = typeof value === 'string' ? value : deepJson(value);
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
