/** The toolbar, the banners and the empty state around the graph; all text set through textContent. */
import type { GraphData, GraphTotals } from '../../shared/protocol';
import { formatCost, formatDuration, formatTokens } from '../../shared/format';
import { Banners, fillTracePicker, option, searchBox, StepperNav, toggleButton } from './controls';
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

export class Toolbar {
  readonly element = el('header', 'toolbar');
  private readonly banner = new Banners();
  readonly banners = this.banner.element;
  private readonly tracePicker = el('select', 'trace-picker');
  private readonly search: HTMLInputElement;
  private readonly kindSelect = el('select', 'kind-filter');
  private readonly toolSelect = el('select', 'tool-filter');
  private readonly problemsOnly: HTMLButtonElement;
  private readonly status = el('span', 'status');
  private readonly problems: StepperNav;
  /** The conversation's calls, time and tokens, where the format records them. */
  private readonly totals = el('span', 'totals');

  constructor(handlers: ToolbarHandlers) {
    this.tracePicker.title = 'Trace in this dataset';
    this.tracePicker.setAttribute('aria-label', 'Trace in this dataset');
    this.tracePicker.hidden = true;
    this.tracePicker.addEventListener('change', () => handlers.onSelectTrace(Number(this.tracePicker.value)));

    this.search = searchBox('Search events', (query) => handlers.onFilter({ query }));
    this.kindSelect.setAttribute('aria-label', 'Show events of role or kind');
    this.kindSelect.addEventListener('change', () => handlers.onFilter({ kind: this.kindSelect.value }));
    this.toolSelect.setAttribute('aria-label', 'Show events of tool');
    this.toolSelect.addEventListener('change', () => handlers.onFilter({ tool: this.toolSelect.value }));

    this.problemsOnly = toggleButton('problems-only', 'Problems only', 'Show only events with errors, warnings or failed tool calls', (pressed) => handlers.onFilter({ problemsOnly: pressed }));
    this.problems = new StepperNav({ counter: 'problem-counter', previous: 'prev-problem', next: 'next-problem' }, 'problem', (direction) => handlers.onProblem(direction));

    const filters = el('div', 'filters');
    filters.append(this.tracePicker, this.search, this.kindSelect, this.toolSelect, this.problemsOnly);
    this.totals.hidden = true;
    this.element.append(filters, this.status, this.totals, this.problems.element);
  }

  focusSearch(): void {
    this.search.focus();
    this.search.select();
  }

  showNotice(text: string): void {
    this.banner.showNotice(text);
  }

  /** Fills the pickers for a new graph, keeping the user's filter when the choice still exists. */
  update(model: ViewModel, filter: FilterState): void {
    const data: GraphData = model.data;
    fillTracePicker(this.tracePicker, data.traces, data.traceIndex);

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

    this.banner.setTruncated(data.limits.truncatedFrom === undefined ? undefined :
      `Showing the first ${formatCount(data.nodes.length)} of ${formatCount(data.limits.truncatedFrom)} nodes. ` +
      (data.format === 'agentguard'
        ? 'The settings agentTraces.preview.maxLogEntries and agentTraces.preview.maxNodes raise the limit.'
        : 'The setting agentTraces.preview.maxNodes raises the limit.'));
    this.banner.setOmitted(data.notice);
    const totals = data.totals ? describeTotals(data.totals) : '';
    this.totals.textContent = totals;
    this.totals.title = totals ? `This ${data.format === 'codex' ? 'rollout' : data.format === 'agentguard' ? 'log' : 'conversation'}: ${totals}` : '';
    this.totals.hidden = !totals;
    this.banner.setError(data.error);
  }

  setStatus(shown: number, total: number, matches: number | undefined): void {
    this.status.textContent =
      matches === undefined
        ? `${formatCount(total)} ${total === 1 ? 'node' : 'nodes'}`
        : `${formatCount(matches)} ${matches === 1 ? 'match' : 'matches'} · ${formatCount(shown)} of ${formatCount(total)} shown`;
  }

  setProblems(position: number, total: number): void {
    this.problems.set(position, total);
  }
}

/** `4 calls, 1 failed · 1 min 15 s · 2,400 tokens (1,500 in, 800 out) · $0.0123`: what the format records. */
export function describeTotals(totals: GraphTotals): string {
  const parts = [`${formatCount(totals.calls)} ${totals.calls === 1 ? 'call' : 'calls'}${totals.failedCalls > 0 ? `, ${formatCount(totals.failedCalls)} failed` : ''}`];
  if (totals.durationMs !== undefined) parts.push(formatDuration(totals.durationMs));
  const tokens = totals.tokens !== undefined ? formatTokens({ total: totals.tokens, input: totals.inputTokens, output: totals.outputTokens }) : undefined;
  if (tokens) parts.push(tokens);
  if (totals.costUsd !== undefined) parts.push(formatCost(totals.costUsd));
  return parts.join(' · ');
}
