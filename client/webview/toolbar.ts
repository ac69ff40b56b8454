/** The toolbar, the banners and the empty state around the graph; all text set through textContent. */
import type { GraphData } from '../../shared/protocol';
import { el, formatCount } from './dom';
import type { FilterState } from './filter';
import type { ViewModel } from './model';

export interface ToolbarHandlers {
  onFilter(state: Partial<FilterState>): void;
  onSelectTrace(index: number): void;
  onProblem(direction: 1 | -1): void;
}

/** Node and step kinds as the kind filters name them. */
export const KIND_NAMES: [string, string][] = [
  ['user', 'User'],
  ['system', 'System'],
  ['assistant', 'Assistant'],
  ['message', 'Other roles'],
  ['call', 'Tool calls'],
  ['output', 'Tool outputs'],
  ['entry', 'Tool call records'],
  ['tools', 'Tool lists'],
  ['metadata', 'Metadata'],
  ['invalid', 'Invalid events'],
];

function option(value: string, label: string): HTMLOptionElement {
  const element = el('option', undefined, label);
  element.value = value;
  return element;
}

export class Toolbar {
  readonly element = el('header', 'toolbar');
  readonly banners = el('div', 'banners');
  private readonly tracePicker = el('select', 'trace-picker');
  private readonly search = el('input', 'search');
  private readonly kindSelect = el('select', 'kind-filter');
  private readonly toolSelect = el('select', 'tool-filter');
  private readonly problemsOnly = el('button', 'problems-only', 'Problems only');
  private readonly status = el('span', 'status');
  private readonly previousProblem = el('button', 'prev-problem', '↑');
  private readonly nextProblem = el('button', 'next-problem', '↓');
  private readonly problemCount = el('span', 'problem-counter');
  private readonly noticeBanner = el('div', 'banner notice');
  private readonly truncatedBanner = el('div', 'banner truncated');
  private readonly errorBanner = el('div', 'banner error');
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(handlers: ToolbarHandlers) {
    this.tracePicker.title = 'Trace in this dataset';
    this.tracePicker.setAttribute('aria-label', 'Trace in this dataset');
    this.tracePicker.hidden = true;
    this.tracePicker.addEventListener('change', () => handlers.onSelectTrace(Number(this.tracePicker.value)));

    this.search.type = 'search';
    this.search.placeholder = 'Search events';
    this.search.setAttribute('aria-label', 'Search events');
    this.search.spellcheck = false;
    this.search.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = setTimeout(() => handlers.onFilter({ query: this.search.value }), 120);
    });
    this.search.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        clearTimeout(this.searchTimer);
        handlers.onFilter({ query: this.search.value });
      } else if (event.key === 'Escape' && this.search.value) {
        event.stopPropagation();
        this.search.value = '';
        clearTimeout(this.searchTimer);
        handlers.onFilter({ query: '' });
      }
    });

    this.kindSelect.setAttribute('aria-label', 'Show events of role or kind');
    this.kindSelect.addEventListener('change', () => handlers.onFilter({ kind: this.kindSelect.value }));
    this.toolSelect.setAttribute('aria-label', 'Show events of tool');
    this.toolSelect.addEventListener('change', () => handlers.onFilter({ tool: this.toolSelect.value }));

    this.problemsOnly.type = 'button';
    this.problemsOnly.setAttribute('aria-pressed', 'false');
    this.problemsOnly.title = 'Show only events with errors, warnings or failed tool calls';
    this.problemsOnly.addEventListener('click', () => {
      const pressed = this.problemsOnly.getAttribute('aria-pressed') !== 'true';
      this.problemsOnly.setAttribute('aria-pressed', String(pressed));
      handlers.onFilter({ problemsOnly: pressed });
    });

    for (const [button, direction, title] of [
      [this.previousProblem, -1, 'Previous problem (Shift+F8)'],
      [this.nextProblem, 1, 'Next problem (F8)'],
    ] as const) {
      button.type = 'button';
      button.title = title;
      button.setAttribute('aria-label', title);
      button.addEventListener('click', () => handlers.onProblem(direction));
    }

    const filters = el('div', 'filters');
    filters.append(this.tracePicker, this.search, this.kindSelect, this.toolSelect, this.problemsOnly);
    const navigation = el('div', 'problem-nav');
    navigation.append(this.problemCount, this.previousProblem, this.nextProblem);
    this.element.append(filters, this.status, navigation);

    const closeNotice = el('button', 'close', '✕');
    closeNotice.type = 'button';
    closeNotice.title = 'Dismiss';
    closeNotice.addEventListener('click', () => (this.noticeBanner.hidden = true));
    this.noticeBanner.append(el('span', 'text'), closeNotice);
    for (const banner of [this.noticeBanner, this.truncatedBanner, this.errorBanner]) {
      banner.hidden = true;
      banner.setAttribute('role', 'status');
    }
    this.errorBanner.setAttribute('role', 'alert');
    this.banners.append(this.errorBanner, this.truncatedBanner, this.noticeBanner);
  }

  focusSearch(): void {
    this.search.focus();
    this.search.select();
  }

  showNotice(text: string): void {
    this.noticeBanner.querySelector('.text')!.textContent = text;
    this.noticeBanner.hidden = false;
  }

  /** Fills the pickers for a new graph, keeping the user's filter when the choice still exists. */
  update(model: ViewModel, filter: FilterState): void {
    const data: GraphData = model.data;
    this.tracePicker.hidden = data.traces.length <= 1;
    this.tracePicker.replaceChildren();
    if (!this.tracePicker.hidden) {
      // Appended one by one: a spread of a long list overflows the stack. The server lists a window of a large
      // dataset's traces; a disabled option stands for each gap.
      let previous = -1;
      for (const trace of data.traces) {
        const gap = trace.index - previous - 1;
        if (previous >= 0 && gap > 0) {
          const skipped = option('', `⋯ ${formatCount(gap)} more ${gap === 1 ? 'trace' : 'traces'} ⋯`);
          skipped.disabled = true;
          this.tracePicker.append(skipped);
        }
        this.tracePicker.append(option(String(trace.index), trace.label));
        previous = trace.index;
      }
      this.tracePicker.value = String(data.traceIndex);
    }

    const kindCounts = new Map<string, number>();
    for (const node of model.nodes) kindCounts.set(node.kind, (kindCounts.get(node.kind) ?? 0) + 1);
    const kinds = [option('', 'All events')];
    for (const [kind, label] of KIND_NAMES) {
      const count = kindCounts.get(kind);
      if (count || kind === filter.kind) kinds.push(option(kind, `${label} (${formatCount(count ?? 0)})`));
    }
    this.kindSelect.replaceChildren(...kinds);
    this.kindSelect.value = filter.kind;

    const tools = [option('', 'All tools')];
    for (const name of model.toolNames.slice(0, 1000)) tools.push(option(name, name));
    if (filter.tool && !model.toolNames.includes(filter.tool)) tools.push(option(filter.tool, filter.tool));
    this.toolSelect.replaceChildren(...tools);
    this.toolSelect.value = filter.tool;
    this.toolSelect.hidden = model.toolNames.length === 0 && !filter.tool;
    if (this.search.value !== filter.query && document.activeElement !== this.search) this.search.value = filter.query;
    this.problemsOnly.setAttribute('aria-pressed', String(filter.problemsOnly));

    if (data.limits.truncatedFrom !== undefined) {
      this.truncatedBanner.textContent =
        `Showing the first ${formatCount(data.nodes.length)} of ${formatCount(data.limits.truncatedFrom)} nodes. ` +
        (data.format === 'agentguard'
          ? 'The settings agentTraces.preview.maxLogEntries and agentTraces.preview.maxNodes raise the limit.'
          : 'The setting agentTraces.preview.maxNodes raises the limit.');
      this.truncatedBanner.hidden = false;
    } else {
      this.truncatedBanner.hidden = true;
    }
    if (data.error) {
      this.errorBanner.textContent = data.error;
      this.errorBanner.hidden = false;
    } else {
      this.errorBanner.hidden = true;
    }
  }

  setStatus(shown: number, total: number, matches: number | undefined): void {
    this.status.textContent =
      matches === undefined
        ? `${formatCount(total)} ${total === 1 ? 'node' : 'nodes'}`
        : `${formatCount(matches)} ${matches === 1 ? 'match' : 'matches'} · ${formatCount(shown)} of ${formatCount(total)} shown`;
  }

  setProblems(position: number, total: number): void {
    this.problemCount.textContent =
      total === 0 ? 'No problems' : position > 0 ? `Problem ${formatCount(position)} of ${formatCount(total)}` : `${formatCount(total)} ${total === 1 ? 'problem' : 'problems'}`;
    this.problemCount.classList.toggle('has-problems', total > 0);
    this.previousProblem.disabled = total === 0;
    this.nextProblem.disabled = total === 0;
  }
}
