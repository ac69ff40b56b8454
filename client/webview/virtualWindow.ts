/**
 * The rows of a long list that exist in the DOM: those in and near the viewport, each built once while it stays on
 * screen. The preview's graph and the compare view both draw this way, so 100,000 rows cost a few hundred elements.
 */

export interface RowPositions {
  count: number;
  tops: ArrayLike<number>;
  heights: ArrayLike<number>;
  /** The first row that may reach `y`. */
  firstNear(y: number): number;
}

export class VirtualWindow {
  private readonly rendered = new Map<number, HTMLElement>();
  private top = 0;
  private bottom = -1;
  private scheduled = false;

  constructor(private readonly scroller: HTMLElement, private readonly canvas: HTMLElement, private readonly maxRows: number) {}

  /** Draws at the next frame (after a scroll or a resize), once however often it is asked for. */
  schedule(draw: () => void): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      draw();
    });
  }

  /** Drops every row drawn (the data or the layout changed). */
  invalidate(): void {
    for (const element of this.rendered.values()) element.remove();
    this.rendered.clear();
    this.bottom = -1;
  }

  /** The element drawn for a key, if it is on screen. */
  element(key: number): HTMLElement | undefined {
    return this.rendered.get(key);
  }

  /**
   * Keeps exactly the rows in and near the viewport: each identified by `key`, built by `build` when missing, and
   * placed by `place`. Returns the stretch of the canvas now covered, or undefined when the last one still covers the
   * viewport (nothing drawn, unless `force`).
   */
  update(
    force: boolean, rows: RowPositions, key: (row: number) => number, build: (key: number) => HTMLElement, place: (element: HTMLElement, row: number) => void,
  ): { top: number; bottom: number } | undefined {
    const viewTop = this.scroller.scrollTop;
    const viewHeight = Math.max(this.scroller.clientHeight, 200);
    const margin = viewHeight / 2;
    if (!force && viewTop - margin >= this.top && viewTop + viewHeight + margin <= this.bottom) return undefined;
    const top = Math.max(0, viewTop - viewHeight);
    const bottom = viewTop + 2 * viewHeight;
    const wanted = new Map<number, number>();
    for (let i = rows.firstNear(top); i < rows.count && rows.tops[i] <= bottom; i++) {
      if (rows.tops[i] + rows.heights[i] < top) continue;
      wanted.set(key(i), i);
      if (wanted.size >= this.maxRows) break;
    }
    for (const [drawn, element] of this.rendered) {
      if (wanted.has(drawn)) continue;
      element.remove();
      this.rendered.delete(drawn);
    }
    const fragment = document.createDocumentFragment();
    for (const [wantedKey, row] of wanted) {
      let element = this.rendered.get(wantedKey);
      if (!element) {
        element = build(wantedKey);
        this.rendered.set(wantedKey, element);
        fragment.appendChild(element);
      }
      place(element, row);
    }
    this.canvas.appendChild(fragment);
    this.top = top;
    this.bottom = bottom;
    return { top, bottom };
  }
}

/** Runs after the next frame is painted; falls back to a timer where frames are not produced (a hidden page). */
export function afterPaint(callback: () => void): void {
  let done = false;
  const run = () => {
    if (!done) {
      done = true;
      callback();
    }
  };
  requestAnimationFrame(() => setTimeout(run, 0));
  setTimeout(run, 200);
}
