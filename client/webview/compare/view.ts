/**
 * The compare view: two traces' steps in two aligned columns, as the language server aligned them. Virtualized:
 * only the entries in and near the viewport exist in the DOM. A click on a step (or on a changed field) selects its
 * source in that side's file; unchanged runs are folded; search, filters and F8 work as in the preview.
 */
import type { CompareData, HostToWebview, WebviewToHost } from '../../../shared/protocol';
import { el } from '../dom';
import { handleViewKey } from '../keys';
import { buildLayout, entryAt, firstEntryNear, isFolded, type CompareLayout, type OpenFolds } from './layout';
import { isFiltering, matchRows, noFilter, type CompareFilter } from './filter';
import { buildFold, buildRow } from './rows';
import { CompareToolbar } from './toolbar';
import { afterPaint, VirtualWindow } from '../virtualWindow';

export interface WebviewHost {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

/** What survives the webview being hidden and shown again: the filter and the row at the top. */
interface SavedState {
  view: 'compare';
  filter: CompareFilter;
  topRow?: number;
}

const MAX_ENTRIES_IN_DOM = 150;

export class CompareView {
  private readonly scroller = el('div', 'scroller cmp-scroller');
  private readonly canvas = el('div', 'canvas cmp-canvas');
  private readonly progress = el('div', 'empty cmp-progress');
  private readonly toolbar: CompareToolbar;
  private data: CompareData | undefined;
  private layout: CompareLayout | undefined;
  private matched: Uint8Array | undefined;
  private filter: CompareFilter = { ...noFilter };
  private readonly open: OpenFolds = new Set();
  /** Rows that are changes (added, removed, changed), in order: what F8 visits. */
  private changes: number[] = [];
  private currentRow = -1;
  private readonly window: VirtualWindow;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private restoredTopRow: number | undefined;

  constructor(root: HTMLElement, private readonly host: WebviewHost) {
    this.toolbar = new CompareToolbar({
      onFilter: (change) => this.setFilter(change),
      onCompareIds: (compareIds) => this.post({ type: 'compareOptions', compareIds }),
      onSelectTrace: (side, index) => this.post({ type: 'compareOptions', ...(side === 'left' ? { leftTrace: index } : { rightTrace: index }) }),
      onChange: (direction) => this.gotoChange(direction),
    });
    this.window = new VirtualWindow(this.scroller, this.canvas, MAX_ENTRIES_IN_DOM);
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('aria-label', 'Steps of the two traces');
    this.scroller.appendChild(this.canvas);
    this.progress.hidden = true;
    root.append(this.toolbar.element, this.toolbar.banners, this.toolbar.headers, this.progress, this.scroller);
    this.scroller.addEventListener('scroll', () => {
      this.schedule();
      this.saveStateSoon();
    });
    this.canvas.addEventListener('click', (event) => this.onClick(event));
    window.addEventListener('resize', () => this.schedule());
    window.addEventListener('keydown', (event) => this.onKey(event));
    window.addEventListener('message', (event: MessageEvent) => this.onMessage(event.data));
    const state = host.getState() as Partial<SavedState> | undefined;
    if (state?.view === 'compare') {
      this.filter = { ...noFilter, ...state.filter };
      this.restoredTopRow = state.topRow;
    }
  }

  private post(message: WebviewToHost): void {
    this.host.postMessage(message);
  }

  private onMessage(message: HostToWebview | undefined): void {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'compareJson': {
        if (typeof message.json !== 'string') return;
        const startedAt = performance.now();
        let data: CompareData;
        try {
          data = JSON.parse(message.json) as CompareData;
        } catch (error) {
          this.toolbar.showNotice(`The compare view received broken data: ${String(error)}`);
          return;
        }
        if (data && Array.isArray(data.rows)) this.show(data, startedAt);
        break;
      }
      case 'comparing':
        if (!this.data && typeof message.left === 'string' && typeof message.right === 'string') {
          this.progress.textContent = `Comparing ${message.left} with ${message.right}…`;
          this.progress.hidden = false;
        }
        break;
      case 'notice':
        if (typeof message.text === 'string') this.toolbar.showNotice(message.text);
        break;
    }
  }

  private show(data: CompareData, startedAt: number): void {
    const topRow = this.data ? this.topRow() : this.restoredTopRow;
    this.restoredTopRow = undefined;
    this.data = data;
    this.progress.hidden = true;
    this.open.clear();
    this.changes = [];
    data.rows.forEach((row, r) => {
      if (row.kind !== 'same') this.changes.push(r);
    });
    this.currentRow = -1;
    this.toolbar.update(data, this.filter);
    this.relayout();
    if (topRow !== undefined) this.scrollToRow(topRow, false);
    else this.scroller.scrollTop = 0;
    this.renderWindow(true);
    this.updateCounter();
    afterPaint(() => this.post({
      type: 'rendered',
      nodeCount: data.rows.length,
      domNodeCount: document.getElementsByTagName('*').length,
      version: -1,
      firstPaintMs: Math.round((performance.now() - startedAt) * 10) / 10,
    }));
  }

  private relayout(): void {
    const data = this.data!;
    const filtering = isFiltering(this.filter);
    const match = filtering ? matchRows(data, this.filter) : undefined;
    this.matched = match?.matched;
    this.layout = buildLayout(data, match ? (r) => match.matched[r] === 1 : null, this.open);
    this.canvas.style.height = `${this.layout.totalHeight}px`;
    this.toolbar.setStatus(data, this.layout.entries.length, match?.count);
    this.invalidate();
  }

  private setFilter(change: Partial<CompareFilter>): void {
    this.filter = { ...this.filter, ...change };
    if (!this.data) return;
    const topRow = this.currentRow >= 0 ? this.currentRow : this.topRow();
    this.toolbar.update(this.data, this.filter);
    this.relayout();
    if (topRow !== undefined) this.scrollToRow(topRow, this.currentRow >= 0);
    this.renderWindow(true);
    this.saveStateSoon();
  }

  // ---- scrolling and state ---------------------------------------------------------------------------------------

  /** The data row at the top of the view (or the first row after a fold there). */
  private topRow(): number | undefined {
    const layout = this.layout;
    if (!layout || layout.entries.length === 0) return undefined;
    const entry = layout.entries[entryAt(layout, this.scroller.scrollTop)];
    return isFolded(entry) ? entry.fold : entry.row;
  }

  /** Scrolls a data row into view (opening its fold when it is folded away). */
  private scrollToRow(row: number, middle: boolean): void {
    const layout = this.layout!;
    if (layout.entryOf[row] < 0) {
      const fold = layout.entries.find((entry) => isFolded(entry) && entry.fold <= row && row < entry.to);
      if (!fold || !isFolded(fold)) return;
      this.open.add(fold.fold);
      this.relayout();
    }
    const index = this.layout!.entryOf[row];
    if (index < 0) return;
    const top = this.layout!.tops[index];
    const height = this.scroller.clientHeight;
    if (!middle) this.scroller.scrollTop = Math.max(0, top - 4);
    else if (top < this.scroller.scrollTop || top + this.layout!.heights[index] > this.scroller.scrollTop + height) {
      this.scroller.scrollTop = Math.max(0, top - Math.round(height / 3));
    }
  }

  private saveStateSoon(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      const state: SavedState = { view: 'compare', filter: this.filter, topRow: this.topRow() };
      this.host.setState(state);
    }, 150);
  }

  // ---- drawing ---------------------------------------------------------------------------------------------------

  private schedule(): void {
    this.window.schedule(() => this.renderWindow(false));
  }

  private invalidate(): void {
    this.window.invalidate();
  }

  private renderWindow(force: boolean): void {
    const layout = this.layout;
    const data = this.data;
    if (!layout || !data) return;
    const drawing = { data, query: this.filter.query.trim().toLowerCase(), currentRow: this.currentRow };
    this.window.update(
      force,
      { count: layout.entries.length, tops: layout.tops, heights: layout.heights, firstNear: (y) => firstEntryNear(layout, y) },
      (i) => i,
      (i) => {
        const entry = layout.entries[i];
        const element = isFolded(entry) ? buildFold(entry.fold, entry.to, data) : buildRow(entry.row, drawing);
        if (this.matched && !isFolded(entry) && this.matched[entry.row]) element.classList.add('match');
        return element;
      },
      (element, i) => {
        element.style.top = `${layout.tops[i]}px`;
        element.style.height = `${layout.heights[i]}px`;
      },
    );
  }

  // ---- interaction -----------------------------------------------------------------------------------------------

  private onClick(event: MouseEvent): void {
    const target = event.target as Element;
    const fold = target.closest('.cmp-fold') as HTMLElement | null;
    if (fold?.dataset.fold !== undefined) {
      this.unfold(Number(fold.dataset.fold));
      return;
    }
    const rowElement = target.closest('.cmp-row') as HTMLElement | null;
    const cell = target.closest('.cell') as HTMLElement | null;
    if (!rowElement?.dataset.row || !cell || !this.data) return;
    const r = Number(rowElement.dataset.row);
    const side = cell.dataset.side === 'left' ? 'left' : 'right';
    const step = this.data.rows[r][side];
    this.select(r);
    if (!step) return;
    const field = target.closest('.field') as HTMLElement | null;
    const changed = field?.dataset.field !== undefined ? this.data.rows[r].fields?.[Number(field.dataset.field)] : undefined;
    // A field's path in this side's step (a value only the other side has points at its step).
    const path = changed && (side === 'left' ? changed.left : changed.right) !== undefined ? (side === 'right' ? (changed.rightPath ?? changed.path) : changed.path) : undefined;
    this.post({ type: 'revealStep', side, step: step.index, ...(path !== undefined ? { path } : {}) });
  }

  private unfold(from: number): void {
    const topRow = this.topRow();
    this.open.add(from);
    this.relayout();
    if (topRow !== undefined) this.scrollToRow(topRow, false);
    this.renderWindow(true);
  }

  private select(row: number): void {
    if (this.currentRow === row) return;
    this.canvas.querySelectorAll('.cmp-row.current').forEach((element) => element.classList.remove('current'));
    this.currentRow = row;
    this.canvas.querySelector(`.cmp-row[data-row="${row}"]`)?.classList.add('current');
    this.updateCounter();
  }

  private gotoRow(row: number): void {
    if (!this.data || !this.layout) return;
    if (this.layout.entryOf[row] < 0 && this.matched && !this.matched[row]) {
      this.filter = { ...noFilter };
      this.toolbar.update(this.data, this.filter);
      this.relayout();
    }
    this.select(row);
    this.scrollToRow(row, true);
    this.renderWindow(true);
  }

  private gotoChange(direction: 1 | -1): void {
    const changes = this.changes;
    if (changes.length === 0) return;
    let next: number | undefined;
    if (direction > 0) next = changes.find((r) => r > this.currentRow) ?? changes[0];
    else next = [...changes].reverse().find((r) => r < (this.currentRow < 0 ? Infinity : this.currentRow)) ?? changes[changes.length - 1];
    this.gotoRow(next);
  }

  private updateCounter(): void {
    const position = this.currentRow >= 0 ? this.changes.indexOf(this.currentRow) + 1 : 0;
    this.toolbar.setChanges(position, this.changes.length);
  }

  private moveCurrent(direction: 1 | -1): void {
    const layout = this.layout;
    if (!layout || layout.entries.length === 0) return;
    let index = this.currentRow >= 0 ? layout.entryOf[this.currentRow] : -1;
    index = index < 0 ? entryAt(layout, this.scroller.scrollTop) : index + direction;
    while (index >= 0 && index < layout.entries.length && isFolded(layout.entries[index])) index += direction;
    const entry = layout.entries[Math.min(Math.max(index, 0), layout.entries.length - 1)];
    if (entry && !isFolded(entry)) this.gotoRow(entry.row);
  }

  private onKey(event: KeyboardEvent): void {
    handleViewKey(event, {
      next: (direction) => this.gotoChange(direction),
      focusSearch: () => this.toolbar.focusSearch(),
      move: (direction) => this.moveCurrent(direction),
      reveal: () => {
        if (this.currentRow < 0 || !this.data) return;
        const row = this.data.rows[this.currentRow];
        const side = row.right ? 'right' : 'left';
        this.post({ type: 'revealStep', side, step: row[side]!.index });
      },
    });
  }
}
