/**
 * The DOM for one drawn row: a node's box, the calls nested in it, and its expanded panel when open.
 * Every piece of trace content enters through `el(..., text)` / text nodes (see dom.ts).
 */
import { GraphLayout, type GraphNode } from '../../shared/protocol';
import { formatCost, formatDuration, formatTokens } from '../../shared/format';
import { appendHighlighted, el, formatCount, hiddenCharacters } from './dom';
import type { ViewModel } from './model';
import { childExtras, nestedOffset, type Extras } from './projection';

export interface RowContext {
  model: ViewModel;
  extras: Extras;
  expanded: Set<string>;
  /** Whether a group's head node shows its group (a subagent's run). */
  groupOpen: (head: number) => boolean;
  /** Lower-cased search text, or ''. */
  query: string;
  matches: ((id: number) => boolean) | null;
  currentId: number;
  /** The nodes the selected guardrail violation's variables were bound to, with the variables' names. */
  bound: ReadonlyMap<number, string>;
  contentWidth: number;
}

const PANEL_MAX_TEXT_LINES = 16;
const PANEL_PADDING = 10;
const CHAR_WIDTH = 7.2;
const NESTED_INSET = 10;

const KIND_LABELS: Record<string, string> = {
  user: 'user',
  system: 'system',
  assistant: 'assistant',
  call: 'call',
  output: 'output',
  tools: 'tools',
  metadata: 'metadata',
  entry: 'tool call',
  invalid: 'invalid',
};

function kindLabel(node: GraphNode): string {
  if (node.kind === 'message') return node.role || 'message';
  return KIND_LABELS[node.kind] ?? node.kind;
}

function statusClass(node: GraphNode): string {
  if (node.failed) return 'status-failed';
  return node.status === 'retried' ? 'status-retried' : 'status-ok';
}

function worstSeverity(node: GraphNode): string | undefined {
  let worst: string | undefined;
  for (const problem of node.problems) {
    if (problem.severity === 'error') return 'error';
    if (problem.severity === 'warning') worst = 'warning';
    else if (!worst) worst = problem.severity;
  }
  return worst;
}

const SEVERITY_ICONS: Record<string, string> = { error: '✕', warning: '⚠', information: 'ℹ', hint: '…' };

function estimateLines(text: string, charsPerLine: number, cap: number): number {
  let lines = 0;
  let start = 0;
  while (start <= text.length && lines < cap) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lines += Math.max(1, Math.ceil((end - start) / charsPerLine));
    start = end + 1;
  }
  return Math.min(lines, cap);
}

function hasDetails(node: GraphNode): boolean {
  return node.callId !== undefined || node.toolName !== undefined || node.status !== undefined;
}

/** Height of a node's expanded panel: computed, not measured, so positions stay put while scrolling. */
export function panelHeight(node: GraphNode, width: number): number {
  // Wrapping breaks at spaces before it breaks words, so count on lines about 15% shorter than the width allows.
  const charsPerLine = Math.max(20, Math.floor((0.85 * (width - 2 * PANEL_PADDING - 32)) / CHAR_WIDTH));
  let lines = 0;
  if (node.textLength > node.text.length) lines += 1;
  if (hasDetails(node)) lines += 1;
  for (const problem of node.problems.slice(0, 20)) lines += estimateLines(problem.message, charsPerLine, 4);
  lines += node.text ? estimateLines(node.text, charsPerLine, PANEL_MAX_TEXT_LINES) : 1;
  return lines * GraphLayout.lineHeight + 2 * PANEL_PADDING + 6;
}

export function canExpand(node: GraphNode): boolean {
  return node.text.length > 0 || node.problems.length > 0 || node.textLength > 0;
}

function appendBadges(head: HTMLElement, node: GraphNode, model: ViewModel): void {
  const badges = el('span', 'badges');
  if (node.status !== undefined) {
    const badge = el('span', `badge status ${statusClass(node)}`, node.status);
    badge.title = node.failed ? `Failed: ${node.status}` : node.status;
    badges.appendChild(badge);
  }
  if (node.durationMs !== undefined) badges.appendChild(el('span', 'badge meta duration', formatDuration(node.durationMs)));
  if (node.tokens !== undefined) {
    const tokens = el('span', 'badge meta tokens', `${formatCount(node.tokens)} tok`);
    tokens.title = `${formatTokens({ total: node.tokens })} in the model request this record reports`;
    badges.appendChild(tokens);
  }
  if (node.retries) {
    const retries = el('span', 'badge meta retries', `↻ ${node.retries}`);
    retries.title = `${node.retries} ${node.retries === 1 ? 'retry' : 'retries'}`;
    badges.appendChild(retries);
  }
  if (node.cost !== undefined && node.cost !== null) badges.appendChild(el('span', 'badge meta cost', formatCost(node.cost)));
  const severity = worstSeverity(node);
  if (severity) {
    const badge = el('span', `badge problem-count sev-${severity}`, `${SEVERITY_ICONS[severity]} ${node.problems.length}`);
    badge.title = node.problems.map((p) => `${p.severity}: ${p.message} (${p.code})`).join('\n');
    badges.appendChild(badge);
  }
  const hidden = hiddenCharacters(node.title + node.summary + node.text);
  if (hidden.length > 0) {
    const badge = el('span', 'badge hidden-chars', '⚠ hidden characters');
    badge.title = `Invisible or direction-changing characters: ${hidden.join(', ')}`;
    badges.appendChild(badge);
  }
  if (node.kind === 'entry' && node.durationMs !== undefined && model.maxDurationMs > 0) {
    const bar = el('span', 'duration-bar');
    bar.style.width = `${Math.max(1, (100 * node.durationMs) / model.maxDurationMs)}%`;
    head.parentElement?.appendChild(bar);
  }
  head.appendChild(badges);
}

/** On a group's head: a button that shows or hides the group (a subagent's messages under its call). */
function appendGroupToggle(head: HTMLElement, node: GraphNode, open: boolean): void {
  if (!node.groupSize) return;
  const toggle = el('button', 'group-toggle', `${open ? '▾' : '▸'} subagent · ${formatCount(node.groupSize)} step${node.groupSize === 1 ? '' : 's'}`);
  toggle.type = 'button';
  toggle.title = open ? 'Hide the subagent\'s steps' : 'Show the subagent\'s steps';
  toggle.setAttribute('aria-expanded', String(open));
  toggle.dataset.action = 'group';
  head.appendChild(toggle);
}

function appendToggle(head: HTMLElement, node: GraphNode, expanded: boolean): void {
  if (!canExpand(node)) return;
  const toggle = el('button', 'toggle', expanded ? '▾' : '▸');
  toggle.type = 'button';
  toggle.title = expanded ? 'Collapse' : 'Expand';
  toggle.setAttribute('aria-expanded', String(expanded));
  toggle.dataset.action = 'toggle';
  head.insertBefore(toggle, head.firstChild);
}

function buildPanel(node: GraphNode, height: number): HTMLElement {
  const panel = el('div', 'panel');
  panel.style.height = `${height - 6}px`;
  if (node.textLength > node.text.length) {
    panel.appendChild(
      el('div', 'panel-notice', `showing first ${formatCount(node.text.length)} of ${formatCount(node.textLength)} characters`),
    );
  }
  if (hasDetails(node)) {
    const parts: string[] = [];
    if (node.toolName !== undefined) parts.push(`tool ${node.toolName}`);
    if (node.callId !== undefined) parts.push(`call id ${node.callId}`);
    if (node.status !== undefined) parts.push(`status ${node.status}`);
    if (node.durationMs !== undefined) parts.push(formatDuration(node.durationMs));
    if (node.retries !== undefined) parts.push(`${node.retries} retries`);
    if (node.cost !== undefined) parts.push(node.cost === null ? 'cost unknown' : `cost ${formatCost(node.cost)}`);
    panel.appendChild(el('div', 'panel-details', parts.join(' · ')));
  }
  for (const problem of node.problems.slice(0, 20)) {
    const line = el('div', `panel-problem sev-${problem.severity}`);
    line.appendChild(el('span', 'icon', SEVERITY_ICONS[problem.severity] ?? '•'));
    line.appendChild(document.createTextNode(` ${problem.message} `));
    line.appendChild(el('span', 'code', problem.code));
    panel.appendChild(line);
  }
  panel.appendChild(el('pre', 'panel-text', node.text || '(no content)'));
  return panel;
}

function decorate(box: HTMLElement, node: GraphNode, ctx: RowContext): void {
  const severity = worstSeverity(node);
  if (severity) box.classList.add(`has-${severity}`);
  if (node.failed) box.classList.add('failed');
  if (node.abandoned) {
    box.classList.add('abandoned');
    box.title = 'On an abandoned branch: the conversation was rewound or forked, and went on from another record';
  }
  if (node.id === ctx.currentId) box.classList.add('current');
  if (ctx.matches?.(node.id)) box.classList.add('matched');
  box.dataset.id = String(node.id);
  box.dataset.kind = node.kind;
  box.dataset.event = String(node.eventIndex);
  const boundAs = ctx.bound.get(node.id);
  if (boundAs !== undefined) {
    box.classList.add('bound');
    const label = el('span', 'bound-as', boundAs);
    label.title = `The selected violation's rule bound ${boundAs} to this element`;
    box.appendChild(label);
  }
}

function buildHead(node: GraphNode, ctx: RowContext, expanded: boolean): HTMLElement {
  const head = el('div', 'head');
  head.appendChild(el('span', 'chip', kindLabel(node)));
  const title = el('span', 'title');
  appendHighlighted(title, node.title, ctx.query);
  head.appendChild(title);
  appendToggle(head, node, expanded);
  return head;
}

function buildNested(id: number, ctx: RowContext): HTMLElement {
  const node = ctx.model.nodes[id];
  const expanded = ctx.expanded.has(ctx.model.keyOf(id));
  const box = el('div', `node nested kind-${node.kind}`);
  decorate(box, node, ctx);
  box.style.top = `${nestedOffset(ctx.model, ctx.extras, id)}px`;
  box.style.left = `${NESTED_INSET}px`;
  box.style.right = `${NESTED_INSET}px`;
  box.style.height = `${node.height - 4 + (ctx.extras.get(id) ?? 0)}px`;
  const head = buildHead(node, ctx, expanded);
  box.appendChild(head);
  appendBadges(head, node, ctx.model);
  appendGroupToggle(head, node, ctx.groupOpen(id));
  const firstProblem = node.problems[0];
  if (firstProblem) {
    head.insertBefore(el('span', `inline-problem sev-${firstProblem.severity}`, firstProblem.message), head.lastChild);
  } else if (node.kind !== 'call' && node.summary && !node.title.includes(node.summary)) {
    const summary = el('span', 'inline-summary');
    appendHighlighted(summary, node.summary, ctx.query);
    head.insertBefore(summary, head.lastChild);
  }
  if (expanded) {
    const panel = buildPanel(node, ctx.extras.get(id) ?? panelHeight(node, ctx.contentWidth));
    panel.style.top = `${node.height - 4}px`;
    box.appendChild(panel);
  }
  return box;
}

/** A top-level node's box; the caller positions it. */
export function buildRow(id: number, ctx: RowContext): HTMLElement {
  const { model } = ctx;
  const node = model.nodes[id];
  const expanded = ctx.expanded.has(model.keyOf(id));
  const box = el('div', `node kind-${node.kind}`);
  decorate(box, node, ctx);
  const head = buildHead(node, ctx, expanded);
  box.appendChild(head);
  appendBadges(head, node, model);
  appendGroupToggle(head, node, ctx.groupOpen(id));

  const children = model.children.get(id);
  const bodyBottom = children && children.length > 0 ? model.nodes[children[0]].y - node.y : node.height;
  // Whole lines only: a line cut in half reads as a rendering fault. The server's boxes leave a few pixels of slack.
  const bodyLines = Math.floor((bodyBottom - GraphLayout.headerHeight + 4) / GraphLayout.lineHeight);
  if (bodyLines > 0) {
    const body = el('div', 'body');
    body.style.height = `${bodyLines * GraphLayout.lineHeight}px`;
    for (const [index, problem] of node.problems.slice(0, 3).entries()) {
      const line = el('div', `problem sev-${problem.severity}`);
      if (problem.range) {
        line.dataset.problem = String(index);
        const bound = problem.bound?.length ? `; its bindings (${problem.bound.map((b) => b.variable).join(', ')}) are marked` : '';
        line.title = `${problem.code}: select it in the trace${bound}`;
      }
      line.appendChild(el('span', 'icon', SEVERITY_ICONS[problem.severity] ?? '•'));
      line.appendChild(document.createTextNode(` ${problem.message}`));
      body.appendChild(line);
    }
    if (node.summary) {
      const summary = el('div', 'summary');
      appendHighlighted(summary, node.summary, ctx.query);
      body.appendChild(summary);
    }
    box.appendChild(body);
  }
  if (children) for (const child of children) box.appendChild(buildNested(child, ctx));
  if (expanded) {
    const panel = buildPanel(node, ctx.extras.get(id) ?? panelHeight(node, ctx.contentWidth));
    panel.style.top = `${node.height + childExtras(model, ctx.extras, id)}px`;
    box.appendChild(panel);
  }
  return box;
}
