/**
 * The trace preview webview: draws the graph the language server computed (data and layout) and reports clicks
 * back to the extension host. Virtualized: only the rows in and near the viewport exist in the DOM.
 */
import type { GraphData, GraphNode, GraphNodeProblem, HostToWebview, WebviewToHost } from '../../shared/protocol';
import { el, svg } from './dom';
import { drawEdges, type Box } from './edgesView';
import { anchorAt, anchorTop, boxOf, contentLeft, contentWidth, depthIndent, EDGE_GUTTER, edgesNear, type Anchor } from './geometry';
import { applyFilter, emptyFilter, isFilterActive, type FilterResult, type FilterState } from './filter';
import { buildViewModel, type ViewModel } from './model';
import { adjacentProblem, innermostNodeAt } from './navigation';
import { canExpand, buildRow, panelHeight, type RowContext } from './nodeView';
import { buildProjection, firstRowNear, rowAt, type Extras, type Projection } from './projection';
import { handleViewKey } from './keys';
import { Toolbar } from './toolbar';
import { afterPaint, VirtualWindow } from './virtualWindow';
import { CompareView } from './compare/view';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** What survives the webview being hidden and shown again (retainContextWhenHidden is off). */
interface SavedState {
  uri: string;
  anchor?: { eventIndex: number; offset: number };
  filter: FilterState;
  expanded: string[];
  /** Groups (a subagent's run) shown, by their head's key; the others are collapsed. */
  openGroups?: string[];
}

const MAX_ROWS_IN_DOM = 150;
const MAX_SAVED_EXPANDED = 200;

class Preview {
  private readonly scroller = el('div', 'scroller');
  private readonly canvas = el('div', 'canvas');
  private readonly edgeLayer = svg('svg', 'edges');
  private readonly empty = el('div', 'empty');
  private readonly toolbar: Toolbar;
  private model: ViewModel | undefined;
  private projection: Projection | undefined;
  private filterResult: FilterResult | undefined;
  private filter: FilterState = { ...emptyFilter };
  private readonly expanded = new Set<string>();
  /** The keys of the group heads whose groups are shown (groups start collapsed). */
  private readonly openGroups = new Set<string>();
  private extras: Extras = new Map();
  private currentId = -1;
  /** The nodes the selected guardrail violation bound its rule's variables to (node id → the variables' names). */
  private bound = new Map<number, string>();
  private readonly window: VirtualWindow;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private restored: SavedState | undefined;
  /** The scroller's width, read once per layout rather than once per node. */
  private viewportWidth = 0;

  constructor(
    root: HTMLElement,
    private readonly host: VsCodeApi,
  ) {
    this.toolbar = new Toolbar({
      onFilter: (change) => this.setFilter(change),
      onSelectTrace: (traceIndex) => this.post({ type: 'selectTrace', traceIndex }),
      onProblem: (direction) => this.gotoProblem(direction),
    });
    this.window = new VirtualWindow(this.scroller, this.canvas, MAX_ROWS_IN_DOM);
    this.edgeLayer.setAttribute('aria-hidden', 'true');
    this.canvas.appendChild(this.edgeLayer);
    this.scroller.appendChild(this.canvas);
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('aria-label', 'Trace events');
    this.empty.hidden = true;
    root.append(this.toolbar.element, this.toolbar.banners, this.empty, this.scroller);

    this.scroller.addEventListener('scroll', () => {
      this.schedule();
      this.saveStateSoon();
    });
    this.canvas.addEventListener('click', (event) => this.onClick(event));
    let resizeFrame = 0;
    window.addEventListener('resize', () => {
      cancelAnimationFrame(resizeFrame);
      resizeFrame = requestAnimationFrame(() => this.relayout());
    });
    window.addEventListener('keydown', (event) => this.onKey(event));
    window.addEventListener('message', (event: MessageEvent) => this.onMessage(event.data));

    const state = host.getState() as SavedState | undefined;
    if (state && typeof state.uri === 'string') {
      this.restored = state;
      this.filter = { ...emptyFilter, ...state.filter };
      for (const key of state.expanded ?? []) this.expanded.add(key);
      for (const key of state.openGroups ?? []) if (typeof key === 'string') this.openGroups.add(key);
    }
  }

  private post(message: WebviewToHost): void {
    this.host.postMessage(message);
  }

  private onMessage(message: HostToWebview | undefined): void {
    if (!message || typeof message !== 'object') return;
    switch (message.type) {
      case 'graph':
        if (message.data && Array.isArray(message.data.nodes)) this.showGraph(message.data, performance.now());
        break;
      case 'graphJson':
        if (typeof message.json === 'string') {
          const startedAt = performance.now();
          let data: GraphData;
          try {
            data = JSON.parse(message.json) as GraphData;
          } catch (error) {
            this.toolbar.showNotice(`The preview received a broken graph: ${String(error)}`);
            return;
          }
          if (data && Array.isArray(data.nodes)) this.showGraph(data, startedAt);
        }
        break;
      case 'cursor':
        if (typeof message.line === 'number') this.revealLine(message.line, typeof message.character === 'number' ? message.character : undefined);
        break;
      case 'notice':
        if (typeof message.text === 'string') this.toolbar.showNotice(message.text);
        break;
    }
  }

  // ---- graph updates --------------------------------------------------------------------------------------------

  private showGraph(data: GraphData, startedAt: number): void {
    const previous = this.model;
    const sameDocument = previous?.data.uri === data.uri && previous.data.traceIndex === data.traceIndex;
    let anchor = sameDocument ? this.anchor() : undefined;
    if (!previous && this.restored?.uri === data.uri) anchor = this.restored.anchor;
    if (!sameDocument && !(this.restored?.uri === data.uri && !previous)) {
      if (previous) {
        this.expanded.clear();
        this.openGroups.clear();
        this.filter = { ...emptyFilter, kind: '', tool: '', query: this.filter.query };
      }
      this.currentId = -1;
    }
    this.restored = undefined;

    const currentKey = sameDocument && this.currentId >= 0 ? previous!.keyOf(this.currentId) : undefined;
    this.model = buildViewModel(data);
    this.currentId = -1;
    if (currentKey !== undefined) this.currentId = this.findByKey(currentKey);
    this.bound = boundOf(this.currentId >= 0 ? firstBoundViolation(this.model.nodes[this.currentId]) : undefined);
    this.toolbar.update(this.model, this.filter);
    this.empty.hidden = data.nodes.length > 0 || !!data.error;
    this.empty.textContent = 'This trace has no events.';
    this.scroller.hidden = data.nodes.length === 0;
    this.recomputeExtras();
    this.refilter();

    this.invalidate();
    if (anchor) this.scrollToAnchor(anchor);
    else if (!sameDocument) this.scroller.scrollTop = 0;
    this.renderWindow(true);
    this.updateProblemCounter();
    this.saveStateSoon();
    afterPaint(() => {
      this.post({
        type: 'rendered',
        nodeCount: data.nodes.length,
        domNodeCount: document.getElementsByTagName('*').length,
        version: data.version,
        firstPaintMs: Math.round((performance.now() - startedAt) * 10) / 10,
      });
    });
  }

  private findByKey(key: string): number {
    const model = this.model!;
    for (let id = 0; id < model.nodes.length; id++) if (model.keyOf(id) === key) return id;
    return -1;
  }

  private contentLeft(lane: number): number {
    return contentLeft(lane, this.projection?.columns ?? false);
  }

  private contentWidth(lane: number): number {
    return contentWidth(lane, this.projection?.columns ?? false, this.viewportWidth);
  }

  /** Width of a node's box: its lane's (less its depth's indent), or its parent's less the inset when drawn inside it. */
  private boxWidth(id: number): number {
    const model = this.model!;
    const node = model.nodes[id];
    if (!model.nested[id]) return this.contentWidth(node.lane) - depthIndent(node);
    const parent = model.nodes[node.parent!];
    return this.contentWidth(parent.lane) - depthIndent(parent) - 20;
  }

  /** Whether a group head's group is shown. */
  private groupOpen(head: number): boolean {
    return this.openGroups.has(this.model!.keyOf(head));
  }

  /** A node of a collapsed group: not drawn while no filter is on. */
  private hiddenByGroup(id: number): boolean {
    const head = this.model!.nodes[id].group;
    return head !== undefined && this.model!.groups.has(head) && !this.groupOpen(head);
  }

  private recomputeExtras(): void {
    const model = this.model!;
    this.viewportWidth = this.scroller.clientWidth;
    this.extras = new Map();
    if (this.expanded.size === 0) return;
    for (let id = 0; id < model.nodes.length; id++) {
      if (this.expanded.has(model.keyOf(id)) && canExpand(model.nodes[id])) {
        this.extras.set(id, panelHeight(model.nodes[id], this.boxWidth(id)));
      }
    }
  }

  private refilter(): void {
    const model = this.model!;
    const active = isFilterActive(this.filter);
    this.filterResult = active ? applyFilter(model, this.filter) : undefined;
    const anyGroup = model.groups.size > 0;
    this.projection = buildProjection(model, this.filterResult?.include ?? null, this.extras, anyGroup ? (id) => this.hiddenByGroup(id) : null);
    this.canvas.style.height = `${this.projection.totalHeight}px`;
    this.toolbar.setStatus(this.projection.rows.length, model.nodes.length, this.filterResult?.matchCount);
  }

  private setFilter(change: Partial<FilterState>): void {
    this.filter = { ...this.filter, ...change };
    if (!this.model) return;
    const anchor = this.anchor();
    this.refilter();
    this.invalidate();
    if (this.currentId >= 0 && this.projection!.rowOf[this.currentId] >= 0) this.scrollIntoView(this.currentId, true);
    else if (anchor) this.scrollToAnchor(anchor);
    this.renderWindow(true);
    this.updateProblemCounter();
    this.saveStateSoon();
  }

  private relayout(): void {
    if (!this.model) return;
    const anchor = this.anchor();
    this.recomputeExtras();
    this.refilter();
    this.invalidate();
    if (anchor) this.scrollToAnchor(anchor);
    this.renderWindow(true);
  }

  // ---- scroll anchor ---------------------------------------------------------------------------------------------

  private anchor(): Anchor | undefined {
    if (!this.projection || !this.model) return undefined;
    return anchorAt(this.projection, this.model, this.scroller.scrollTop);
  }

  private scrollToAnchor(anchor: Anchor): void {
    const top = anchorTop(this.projection!, this.model!, anchor);
    if (top !== undefined) this.scroller.scrollTop = top;
  }

  private saveStateSoon(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => {
      if (!this.model) return;
      const state: SavedState = {
        uri: this.model.data.uri,
        anchor: this.anchor(),
        filter: this.filter,
        expanded: [...this.expanded].slice(0, MAX_SAVED_EXPANDED),
        openGroups: [...this.openGroups].slice(0, MAX_SAVED_EXPANDED),
      };
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

  private rowContext(): RowContext {
    return {
      model: this.model!,
      extras: this.extras,
      expanded: this.expanded,
      groupOpen: (head) => this.groupOpen(head),
      query: this.filter.query.trim().toLowerCase(),
      matches: this.filterResult ? (id) => this.filterResult!.matched[id] === 1 : null,
      currentId: this.currentId,
      bound: this.bound,
      contentWidth: this.contentWidth(0),
    };
  }

  /** Makes the DOM hold exactly the rows in and near the viewport. */
  private renderWindow(force: boolean): void {
    const projection = this.projection;
    const model = this.model;
    if (!projection || !model) return;
    const { rows, tops, heights } = projection;
    const context = this.rowContext();
    const drawn = this.window.update(
      force,
      { count: rows.length, tops, heights, firstNear: (y) => firstRowNear(projection, y) },
      (row) => rows[row],
      (id) => buildRow(id, context),
      (element, row) => {
        const node = model.nodes[rows[row]];
        const indent = depthIndent(node);
        element.style.top = `${tops[row]}px`;
        element.style.left = `${this.contentLeft(node.lane) + indent}px`;
        element.style.width = `${this.contentWidth(node.lane) - indent}px`;
        element.style.height = `${heights[row]}px`;
      },
    );
    if (!drawn) return;
    drawEdges(
      this.edgeLayer,
      edgesNear(projection, model.data.edges, drawn.top, drawn.bottom),
      { boxOf: (id) => this.boxOf(id), titleOf: (id) => model.nodes[id]?.title ?? 'node' },
      drawn.top,
      drawn.bottom - drawn.top,
      Math.max(this.viewportWidth, this.contentLeft(2) + this.contentWidth(2) + EDGE_GUTTER),
    );
  }

  /** Where a node is on the canvas, computed from the projection (no DOM reads). */
  private boxOf(id: number): Box | undefined {
    return boxOf(this.projection!, this.model!, this.extras, id, { left: (lane) => this.contentLeft(lane), width: (lane) => this.contentWidth(lane) });
  }

  // ---- interaction -----------------------------------------------------------------------------------------------

  private onClick(event: MouseEvent): void {
    const target = event.target as Element;
    const end = target.closest('.edge-end') as SVGElement | null;
    if (end?.dataset.goto !== undefined) {
      this.goto(Number(end.dataset.goto));
      return;
    }
    const box = target.closest('.node') as HTMLElement | null;
    if (!box?.dataset.id || !this.model) return;
    const id = Number(box.dataset.id);
    if (target.closest('[data-action="toggle"]')) {
      this.toggle(id);
      return;
    }
    if (target.closest('[data-action="group"]')) {
      this.toggleGroup(id);
      return;
    }
    // A guardrail violation's line selects the exact characters it marks.
    const problemLine = target.closest('[data-problem]') as HTMLElement | null;
    const problem = problemLine ? this.model.nodes[id].problems[Number(problemLine.dataset.problem)] : undefined;
    if (problem?.range) {
      this.select(id, problem);
      this.post({ type: 'reveal', range: this.model.nodes[id].range, selection: problem.range });
      return;
    }
    // Clicks in an open panel select and copy its text; they do not move the editor.
    if (target.closest('.panel')) return;
    this.select(id);
    const node = this.model.nodes[id];
    this.post({ type: 'reveal', range: node.range, selection: node.selection });
  }

  private toggle(id: number): void {
    const model = this.model!;
    const key = model.keyOf(id);
    const anchor = this.anchor();
    if (this.expanded.has(key)) {
      this.expanded.delete(key);
      this.extras.delete(id);
    } else {
      this.expanded.add(key);
      this.extras.set(id, panelHeight(model.nodes[id], this.boxWidth(id)));
    }
    this.relayoutBelow(id, anchor);
  }

  /**
   * Lays out again after a change below a node's top (its panel or its group opened or closed): the view stays put,
   * unless the node is above it.
   */
  private relayoutBelow(id: number, anchor: Anchor | undefined): void {
    const scrollTop = this.scroller.scrollTop;
    this.refilter();
    this.invalidate();
    const box = this.boxOf(id);
    if (box && box.y >= scrollTop) this.scroller.scrollTop = scrollTop;
    else if (anchor) this.scrollToAnchor(anchor);
    this.renderWindow(true);
    this.saveStateSoon();
  }

  /** Shows or hides a group's nodes (a subagent's run under the call that started it). */
  private toggleGroup(head: number, open = !this.groupOpen(head)): void {
    const key = this.model!.keyOf(head);
    if (open === this.openGroups.has(key)) return;
    const anchor = this.anchor();
    if (open) this.openGroups.add(key);
    else this.openGroups.delete(key);
    this.relayoutBelow(head, anchor);
  }

  /** Opens the group a node is hidden in, so that it can be shown. */
  private reveal(id: number): void {
    if (!this.model || !this.hiddenByGroup(id)) return;
    this.toggleGroup(this.model.nodes[id].group!, true);
  }

  /** Selects a node; the elements its violation (the one clicked, else its first with bindings) bound are marked. */
  private select(id: number, violation?: GraphNodeProblem): void {
    if (this.currentId !== id) {
      this.canvas.querySelectorAll(".node.current").forEach((element) => element.classList.remove("current"));
      this.currentId = id;
      this.canvas.querySelector(`.node[data-id="${id}"]`)?.classList.add('current');
      this.updateProblemCounter();
    }
    this.showBound(boundOf(violation ?? firstBoundViolation(this.model?.nodes[id])));
  }

  private showBound(next: Map<number, string>): void {
    if (sameBound(next, this.bound)) return;
    this.bound = next;
    this.invalidate();
    this.renderWindow(true);
  }

  private goto(id: number): void {
    if (!this.model || id < 0 || id >= this.model.nodes.length) return;
    const rowNode = this.model.nested[id] ? this.model.nodes[id].parent! : id;
    this.reveal(rowNode);
    if (this.projection!.rowOf[id] < 0 && isFilterActive(this.filter)) {
      this.filter = { ...emptyFilter };
      this.toolbar.update(this.model, this.filter);
      this.refilter();
      this.invalidate();
    }
    this.select(id);
    this.scrollIntoView(id, false);
    this.renderWindow(true);
    const element = this.canvas.querySelector(`.node[data-id="${id}"]`);
    element?.classList.remove('flash');
    void (element as HTMLElement | null)?.offsetWidth;
    element?.classList.add('flash');
  }

  private scrollIntoView(id: number, always: boolean): void {
    const box = this.boxOf(id);
    if (!box) return;
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight;
    if (always || box.y < top || box.y + Math.min(box.height, height) > top + height) {
      this.scroller.scrollTop = Math.max(0, box.y - Math.round(height / 3));
    }
  }

  private revealLine(line: number, character?: number): void {
    if (!this.model) return;
    const id = innermostNodeAt(this.model, line, character);
    if (id < 0) return;
    this.reveal(this.model.nested[id] ? this.model.nodes[id].parent! : id);
    this.select(id);
    this.scrollIntoView(id, false);
    this.renderWindow(false);
    const node = this.model.nodes[id];
    this.post({ type: 'revealed', traceIndex: this.model.data.traceIndex, eventIndex: node.eventIndex, kind: node.kind });
  }

  private gotoProblem(direction: 1 | -1): void {
    if (!this.model || !this.projection) return;
    const rowOf = this.projection.rowOf;
    const id = adjacentProblem(this.model, this.currentId, direction, (candidate) => rowOf[candidate] >= 0);
    if (id >= 0) this.goto(id);
  }

  private updateProblemCounter(): void {
    const model = this.model;
    if (!model) return;
    const position = this.currentId >= 0 ? model.problemNodes.indexOf(this.currentId) + 1 : 0;
    this.toolbar.setProblems(position, model.problemNodes.length);
  }

  private moveCurrent(direction: 1 | -1): void {
    const projection = this.projection;
    if (!projection || projection.rows.length === 0) return;
    const row = this.currentId >= 0 ? projection.rowOf[this.currentId] : -1;
    const nextRow = row < 0 ? rowAt(projection, this.scroller.scrollTop) : Math.min(Math.max(row + direction, 0), projection.rows.length - 1);
    this.goto(projection.rows[nextRow]);
  }

  private onKey(event: KeyboardEvent): void {
    handleViewKey(event, {
      next: (direction) => this.gotoProblem(direction),
      focusSearch: () => this.toolbar.focusSearch(),
      move: (direction) => this.moveCurrent(direction),
      reveal: () => {
        if (this.currentId < 0 || !this.model) return;
        const node = this.model.nodes[this.currentId];
        this.post({ type: 'reveal', range: node.range, selection: node.selection });
      },
      toggle: () => {
        if (this.currentId < 0 || !this.model || !canExpand(this.model.nodes[this.currentId])) return false;
        this.toggle(this.currentId);
        return true;
      },
    });
  }
}

const app = document.getElementById('app') ?? document.body;
const host = acquireVsCodeApi();
// The page's own markup (from the extension, never from a trace) says which view it is.
if (app.dataset.view === 'compare') new CompareView(app, host);
else new Preview(app, host);
host.postMessage({ type: 'ready' });

/** A node's first guardrail violation that says what its rule's variables were bound to. */
function firstBoundViolation(node: GraphNode | undefined): GraphNodeProblem | undefined {
  return node?.problems.find((problem) => (problem.bound?.length ?? 0) > 0);
}

/** Node id → the names of the variables bound to it (several variables may bind one element). */
function boundOf(violation: GraphNodeProblem | undefined): Map<number, string> {
  const bound = new Map<number, string>();
  for (const { node, variable } of violation?.bound ?? []) bound.set(node, bound.has(node) ? `${bound.get(node)}, ${variable}` : variable);
  return bound;
}

function sameBound(a: ReadonlyMap<number, string>, b: ReadonlyMap<number, string>): boolean {
  return a.size === b.size && [...a].every(([node, names]) => b.get(node) === names);
}
