/**
 * The preview of a Claude Code session, on the graph every format shares: the prompts, each assistant message
 * (read as one however many lines it was written over) with its calls inside it, the results (failed ones marked,
 * with the time the call took), compaction boundaries, and a subagent's messages as a collapsible group under the
 * `Task` call that ran it. Records of abandoned branches are drawn faded; snapshots, hooks and other progress are not
 * drawn.
 */
import type { GraphOptions, ServiceContext } from '../../common/languageService';
import type { Span } from '../../common/types';
import type { TextSource } from '../../common/textSource';
import type { GraphData } from '../../../../shared/protocol';
import { buildGraph, type GraphCall, type GraphItem, type GraphText } from '../../calls/graph';
import { graphTotals } from '../../calls/stepGraph';
import { compactObject } from '../../calls/labels';
import { decodeJsonString } from '../../json/strings';
import type { LinesModel } from '../lines';
import { callTitle, interruption } from './format';
import { resultText } from '../../anthropic/content';
import type { MessageFacts } from './records';
import { sessionOf } from './session';
import type { RecordStep, SessionCall, SessionModel, SessionOutput, SubagentRun } from './types';

const summaryLength = 120;

/** System events worth a node; the others (turn durations, hook summaries, local commands) are bookkeeping. */
const drawnSystemEvents = new Set(['compact_boundary', 'api_error', 'informational']);

export function sessionGraph(model: LinesModel, options: GraphOptions, context: ServiceContext, problems: GraphOptions['problems']): GraphData {
  const session = sessionOf(model);
  const draw = new ItemWriter(session, context.settings.preview.maxTextLength);
  for (const step of session.steps) draw.step(step);
  const error = session.steps.length === 0 ? 'This session holds no records yet.' : undefined;
  return buildGraph({ uri: model.uri, version: model.version, format: 'claude-code', error, totals: graphTotals(session) }, draw.items, options, context, problems ?? []);
}

class ItemWriter {
  readonly items: GraphItem[] = [];
  /** The item of each message (by its head line), which its later lines add to. */
  private readonly messages = new Map<RecordStep, GraphItem>();
  /** The runs whose echoes are drawn, by echo record. */
  private readonly runOfEcho = new Map<RecordStep, SubagentRun>();

  constructor(private readonly session: SessionModel, private readonly maxText: number) {
    for (const run of session.subagents.values()) for (const echo of run.echoes) this.runOfEcho.set(echo, run);
  }

  step(step: RecordStep): void {
    const facts = step.facts;
    const run = this.runOfEcho.get(step);
    if (run) this.echo(step, run);
    else if (facts.type === 'assistant' && facts.message) this.assistant(step, facts.message);
    else if (facts.type === 'user' && facts.message) this.user(step, facts.message);
    else if (facts.type === 'system' && facts.subtype !== undefined && drawnSystemEvents.has(facts.subtype)) this.system(step);
    else if (facts.type === 'summary') this.push(step, { kind: 'metadata', title: `${this.at(step)} summary`, summary: facts.text ?? '', text: textOf(facts.text ?? '') });
  }

  private at(step: RecordStep): string {
    return `L${step.index + 1}`;
  }

  private push(step: RecordStep, item: Omit<GraphItem, 'eventIndex' | 'span' | 'selection'> & { selection?: Span }): GraphItem {
    const full: GraphItem = { eventIndex: step.index, span: { ...step.span }, selection: item.selection ?? this.typeSpan(step), ...item };
    if (step.abandoned) full.abandoned = true;
    this.items.push(full);
    return full;
  }

  private typeSpan(step: RecordStep): Span {
    const type = step.facts.typeSpan;
    return type ? { start: step.line.start + type.start, end: step.line.start + type.end } : { start: step.span.start, end: step.span.start };
  }

  private system(step: RecordStep): void {
    const facts = step.facts;
    if (facts.subtype === 'compact_boundary') {
      const why = [facts.compactTrigger, facts.compactTokens !== undefined ? `${facts.compactTokens.toLocaleString('en-US')} tokens before` : undefined].filter(Boolean).join(', ');
      this.push(step, { kind: 'system', title: `${this.at(step)} conversation compacted`, summary: why, text: textOf(facts.text ?? 'Conversation compacted') });
      return;
    }
    this.push(step, { kind: 'system', title: `${this.at(step)} ${facts.subtype}`, summary: facts.text ?? '', text: textOf(facts.text ?? ''), failed: facts.subtype === 'api_error' });
  }

  private user(step: RecordStep, message: MessageFacts): void {
    const facts = step.facts;
    if (step.heldOutputs.length > 0 && step.heldOutputs.length === message.blocks.length) {
      this.results(step, step.heldOutputs);
      return;
    }
    const text = this.messageText(step, message);
    const summary = message.text ?? message.blocks.find((block) => block.type === 'text')?.preview ?? '';
    const title = facts.isCompactSummary ? 'summary of the conversation before'
      : facts.isMeta ? 'user (added by Claude Code)' : interruption(step) ? 'interruption' : 'user';
    this.push(step, { kind: facts.isCompactSummary ? 'system' : 'user', role: 'user', title: `${this.at(step)} ${title}`, summary: clip(summary), text });
  }

  private results(step: RecordStep, outputs: readonly SessionOutput[], depth?: number, group?: SessionCall): void {
    const first = outputs[0];
    const call = first.answers;
    const tools = [...new Set(outputs.map((output) => output.answers?.name ?? (output.callId !== undefined ? `"${output.callId}"` : '?')))].join(', ');
    const failed = outputs.some((output) => output.isError);
    const text = outputs.length === 1
      ? resultText(this.session.text, first.contentSpan, this.maxText)
      : joinTexts(outputs.map((output) => resultText(this.session.text, output.contentSpan, this.maxText)));
    const item = this.push(step, {
      kind: 'output',
      title: `${this.at(step)} ${failed ? 'error' : 'result'} ← ${tools}`,
      summary: clip(first.result.preview),
      text,
      selection: first.idSpan ?? first.span,
      outputs,
      failed,
    });
    if (call?.name !== undefined) item.toolName = call.name;
    const callId = first.callId ?? call?.id;
    if (callId !== undefined) item.callId = callId;
    const started = call?.step.facts.time;
    const ended = step.facts.time;
    if (started !== undefined && ended !== undefined && ended >= started) item.durationMs = ended - started;
    if (depth) item.depth = depth;
    if (group) item.groupOf = group;
  }

  private assistant(step: RecordStep, message: MessageFacts): void {
    const head = step.messageHead ?? step;
    const calls = step.calls.map((call) => this.call(call));
    const existing = this.messages.get(head);
    if (existing) {
      // A later line of a message written over several lines: its blocks join the message's node.
      existing.span.end = Math.max(existing.span.end, step.span.end);
      existing.parts!.push({ ...step.span });
      existing.calls!.push(...calls);
      this.appendText(existing, step, message);
      return;
    }
    const item = this.push(step, { kind: 'assistant', role: 'assistant', title: `${this.at(step)} assistant`, summary: '', text: { text: '', length: 0 }, calls, parts: [{ ...step.span }] });
    if (step.usage) item.tokens = (step.usage.input ?? 0) + (step.usage.output ?? 0);
    this.messages.set(head, item);
    this.appendText(item, step, message);
  }

  private appendText(item: GraphItem, step: RecordStep, message: MessageFacts): void {
    const added = this.messageText(step, message);
    if (added.length === 0) return;
    const joined = item.text.text ? `${item.text.text}\n\n${added.text}` : added.text;
    item.text = { text: joined.slice(0, this.maxText), length: item.text.length + (item.text.length > 0 ? 2 : 0) + added.length };
    if (!item.summary) {
      const first = message.blocks.find((block) => block.type === 'text' && block.preview);
      if (first?.preview) item.summary = clip(first.preview);
    }
  }

  private call(call: SessionCall): GraphCall {
    const input = call.inputSpan;
    const source = input ? this.session.text.slice(input.start, Math.min(input.end, input.start + this.maxText)) : '';
    return {
      call,
      title: callTitle(call, 60),
      summary: input ? compactObject(source, summaryLength) : '',
      text: { text: source, length: input ? input.end - input.start : 0 },
      selection: call.nameSpan ?? call.idSpan ?? call.span,
    };
  }

  /** The texts of a message: a string content, else its text blocks (thinking marked), joined. */
  private messageText(step: RecordStep, message: MessageFacts): GraphText {
    const text = this.session.text;
    const line = step.line;
    if (message.text !== undefined && message.contentSpan) return decoded(text, line.start + message.contentSpan.start, line.start + message.contentSpan.end, this.maxText);
    const parts: GraphText[] = [];
    for (const block of message.blocks) {
      if (!block.textSpan) continue;
      const part = decoded(text, line.start + block.textSpan.start, line.start + block.textSpan.end, this.maxText);
      parts.push(block.type === 'thinking' ? { text: `(thinking) ${part.text}`, length: part.length + 11 } : part);
    }
    return joinTexts(parts);
  }

  /** A subagent's message, echoed by a progress record: drawn indented, in the group of the Task call that ran it. */
  private echo(step: RecordStep, run: SubagentRun): void {
    const echo = step.facts.progress!.echo!;
    const message = echo.message;
    if (!message) return;
    const outputs = run.outputs.filter((output) => output.step === step);
    if (outputs.length > 0 && outputs.length === message.blocks.length) {
      this.results(step, outputs, 1, run.call);
      return;
    }
    const calls = run.calls.filter((call) => call.step === step).map((call) => this.call(call));
    const role = echo.type === 'assistant' ? 'assistant' : 'user';
    const item = this.push(step, {
      kind: role,
      role,
      title: `${this.at(step)} subagent ${role}`,
      summary: clip(message.text ?? message.blocks.find((block) => block.preview)?.preview ?? ''),
      text: this.messageText(step, message),
      calls,
      depth: 1,
      groupOf: run.call,
    });
    if (calls.length === 0) delete item.calls;
  }
}

function textOf(text: string): GraphText {
  return { text, length: text.length };
}

function clip(text: string): string {
  return text.length > summaryLength ? `${text.slice(0, summaryLength - 1)}…` : text;
}

function decoded(text: TextSource, start: number, end: number, max: number): GraphText {
  const value = decodeJsonString(text, start + 1, end - 1, max);
  return { text: value, length: value.length < max ? value.length : end - start - 2 };
}

function joinTexts(parts: GraphText[]): GraphText {
  return { text: parts.map((part) => part.text).join('\n\n'), length: parts.reduce((sum, part) => sum + part.length, 0) + Math.max(0, parts.length - 1) * 2 };
}
