import type { Span } from '../common/types';
import type { GuardrailError } from '../guardrail/evaluate';
import { convertedTraceSpans, traceSpans, traceSpansInSteps } from '../guardrail/evaluate/traceSpans';
import type { ConvertedTrace, TraceLayout } from '../traceFormats';
import { sliceFromLength, type Steps } from '../common/steps';

/** Milliseconds of reading a big trace's addresses between two points where its evaluation may pause. */
const addressStepMs = 2;

/**
 * The traces a document holds, as the editor and `agent-traces eval` both read them: a trace file is one trace, a
 * dataset (JSON Lines) one per line that holds a trace. A value holds a trace when it is a list (the events) or an
 * object with `messages` (whatever that is: a `messages` that is not a list fails the evaluation with the
 * analyzer's own cause). A dataset line without one (a metadata line) is skipped; a trace file without one is
 * reported, since it was named to be evaluated.
 */
export interface TraceText {
  /** The value's characters in the document. */
  start: number;
  end: number;
  /** Where the search for the next trace starts (the next line of a dataset; the end of a trace file). */
  next: number;
  /** 1-based line of a dataset line; undefined for a trace file. */
  line?: number;
  /** What to evaluate, when the text is a trace. */
  trace?: unknown;
  /** Why it is not evaluated, otherwise. */
  problem?: { kind: 'not-json'; detail: string } | { kind: 'no-trace' };
  /**
   * For a trace converted from another format (a Claude Code session, a Codex rollout, a conversation): where each address lands in the original
   * text, and the lines left out of the conversion (1-based: broken ones; then a count past the line limit).
   */
  converted?: { spanOf: (address: string) => Span; skippedLines: number[]; omittedLines: number };
}

/** The trace in a parsed value: a list of events, or the `messages` of an object; undefined when it holds none. */
export function traceOf(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, 'messages')) return (value as { messages: unknown }).messages;
  return undefined;
}

/** Where an evaluation of a document goes on: the next trace's search, and how many traces came before it. */
export interface ResumePoint {
  /** A character offset: the start of a dataset line, or past the end of a trace file. */
  offset: number;
  /** The 1-based line number of `offset` in a dataset. */
  line: number;
  /** Traces read before `offset`. */
  traces: number;
}

/**
 * The traces of a document laid out as `layout` says (traceFormats.ts): a trace file is one, a dataset one per line
 * that holds a trace, and a file of another format (a Claude Code session, a Codex rollout, a conversation) those its
 * conversion gives, each address of a violation landing on the file's own characters. `path` (a path or URI) may
 * decide how a converted format reads the text.
 */
export function* tracesInText(text: string, layout: TraceLayout, path = '', from?: Pick<ResumePoint, 'offset' | 'line'>): Generator<TraceText> {
  if (layout === 'trace') {
    if ((from?.offset ?? 0) === 0) yield read(text, 0, text.length, text.length + 1, undefined);
    return;
  }
  if (layout !== 'dataset') {
    yield* convertedTraces(text, layout.traces(text, path), from?.offset ?? 0);
    return;
  }
  let lineStart = from?.offset ?? 0;
  for (let line = from?.line ?? 1; lineStart <= text.length; line++) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const contentEnd = text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd;
    if (text.slice(lineStart, contentEnd).trim() !== '') {
      const found = read(text, lineStart, contentEnd, lineEnd + 1, line);
      if (found.problem?.kind !== 'no-trace') yield found;
    }
    lineStart = lineEnd + 1;
  }
}

/** The converted traces from `from` on (an evaluation that goes on after an ended attempt skips those before it). */
function* convertedTraces(text: string, traces: Iterable<ConvertedTrace>, from: number): Generator<TraceText> {
  // One trace ahead, for where the search for the next one starts.
  const iterator = traces[Symbol.iterator]();
  for (let ahead = iterator.next(); !ahead.done;) {
    const trace = ahead.value;
    ahead = iterator.next();
    const { start, end, line } = trace;
    if (start < from) continue;
    const next = ahead.done ? text.length + 1 : ahead.value.start;
    const at = { start, end, next, ...(line !== undefined ? { line } : {}) };
    if (trace.unreadable !== undefined) {
      yield { ...at, problem: { kind: 'not-json', detail: trace.unreadable } };
      continue;
    }
    const spanOf = convertedTraceSpans(text, trace.events, { start, end });
    yield { ...at, trace: trace.events.map((event) => event.value), converted: { spanOf, skippedLines: trace.skippedLines, omittedLines: trace.omittedLines } };
  }
}

/** The trace the JSON value in text[start, end) holds (a dataset line's: `line`), or why it holds none. */
export function traceInSpan(text: string, start: number, end: number, line?: number): TraceText {
  return read(text, start, end, end, line);
}

function read(text: string, start: number, end: number, next: number, line: number | undefined): TraceText {
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end));
  } catch (error) {
    return { start, end, next, line, problem: { kind: 'not-json', detail: (error as Error).message } };
  }
  const trace = traceOf(value);
  return trace === undefined ? { start, end, next, line, problem: { kind: 'no-trace' } } : { start, end, next, line, trace };
}

/**
 * Where an error goes in the document: its most precise range (the shortest in the text, the first of equals: a
 * substring before the whole event), or `fallback` when it has no range. The text's addresses are resolved once
 * per trace, on the first error placed (or by readAddresses, for a caller that makes it a step of its own).
 */
export class ErrorPlacer {
  private spanOf: ((address: string) => Span) | undefined;

  constructor(private readonly text: string, private readonly trace: Pick<TraceText, 'start' | 'end' | 'trace' | 'converted'>) {}

  get addressesRead(): boolean {
    return this.spanOf !== undefined;
  }

  private readAddresses(): (address: string) => Span {
    this.spanOf ??= this.trace.converted?.spanOf ?? traceSpans(this.text, this.trace.start, this.trace.end);
    return this.spanOf;
  }

  /** readAddresses as steps of a few milliseconds for a big trace (read at once, it held the server up to 250 ms). */
  *readAddressesInSteps(stepMs = addressStepMs): Steps<void> {
    if (this.spanOf) return;
    if (this.trace.converted || this.trace.end - this.trace.start < sliceFromLength) this.readAddresses();
    else this.spanOf = yield* traceSpansInSteps(this.text, this.trace.start, this.trace.end, stepMs);
  }

  /** The characters an official address names in the document (its nearest enclosing value when it is not there). */
  addressSpan(address: string): Span {
    return this.readAddresses()(address);
  }

  place(error: Pick<GuardrailError, 'placeRanges'>, fallback: Span): Span {
    return this.placeWithOthers(error, fallback).best;
  }

  /**
   * The error's place (its smallest range), and the places of the other elements it binds: its other ranges, less
   * those that hold the place (the message a matched substring lies in) and repeats, in the order of the trace.
   */
  placeWithOthers(error: Pick<GuardrailError, 'placeRanges'>, fallback: Span): { best: Span; others: Span[] } {
    const ranges = error.placeRanges();
    if (ranges.length === 0) return { best: fallback, others: [] };
    const spanOf = this.readAddresses();
    const spans = ranges.map(spanOf);
    let best = spans[0];
    for (const span of spans) if (span.end - span.start < best.end - best.start) best = span;
    const others = new Map<number, Span>();
    for (const span of spans) {
      if (span.start <= best.start && best.end <= span.end) continue;
      if (!others.has(span.start)) others.set(span.start, span);
    }
    return { best, others: [...others.values()].sort((a, b) => a.start - b.start) };
  }
}

/** The trace's first line: where a violation without ranges, or a notice about the whole trace, is shown. */
export function firstLineOf(text: string, trace: TraceText): Span {
  const lineEnd = text.indexOf('\n', trace.start);
  return { start: trace.start, end: Math.min(trace.end, lineEnd < 0 ? trace.end : lineEnd) };
}

export const noTraceMessage = 'it holds no trace (a list of events, or an object with messages)';
