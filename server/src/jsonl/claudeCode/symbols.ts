/**
 * The outline of a Claude Code session: one entry per user prompt (its turn runs to the next prompt), the
 * assistant's calls nested under it (`Bash: npm test`, `Edit: src/app.ts`; failed ones marked ✗), a subagent's calls
 * under the `Task` call that ran it, compaction boundaries as entries of their own, and prompts of abandoned
 * branches said to be so. Entries are in file order and each one's range holds its children's.
 */
import { spend, type Budget } from '../../common/budget';
import type { OutlineItem, Span } from '../../common/types';
import { shorten } from '../../common/text';
import type { Line, LinesModel } from '../lines';
import { callTitle, interruption } from './format';
import type { BlockFacts } from './records';
import { sessionOf } from './session';
import type { RecordStep, SessionCall, SessionModel } from './types';

const titleLength = 80;

/** Whether a record starts a turn in the outline: a prompt, a compaction boundary or its summary. */
export function startsTurn(step: RecordStep): boolean {
  const facts = step.facts;
  if (facts.subtype === 'compact_boundary') return true;
  if (facts.type !== 'user' || !facts.message || facts.isMeta) return false;
  if (facts.isCompactSummary) return true;
  if (interruption(step)) return false;
  return facts.message.text !== undefined || facts.message.blocks.some((block) => block.type === 'text' || block.type === 'image');
}

export function sessionSymbols(model: LinesModel, max: number, budget?: Budget): OutlineItem[] {
  const session = sessionOf(model);
  const items: OutlineItem[] = [];
  let turn: { item: OutlineItem; calls: number; failed: number } | undefined;
  let steps = 0;
  const close = () => {
    if (!turn) return;
    const counts = turn.calls > 0 ? `${turn.calls} call${turn.calls === 1 ? '' : 's'}${turn.failed > 0 ? `, ${turn.failed} failed` : ''}` : '';
    turn.item.detail = [turn.item.detail, counts].filter(Boolean).join(' · ');
    turn = undefined;
  };
  for (const step of session.steps) {
    steps = spend(budget, steps);
    if (startsTurn(step)) {
      close();
      if (items.length === max) break;
      const item = turnItem(step);
      items.push(item);
      turn = { item, calls: 0, failed: 0 };
      continue;
    }
    if (!turn) continue;
    turn.item.span = { start: turn.item.span.start, end: step.span.end };
    for (const call of step.calls) {
      const child = callItem(session, call);
      (turn.item.children ??= []).push(child);
      turn.calls++;
      if (call.outputs.some((output) => output.isError)) turn.failed++;
      turn.item.span.end = Math.max(turn.item.span.end, child.span.end);
    }
  }
  close();
  return items;
}

function turnItem(step: RecordStep): OutlineItem {
  const facts = step.facts;
  const span = { ...step.span };
  const selection = facts.typeSpan ? { start: step.line.start + facts.typeSpan.start, end: step.line.start + facts.typeSpan.end } : { start: span.start, end: span.start };
  if (facts.subtype === 'compact_boundary') {
    const why = [facts.compactTrigger, facts.compactTokens !== undefined ? `${facts.compactTokens.toLocaleString('en-US')} tokens before` : undefined].filter(Boolean).join(', ');
    return { name: 'Conversation compacted', detail: why, kind: 'metadata', span, selection };
  }
  const message = facts.message!;
  const text = message.text ?? message.blocks.find((block) => block.type === 'text')?.preview ?? '[image]';
  const name = facts.isCompactSummary ? `Summary of the conversation before: ${text}` : text;
  const detail = [step.abandoned ? 'abandoned branch' : undefined, clock(facts.time)].filter(Boolean).join(' · ');
  return { name: shorten(`${step.abandoned ? '(abandoned) ' : ''}${name}`, titleLength), detail, kind: 'message', span, selection };
}

function callItem(session: SessionModel, call: SessionCall): OutlineItem {
  const failed = call.outputs.some((output) => output.isError);
  const unanswered = call.outputs.length === 0;
  const item: OutlineItem = {
    name: `${failed ? '✗ ' : ''}${callTitle(call, titleLength)}`,
    detail: [failed ? 'failed' : unanswered ? 'unanswered' : undefined, call.step.abandoned ? 'abandoned branch' : undefined].filter(Boolean).join(' · ') || undefined,
    kind: failed ? 'event' : 'call',
    span: { ...call.span },
    selection: call.nameSpan ? { ...call.nameSpan } : { start: call.span.start, end: call.span.start },
  };
  const run = call.id !== undefined ? session.subagents.get(call.id) : undefined;
  if (run && run.echoes.length > 0) {
    const children: OutlineItem[] = [];
    for (const echo of run.echoes) for (const block of echo.facts.progress?.echo?.message?.blocks ?? []) {
      if (block.toolUse && block.type === 'tool_use') children.push(echoedCallItem(echo, block));
    }
    const last = run.echoes[run.echoes.length - 1];
    item.span.end = Math.max(item.span.end, last.span.end);
    item.detail = [item.detail, `subagent${run.agentId ? ` ${run.agentId}` : ''}: ${children.length} call${children.length === 1 ? '' : 's'}`].filter(Boolean).join(' · ');
    if (children.length > 0) item.children = children;
  }
  return item;
}

/** A subagent's call, as its progress record echoes it. */
function echoedCallItem(echo: RecordStep, block: BlockFacts): OutlineItem {
  const tool = block.toolUse!;
  const name = tool.name ?? '?';
  const at = (span: Span | undefined) => span && { start: echo.line.start + span.start, end: echo.line.start + span.end };
  return {
    name: shorten(tool.keyArgument ? `${name}: ${tool.keyArgument}` : name, titleLength),
    kind: 'call',
    span: { ...echo.span },
    selection: at(tool.nameSpan) ?? { start: echo.span.start, end: echo.span.start },
  };
}

function clock(time: number | undefined): string | undefined {
  return time === undefined ? undefined : new Date(time).toISOString().slice(11, 19);
}

/** The lines that start an outline entry (for the count of entries left out past the limit). */
export function startsListedTurn(model: LinesModel): (line: Line) => boolean {
  const session = sessionOf(model);
  const starts = new Set(session.steps.filter(startsTurn).map((step) => step.line));
  return (line) => starts.has(line);
}
