/**
 * The DOM of one entry of the compare view: a row with each side's step in its column (an empty column where a
 * step was added or removed), a changed step's fields with the part that differs marked, or a fold of unchanged
 * steps. Every piece of trace content enters through `el(..., text)` / text nodes (see ../dom.ts).
 */
import type { CompareData, CompareField, CompareRow, CompareStep } from '../../../shared/protocol';
import { appendHighlighted, el, formatCount, hiddenCharacters } from '../dom';

const MARKS = { added: '+', removed: '−', changed: '~', same: '' } as const;
/** Characters kept before the part of a value that differs when the value is cut to show it. */
const LEAD = 24;

export interface RowDrawing {
  data: CompareData;
  /** Lower-cased search text, or ''. */
  query: string;
  currentRow: number;
}

export function buildRow(r: number, drawing: RowDrawing): HTMLElement {
  const row = drawing.data.rows[r];
  const element = el('div', `cmp-row row-${row.kind}${row.reordered ? ' reordered' : ''}${r === drawing.currentRow ? ' current' : ''}`);
  element.dataset.row = String(r);
  element.append(
    cell(row, 'left', drawing),
    el('div', 'gutter', MARKS[row.kind]),
    cell(row, 'right', drawing),
  );
  return element;
}

export function buildFold(from: number, to: number, data: CompareData): HTMLElement {
  const element = el('div', 'cmp-fold');
  element.dataset.fold = String(from);
  const first = data.rows[from];
  const last = data.rows[to - 1];
  const count = to - from;
  const button = el('button', 'unfold', `⋯ ${formatCount(count)} unchanged ${count === 1 ? 'step' : 'steps'} (#${first.left?.index}–#${last.left?.index} ↔ #${first.right?.index}–#${last.right?.index}) ⋯`);
  button.type = 'button';
  button.title = 'Show the unchanged steps';
  element.appendChild(button);
  return element;
}

function cell(row: CompareRow, side: 'left' | 'right', drawing: RowDrawing): HTMLElement {
  const step = row[side];
  const element = el('div', `cell ${side}`);
  element.dataset.side = side;
  if (!step) {
    element.classList.add('blank');
    element.title = side === 'left' ? 'Added in the right trace' : 'Removed from the right trace';
    return element;
  }
  // The right step of an unchanged row is described by its left twin.
  const described = step.kind !== undefined ? step : (row.left ?? step);
  element.appendChild(head(step, described, row, side, drawing.query));
  (row.fields ?? []).forEach((field, i) => element.appendChild(fieldLine(field, i, side)));
  if (row.moreFields) element.appendChild(el('div', 'field more', `${formatCount(row.moreFields)} more ${row.moreFields === 1 ? 'field' : 'fields'} changed`));
  return element;
}

function head(step: CompareStep, described: CompareStep, row: CompareRow, side: 'left' | 'right', query: string): HTMLElement {
  const element = el('div', 'cell-head');
  element.dataset.action = 'step';
  element.appendChild(el('span', 'step-index', `#${step.index}`));
  const title = described.title ?? '';
  const summaryText = described.summary ?? '';
  element.appendChild(el('span', `step-title kind-${described.kind ?? 'message'}`, title));
  const summary = el('span', 'step-summary');
  appendHighlighted(summary, summaryText, query);
  element.appendChild(summary);
  if (side === 'right' && row.outcome) {
    element.appendChild(el('span', `badge outcome ${row.outcome === 'fails' ? 'now-fails' : 'now-succeeds'}`, row.outcome === 'fails' ? 'now fails' : 'now succeeds'));
  } else if (step.failed) element.appendChild(el('span', 'badge outcome failed', 'failed'));
  if (row.reordered) {
    const badge = el('span', 'badge reordered', '⇅');
    badge.title = 'In another order among parallel calls: not a change';
    element.appendChild(badge);
  }
  const hidden = hiddenCharacters(title + summaryText);
  if (hidden.length > 0) {
    const badge = el('span', 'badge hidden-chars', '⚠');
    badge.title = `Invisible or direction-changing characters: ${hidden.join(', ')}`;
    element.appendChild(badge);
  }
  element.title = `#${step.index} ${title}: ${summaryText}`.slice(0, 1000);
  return element;
}

function fieldLine(field: CompareField, index: number, side: 'left' | 'right'): HTMLElement {
  const value = side === 'left' ? field.left : field.right;
  const mark = side === 'left' ? field.leftMark : field.rightMark;
  const line = el('div', 'field');
  line.dataset.field = String(index);
  line.appendChild(el('span', 'field-path', field.label));
  const shown = el('span', value === undefined ? 'field-value absent' : 'field-value');
  if (value === undefined) shown.textContent = '(none)';
  else appendMarked(shown, value, mark, side === 'left' ? 'diff-del' : 'diff-ins');
  line.appendChild(shown);
  line.title = value === undefined ? `${field.path}: not in the ${side} trace` : `${field.path}: ${value.slice(0, 1000)}`;
  return line;
}

/** The value on one line, from a little before the part that differs, that part in a <mark>. */
function appendMarked(parent: HTMLElement, value: string, mark: [number, number] | undefined, className: string): void {
  const flat = value.replace(/[\r\n\t]/g, ' ');
  if (!mark) {
    parent.appendChild(document.createTextNode(flat));
    return;
  }
  const [start, end] = mark;
  const from = start > LEAD * 2 ? start - LEAD : 0;
  if (from > 0) parent.appendChild(el('span', 'elided', '…'));
  if (start > from) parent.appendChild(document.createTextNode(flat.slice(from, start)));
  if (end > start) parent.appendChild(el('mark', className, flat.slice(start, end)));
  else parent.appendChild(el('span', `${className} caret`, ''));
  if (end < flat.length) parent.appendChild(document.createTextNode(flat.slice(end)));
}
