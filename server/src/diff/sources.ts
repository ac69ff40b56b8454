/**
 * The traces a document holds, as the diff reads them, with where each step and field is in the text: a trace
 * file (`*.trace.json`, any `.json` holding a list of events or an object with `messages`), one line of a dataset
 * (JSON Lines), or an agentguard log (each logged call a step). Every other format joins here through its
 * conversion to Invariant events (the one rules are evaluated on), which is what makes a session and its
 * conversion diff as equal.
 */
import type { Span } from '../common/types';
import { valueSpans, traceSpans } from '../guardrail/evaluate/traceSpans';
import type { JsonNode } from '../json/nodes';
import { property } from '../json/queries';
import { parseJsonValue } from '../json/readJson';
import { detectJsonLinesFormat } from '../jsonl';
import { languageForFile } from '../languages';
import { tracesInText, type TraceText } from '../rulesOnTraces/tracesInText';
import { isConverted, traceLayout, type TraceFormat } from '../traceFormats';
import type { TraceInput } from './diff';
import { spanOf } from '../common/spans';

export interface TraceSource {
  input: TraceInput;
  /** The document's text. */
  text: string;
  /** What the source is, in messages: `line 3`, or undefined for a whole file. */
  part?: string;
  /** Where step `index` is in the text, or the field at `path` in it (the nearest enclosing value that is there). */
  locate(index: number, path?: string): Span;
  /** The whole step, and what a click on it selects: its role, its tool's name, the id of the call it answers. */
  stepSpans(index: number): { range: Span; selection: Span };
  /** What was left out in reading it (lines that are not JSON, lines past the limit), in words for a notice. */
  notices: string[];
  /** Some of it was not read (lines past the limit): the comparison covers part of the file. */
  incomplete: boolean;
}

export type SourceRead = { ok: true; source: TraceSource } | { ok: false; reason: string };

/**
 * How a document holds traces: one (a trace file), one per line (a dataset), a log of calls (agentguard), or a file
 * of another format that converts to Invariant events (traceFormats.ts: a Claude Code session, a Codex rollout, an
 * Anthropic or OpenAI Responses conversation), compared as the trace it converts to.
 */
export type SourceLayout = 'trace' | 'dataset' | 'agentguard' | 'converted';

/**
 * The layout of a document by its name and content, as the editor decides its language; a name the editor would
 * not give one of ours (a `git:` copy, a `.txt` export) is read by content.
 */
export function layoutOf(path: string, text: string): SourceLayout | undefined {
  const language = languageForFile(path, text);
  if (language === 'agent-trace') return 'trace';
  const format = detectJsonLinesFormat(text);
  // Every other format is compared through its conversion to events, the trace rules are evaluated on.
  if (convertedFormat(path, text)) return convertedTrace(path, text) ? 'converted' : undefined;
  if (language === 'agent-trace-jsonl') return format === 'agentguard' ? 'agentguard' : 'dataset';
  if (language === 'guardrail') return undefined;
  // A pretty-printed trace under a name that says nothing (an untitled document) opens with a line that is no
  // value of its own: a dataset's first line is one.
  if (format === 'dataset' && !firstLineIsValue(text)) return 'trace';
  if (format === 'agentguard' || format === 'dataset') return format;
  return /^\uFEFF?\s*[[{]/.test(text) ? 'trace' : undefined;
}

/**
 * The format a file converts from, by its language as the editor decides it; a name that says nothing (a `git:`
 * copy, an untitled document) is decided by content, as a JSON Lines file for an agent's own log.
 */
export function convertedFormat(path: string, text: string): TraceFormat | undefined {
  const language = languageForFile(path, text) ?? (detectJsonLinesFormat(text) ? 'agent-trace-jsonl' : undefined);
  const layout = traceLayout(language, text);
  return isConverted(layout) ? layout : undefined;
}

function firstLineIsValue(text: string): boolean {
  const first = contentLines(text).next();
  return !first.done && parse(text, first.value.start, first.value.end).ok;
}

/** The last conversion made: deciding a file's layout converts it, and reading it then takes the same. */
let lastConverted: { path: string; text: string; trace: TraceText | undefined; traces: number } | undefined;

/**
 * The first trace a file in another format converts to (the one `agent-traces convert` writes), if it converts,
 * and how many it holds.
 */
function convertedTrace(path: string, text: string): TraceText | undefined {
  if (lastConverted?.text !== text || lastConverted.path !== path) {
    const format = convertedFormat(path, text);
    const found = format ? [...tracesInText(text, format, path)] : [];
    const first = found[0];
    lastConverted = { path, text, trace: first?.converted && Array.isArray(first.trace) ? first : undefined, traces: found.length };
  }
  return lastConverted.trace;
}

/** The events in a parsed value: a list of events, or the `messages` list of an object. */
function eventsIn(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && value !== null && Array.isArray((value as { messages?: unknown }).messages)) return (value as { messages: unknown[] }).messages;
  return undefined;
}

const notATrace = 'it holds no trace (a list of events, or an object with a "messages" list)';

function parse(text: string, start: number, end: number): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text.slice(start, end)) };
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A whole file holding one trace. */
export function traceFileSource(text: string): SourceRead {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const read = parse(text, start, text.length);
  if (!read.ok) return read;
  const events = eventsIn(read.value);
  if (!events) return { ok: false, reason: notATrace };
  return { ok: true, source: eventSource(text, start, text.length, events, undefined) };
}

function eventSource(text: string, start: number, end: number, events: unknown[], part: string | undefined): TraceSource {
  let spanOfAddress: ((address: string) => Span) | undefined;
  let eventNodes: JsonNode[] | undefined;
  return {
    input: { format: 'events', values: events },
    text,
    part,
    notices: [],
    incomplete: false,
    locate(index, path) {
      spanOfAddress ??= traceSpans(text, start, end);
      return spanOfAddress(path ? `messages.${index}.${path}` : `messages.${index}`);
    },
    stepSpans(index) {
      if (!eventNodes) {
        const root = parseJsonValue(text, start, end).root;
        const list = root?.type === 'array' ? root : property(root, 'messages')?.value;
        eventNodes = list?.type === 'array' ? list.items : [];
      }
      const node = eventNodes[index];
      if (!node) return { range: { start, end: start }, selection: { start, end: start } };
      let selected: JsonNode | undefined = node;
      for (const key of selectionPath(events[index]).split('.').filter(Boolean)) {
        selected = /^\d+$/.test(key) && selected?.type === 'array' ? selected.items[Number(key)] : property(selected, key)?.value;
      }
      return { range: spanOf(node), selection: selected && selected !== node ? spanOf(selected) : { start: node.start, end: node.start } };
    },
  };
}

/**
 * A converted trace: its events as the conversion gives them, each step and field located in the original file
 * (the session's own characters), and the lines the conversion left out said.
 */
function convertedSource(text: string, trace: TraceText, traces: number): TraceSource {
  const events = trace.trace as unknown[];
  const spanOf = trace.converted!.spanOf;
  const { skippedLines, omittedLines } = trace.converted!;
  const notices: string[] = [];
  if (traces > 1) notices.push(`it holds ${traces} conversations: the first is compared (agent-traces convert --out FILE.jsonl writes each as a line of a dataset)`);
  if (skippedLines.length > 0) notices.push(`${linesText(skippedLines)} left out: not valid JSON`);
  if (omittedLines > 0) notices.push(`the last ${omittedLines} lines left out: past the limit of lines read`);
  return {
    input: { format: 'events', values: events },
    text,
    notices,
    incomplete: omittedLines > 0,
    locate: (index, path) => spanOf(path ? `messages.${index}.${path}` : `messages.${index}`),
    stepSpans(index) {
      const range = spanOf(`messages.${index}`);
      const path = selectionPath(events[index]);
      const selection = path ? spanOf(`messages.${index}.${path}`) : { start: range.start, end: range.start };
      return { range, selection };
    },
  };
}

/**
 * What a click on a step selects, as a path in its event: a message's first call's tool name (else its role), an
 * output's `tool_call_id`, a call's tool name; '' for none of these.
 */
function selectionPath(event: unknown): string {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return '';
  const value = event as Record<string, unknown>;
  const has = (key: string) => Object.prototype.hasOwnProperty.call(value, key);
  const calls = value.tool_calls;
  const firstCall = Array.isArray(calls) ? (calls[0] as { function?: { name?: unknown } } | undefined) : undefined;
  if (typeof value.role === 'string' && !has('tool_call_id')) return firstCall?.function?.name !== undefined ? 'tool_calls.0.function.name' : 'role';
  if (has('tool_call_id')) return 'tool_call_id';
  const call = value.function;
  if (typeof call === 'object' && call !== null && Object.prototype.hasOwnProperty.call(call, 'name')) return 'function.name';
  return has('role') ? 'role' : '';
}

function linesText(lines: number[]): string {
  const shown = lines.slice(0, 5).join(', ') + (lines.length > 5 ? `, … (${lines.length} in all)` : '');
  return `line${lines.length === 1 ? '' : 's'} ${shown}`;
}

export interface TextLine {
  /** 1-based, as editors and `agent-traces eval` number lines. */
  number: number;
  start: number;
  end: number;
}

/** The lines of a text that are not blank, with their bounds (line breaks and a final CR left out). */
export function* contentLines(text: string): Generator<TextLine> {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let number = 1; start <= text.length; number++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const next = end + 1;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    if (!isBlank(text, start, end)) yield { number, start, end };
    start = next;
  }
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0xfeff) return false;
  }
  return true;
}

/** A dataset line: the trace it holds; a line that is not JSON, or holds no trace (a metadata row), is refused. */
export function datasetLineSource(text: string, line: TextLine): SourceRead {
  const read = parse(text, line.start, line.end);
  if (!read.ok) return { ok: false, reason: `line ${line.number}: ${read.reason}` };
  const events = eventsIn(read.value);
  if (!events) return { ok: false, reason: `line ${line.number}: ${notATrace}` };
  return { ok: true, source: eventSource(text, line.start, line.end, events, `line ${line.number}`) };
}

/** The lines of a dataset that hold traces (a metadata row and blank lines are none); broken lines are kept to be reported. */
export function datasetLines(text: string): TextLine[] {
  const lines: TextLine[] = [];
  for (const line of contentLines(text)) {
    const read = parse(text, line.start, line.end);
    if (read.ok && !eventsIn(read.value)) continue;
    lines.push(line);
  }
  return lines;
}

/** The line with this number, when it is not blank. */
export function lineNumbered(text: string, number: number): TextLine | undefined {
  for (const line of contentLines(text)) {
    if (line.number === number) return line;
    if (line.number > number) break;
  }
  return undefined;
}

/** An agentguard log: each line a logged call (a line that is not JSON is left out, and said). */
export function agentguardSource(text: string): SourceRead {
  const entries: unknown[] = [];
  const lines: TextLine[] = [];
  const skipped: number[] = [];
  for (const line of contentLines(text)) {
    const read = parse(text, line.start, line.end);
    if (!read.ok) {
      skipped.push(line.number);
      continue;
    }
    entries.push(read.value);
    lines.push(line);
  }
  const spans = new Map<number, (path: string) => Span>();
  const spanIn = (index: number, path: string): Span => {
    const line = lines[index];
    let spanOf = spans.get(index);
    if (!spanOf) {
      if (spans.size > 64) spans.clear();
      spanOf = valueSpans(text, line.start, line.end);
      spans.set(index, spanOf);
    }
    return spanOf(path);
  };
  const source: TraceSource = {
    input: { format: 'agentguard', values: entries },
    text,
    notices: skipped.length > 0 ? [`${linesText(skipped)} left out: not valid JSON`] : [],
    incomplete: false,
    locate(index, path) {
      const line = lines[index];
      if (!line) return { start: text.length, end: text.length };
      return path ? spanIn(index, path) : { start: line.start, end: line.end };
    },
    stepSpans(index) {
      const line = lines[index];
      if (!line) return { range: { start: text.length, end: text.length }, selection: { start: text.length, end: text.length } };
      const selection = spanIn(index, 'call.tool_name');
      return { range: { start: line.start, end: line.end }, selection };
    },
  };
  return { ok: true, source };
}

/** Why a document that is not one of the layouts the diff reads cannot be compared. */
export function notComparable(path: string, text: string): string {
  const format = convertedFormat(path, text);
  return format ? `${format.name} that holds no conversation to compare` : 'not a trace file, dataset, agentguard log or conversation of a format read here';
}

/** What a document of a layout is, in messages. */
export function layoutName(layout: SourceLayout, path: string, text: string): string {
  if (layout === 'converted') return convertedFormat(path, text)?.name ?? 'a conversation';
  return layout === 'trace' ? 'a trace file' : layout === 'dataset' ? 'a dataset' : 'an agentguard log';
}

/**
 * The trace of a document to compare: a trace file, an agentguard log, a Claude Code session (its conversion), or
 * one line of a dataset (`line`, 1-based; the first trace line when absent).
 */
export function traceSource(path: string, text: string, line?: number): SourceRead {
  const layout = layoutOf(path, text);
  if (!layout) return { ok: false, reason: notComparable(path, text) };
  if (line !== undefined && layout !== 'dataset') return { ok: false, reason: `it is ${layoutName(layout, path, text)}, not a dataset: a line number applies to datasets` };
  if (layout === 'trace') return traceFileSource(text);
  if (layout === 'agentguard') return agentguardSource(text);
  if (layout === 'converted') {
    const converted = convertedTrace(path, text);
    return converted ? { ok: true, source: convertedSource(text, converted, lastConverted?.traces ?? 1) } : { ok: false, reason: notComparable(path, text) };
  }
  const chosen = line === undefined ? datasetLines(text)[0] : lineNumbered(text, line);
  if (!chosen) return { ok: false, reason: line === undefined ? 'the dataset holds no trace' : `it has no line ${line} holding a trace` };
  return datasetLineSource(text, chosen);
}
