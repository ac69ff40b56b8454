/**
 * A file of spans as Invariant traces, one per trace it holds, for guardrail rules and `agent-traces convert`.
 * Invariant's gateway has no conversion of OpenTelemetry spans, so this mapping is ours, kept as close as it can be to
 * the Chat Completions messages the same run would have been. The spans are read in the order they ran (by start
 * time); a model span gives its input first, then its output:
 * - the input's messages (`gen_ai.system_instructions` first) → `{role, content}` with the role as written, content
 *   one text → that string, several → `[{type: "text", text}]`; a message the run already gave (each model span
 *   repeats the history) is not given again;
 * - a tool call (a `tool_call` part, an OpenAI `tool_calls` entry, any-agent's `{"tool.name", "tool.args"}`) →
 *   `{role: "assistant", content: null, tool_calls: [{id, type: "function", function: {name, arguments}}]}`, one
 *   event per call (as the gateway converts parallel Anthropic calls); a call without an id takes its result's id,
 *   else `span<N>.call<K>` (its span's index and its place in it), so the analyzer links it to the result the editor
 *   links it to;
 * - a result (an `execute_tool` span, a `tool_call_response` part) → `{role: "tool", content, tool_call_id,
 *   metadata: {error}}`, the error a failed tool span's (see errorOf), else null; a tool span no model span asked for
 *   gives its call, then its result;
 * - a model's reasoning (`reasoning` and `thinking` parts) is left out, as the gateway leaves out Anthropic's thinking.
 * Values written inside JSON strings (the messages) are made values spanning the characters they were read from; a
 * value written as itself (any-agent's text output, an OTLP `stringValue`) keeps its exact characters.
 */
import type { JsonNode } from '../json/nodes';
import type { Span } from '../common/types';
import { brokenJson, event, madeArray, madeNull, madeObject, madeString, original, type ConvertedTrace, type Sourced, type SourcedEvent } from '../calls/sourcedEvents';
import type { ReadMessage } from './messages';
import { isDecoded } from '../json/nodes';
import { plainValue } from './text';
import { byTime } from './tree';
import type { SpanCall, SpanOutput, SpansModel, SpanStep, SpanTrace } from './types';
import { spanOf } from '../common/spans';
import { attributeString } from './attributes';

export function spansTraces(model: SpansModel): ConvertedTrace[] {
  const { text } = model;
  const omittedLines = model.omittedLines;
  if (model.steps.length === 0 && model.errors.length > 0) {
    return [{ start: 0, end: text.length, events: [], skippedLines: [], omittedLines, unreadable: brokenJson(text, model.errors[0]) }];
  }
  const skippedLines = model.lines ? linesOf(text, model.errors.map((error) => error.start)) : [];
  return model.traces.map((trace) => {
    const start = Math.min(...trace.steps.map((step) => step.span.start));
    const end = Math.max(...trace.steps.map((step) => step.span.end));
    const converted: ConvertedTrace = { start: model.traces.length === 1 ? 0 : start, end: model.traces.length === 1 ? text.length : end, events: traceEvents(text, trace), skippedLines, omittedLines };
    if (model.traces.length > 1 && model.lines) converted.line = linesOf(text, [start])[0];
    return converted;
  });
}

function traceEvents(text: string, trace: SpanTrace): SourcedEvent[] {
  const events: SourcedEvent[] = [];
  const given = new Set<string>();
  const ids = new Map<SpanCall, string>();
  const idOf = (call: SpanCall): string => {
    let id = ids.get(call);
    if (id === undefined) {
      id = call.id ?? call.outputs.find((output) => output.callId !== undefined)?.callId ?? `span${call.step.index}.call${call.step.calls.indexOf(call)}`;
      ids.set(call, id);
    }
    return id;
  };
  for (const step of [...trace.steps].sort(byTime)) {
    if (step.role === 'tool') {
      for (const output of step.heldOutputs) {
        if (output.ownCall && output.answers) events.push(callEvent(text, output.answers, idOf(output.answers)));
        events.push(resultEvent(text, output, output.answers ? idOf(output.answers) : output.callId));
      }
      continue;
    }
    for (const message of step.input) messageEvents(text, step, message, given, events, idOf);
    for (const message of step.output) messageEvents(text, step, message, given, events, idOf);
  }
  return events;
}

function messageEvents(text: string, step: SpanStep, message: ReadMessage, given: Set<string>, events: SourcedEvent[], idOf: (call: SpanCall) => string): void {
  if (message.texts.length > 0) {
    const key = JSON.stringify([message.role, message.texts.map((node) => plainValue(node))]);
    if (!given.has(key)) {
      given.add(key);
      const at = message.span;
      const content = message.texts.length === 1
        ? sourced(text, message.texts[0])
        : madeArray(at, message.texts.map((node) => madeObject(spanOf(node), [['type', madeString('text', spanOf(node))], ['text', sourced(text, node)]])));
      events.push(event(at, [['role', madeString(message.role ?? 'user', message.roleSpan ?? at)], ['content', content]]));
    }
  }
  for (const part of message.toolCalls) {
    const call = step.calls.find((candidate) => candidate.span.start === part.span.start && candidate.span.end === part.span.end);
    if (call) events.push(callEvent(text, call, idOf(call)));
  }
  for (const part of message.toolResponses) {
    const output = step.heldOutputs.find((candidate) => candidate.span.start === part.span.start && candidate.span.end === part.span.end);
    if (output) events.push(resultEvent(text, output, output.answers ? idOf(output.answers) : output.callId));
  }
}

function callEvent(text: string, call: SpanCall, id: string): SourcedEvent {
  const at = call.span;
  const idValue = call.idSpan && call.id === id ? madeString(id, call.idSpan) : madeString(id, call.nameSpan ?? at);
  const name = madeString(call.name ?? '', call.nameSpan ?? at);
  const fn = madeObject(at, [['name', name], ['arguments', call.args ? argumentsOf(text, call.args) : madeObject(at, [])]]);
  const toolCall = madeObject(at, [['id', idValue], ['type', madeString('function', at)], ['function', fn]]);
  return event(at, [['role', madeString('assistant', at)], ['content', madeNull(at)], ['tool_calls', madeArray(at, [toolCall])]]);
}

/**
 * A call's arguments. A JSON string written inside another JSON string (any-agent's `"tool.args"` in a model's output)
 * is given as the object it holds, made at the string's characters: the analyzer would parse it, and a place inside
 * it cannot be found through two levels of escapes.
 */
function argumentsOf(text: string, args: JsonNode): Sourced {
  if (args.type !== 'string' || !isDecoded(args)) return sourced(text, args);
  let parsed: unknown;
  try {
    parsed = JSON.parse(args.value);
  } catch {
    return sourced(text, args);
  }
  return parsed !== null && typeof parsed === 'object' ? madeValue(parsed, spanOf(args)) : sourced(text, args);
}

/** A plain value as made nodes, all at `at`. */
function madeValue(value: unknown, at: Span): Sourced {
  if (value === null) return madeNull(at);
  if (Array.isArray(value)) return madeArray(at, value.map((item) => madeValue(item, at)));
  if (typeof value === 'object') return madeObject(at, Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, madeValue(item, at)] as [string, Sourced]));
  if (typeof value === 'string') return madeString(value, at);
  const node: JsonNode = typeof value === 'number' ? { type: 'number', start: at.start, end: at.end, raw: JSON.stringify(value) } : { type: 'boolean', start: at.start, end: at.end, value: value as boolean };
  return { value, node };
}

function resultEvent(text: string, output: SpanOutput, id: string | undefined): SourcedEvent {
  const at = output.span;
  const fields: [string, Sourced][] = [
    ['role', madeString('tool', at)],
    ['content', output.result && output.result.type !== 'null' ? sourced(text, output.result) : madeString('', at)],
  ];
  if (id !== undefined) fields.push(['tool_call_id', madeString(id, output.idSpan ?? output.linkSpan)]);
  fields.push(['metadata', madeObject(at, [['error', errorOf(output)]])]);
  return event(at, fields);
}

/**
 * A failed tool span's error, as Inspect logs carry theirs: `{type, message}`, the type from `error.type` (else
 * "error"), the message from the span's status. The analyzer's ToolOutput has no `error`; it keeps an event's
 * `metadata`, where a rule reads it, null when the tool did not fail, so that `out.metadata.error` is never missing.
 */
function errorOf(output: SpanOutput): Sourced {
  if (!output.isError) return madeNull(output.span);
  const step = output.step;
  const type = step.attributes.get('error.type');
  const at = step.statusSpan ?? output.span;
  const fields: [string, Sourced][] = [['type', madeString(attributeString(type) ?? 'error', type?.value ? spanOf(type.value) : at)]];
  if (step.statusMessage !== undefined) fields.push(['message', madeString(step.statusMessage, at)]);
  return madeObject(at, fields);
}

/**
 * A value of the file: its own node where its characters are a JSON literal of it, else (a value decoded from inside
 * a JSON string, an OTLP AnyValue) a made value spanning the characters it was read from.
 */
function sourced(text: string, node: JsonNode): Sourced {
  if (!isDecoded(node)) return original(text, node);
  switch (node.type) {
    case 'object':
      return madeObject(spanOf(node), node.properties.filter((p) => p.value).map((p) => [p.key, sourced(text, p.value!)] as [string, Sourced]));
    case 'array':
      return madeArray(spanOf(node), node.items.map((item) => sourced(text, item)));
    case 'string':
      return madeString(node.value, spanOf(node));
    case 'null':
      return madeNull(spanOf(node));
    default:
      return original(text, node);
  }
}

/** The 1-based lines of offsets, in order. */
function linesOf(text: string, offsets: number[]): number[] {
  const sorted = [...offsets].sort((a, b) => a - b);
  const lines: number[] = [];
  let line = 1;
  let at = 0;
  for (const offset of sorted) {
    for (let i = text.indexOf('\n', at); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      at = i + 1;
    }
    if (lines[lines.length - 1] !== line) lines.push(line);
  }
  return lines;
}
