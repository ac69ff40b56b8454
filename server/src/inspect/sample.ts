/**
 * One sample of an Inspect log read into the model of linked calls: each of its `messages` is a step; an assistant
 * message's `tool_calls` are its calls, and a `tool` message is the output naming its call by `tool_call_id` (one
 * naming none answers the latest call before it, as the Invariant analyzer links it). The sample's `events` give
 * the time and tokens: a `model` event's completion time and usage go to the assistant message it produced, a
 * `tool` event's completion time to the tool message answering its call.
 */
import type { Span } from '../common/types';
import { CallLinker } from '../calls/links';
import { inspectFormat } from './format';
import type { JsonNode } from '../json/nodes';
import { numberValue, propertyValue, stringValue } from '../json/queries';
import type { TokenUsage } from '../calls/model';
import { conversationTotals, type ConversationTotals } from '../calls/timing';
import type { MessageStep, SampleCall, SampleEntry, SampleOutput, SampleTrace } from './types';
import { spanOf } from '../common/spans';

export function readSampleTrace(text: string, sample: SampleEntry): SampleTrace {
  const messages = propertyValue(sample.node, 'messages');
  const attachments = propertyValue(sample.node, 'attachments');
  const trace: SampleTrace = {
    text, sample, steps: [], calls: [], outputs: [], callsById: new Map(), outputsByCallId: new Map(), format: inspectFormat,
    ...(messages?.type === 'array' ? { messages } : {}),
    ...(attachments?.type === 'object' ? { attachments } : {}),
  };
  const usage = sampleUsage(sample.node);
  if (usage) (trace as { usage?: TokenUsage }).usage = usage;
  if (messages?.type !== 'array') return trace;
  const linker = new CallLinker<SampleCall, SampleOutput>(trace);
  for (const node of messages.items) addMessage(trace, linker, node);
  addTiming(trace, propertyValue(sample.node, 'events'));
  return trace;
}

function addMessage(trace: SampleTrace, linker: CallLinker<SampleCall, SampleOutput>, node: JsonNode): void {
  const role = stringValue(propertyValue(node, 'role'));
  const content = propertyValue(node, 'content');
  const step: MessageStep = { index: trace.steps.length, span: spanOf(node), node, calls: [], heldOutputs: [], ...(role !== undefined ? { role } : {}), ...(content ? { content } : {}) };
  trace.steps.push(step);
  if (role === 'assistant') {
    const toolCalls = propertyValue(node, 'tool_calls');
    if (toolCalls?.type !== 'array') return;
    for (const callNode of toolCalls.items) {
      if (callNode.type !== 'object') continue;
      const id = propertyValue(callNode, 'id');
      const name = propertyValue(callNode, 'function');
      const args = propertyValue(callNode, 'arguments');
      const parseError = propertyValue(callNode, 'parse_error');
      const call: SampleCall = {
        index: 0, step, node: callNode, span: spanOf(callNode), outputs: [],
        ...(id?.type === 'string' ? { id: id.value, idSpan: spanOf(id) } : {}),
        ...(name?.type === 'string' ? { name: name.value, nameSpan: spanOf(name) } : {}),
        ...(args ? { args } : {}),
        ...(parseError && parseError.type !== 'null' ? { parseError } : {}),
      };
      step.calls.push(call);
      linker.call(call);
    }
  } else if (role === 'tool') {
    const id = propertyValue(node, 'tool_call_id');
    const tool = stringValue(propertyValue(node, 'function'));
    const error = toolError(propertyValue(node, 'error'));
    const output: SampleOutput = {
      index: step.index, step, span: step.span, linkSpan: id && id.type !== 'null' ? spanOf(id) : roleSpan(node) ?? { start: node.start, end: node.start + 1 },
      answers: null, implicit: false, isError: error !== undefined,
      ...(id?.type === 'string' ? { callId: id.value, idSpan: spanOf(id) } : {}),
      ...(content ? { content } : {}),
      ...(tool !== undefined ? { tool } : {}),
      ...(error ? { error } : {}),
    };
    step.heldOutputs.push(output);
    linker.output(output, id === undefined || id.type === 'null');
  }
}

function roleSpan(node: JsonNode): Span | undefined {
  const role = propertyValue(node, 'role');
  return role && spanOf(role);
}

function toolError(node: JsonNode | undefined): SampleOutput['error'] {
  if (!node || node.type === 'null') return undefined;
  const error: NonNullable<SampleOutput['error']> = { node };
  const type = stringValue(propertyValue(node, 'type'));
  const message = stringValue(propertyValue(node, 'message')) ?? stringValue(node);
  if (type !== undefined) error.type = type;
  if (message !== undefined) error.message = message;
  return error;
}

/** A sample's events bound what is read for timing: a sample with more is timed by its first ones only. */
const maxTimedEvents = 100_000;

/**
 * Times and tokens from the sample's events. A model event names the message it produced by id
 * (`output.choices[0].message.id`); logs whose messages carry no ids are matched in order, when the sample has as
 * many model events as assistant messages.
 */
function addTiming(trace: SampleTrace, events: JsonNode | undefined): void {
  if (events?.type !== 'array') return;
  const modelEvents: { id?: string; time?: number; usage?: TokenUsage }[] = [];
  const toolTimes = new Map<string, number>();
  for (const event of events.items.slice(0, maxTimedEvents)) {
    const kind = stringValue(propertyValue(event, 'event'));
    if (kind === 'model') {
      const output = propertyValue(event, 'output');
      const message = propertyValue((propertyValue(output, 'choices') as { items?: JsonNode[] } | undefined)?.items?.[0], 'message');
      const found: { id?: string; time?: number; usage?: TokenUsage } = {};
      const id = stringValue(propertyValue(message, 'id'));
      if (id !== undefined) found.id = id;
      const time = completedAt(event, numberValue(propertyValue(output, 'time')));
      if (time !== undefined) found.time = time;
      const usage = readUsage(propertyValue(output, 'usage'));
      if (usage) found.usage = usage;
      modelEvents.push(found);
    } else if (kind === 'tool') {
      const id = stringValue(propertyValue(event, 'id'));
      const time = completedAt(event, numberValue(propertyValue(event, 'working_time')));
      if (id !== undefined && time !== undefined) toolTimes.set(id, time);
    }
  }
  const assistants = trace.steps.filter((step) => step.role === 'assistant');
  const byId = new Map<string, MessageStep>();
  for (const step of assistants) {
    const id = stringValue(propertyValue(step.node, 'id'));
    if (id !== undefined) byId.set(id, step);
  }
  const inOrder = modelEvents.length === assistants.length && modelEvents.every((event) => event.id === undefined || !byId.has(event.id));
  modelEvents.forEach((event, i) => {
    const step = (event.id !== undefined ? byId.get(event.id) : undefined) ?? (inOrder ? assistants[i] : undefined);
    if (!step) return;
    if (event.time !== undefined) step.time = event.time;
    if (event.usage) (step as { usage?: TokenUsage }).usage = event.usage;
  });
  for (const output of trace.outputs) {
    const time = output.callId !== undefined ? toolTimes.get(output.callId) : undefined;
    if (time !== undefined && output.step.time === undefined) output.step.time = time;
  }
}

/** When an event completed: its `completed` time, else its `timestamp` plus the seconds it says it took. */
function completedAt(event: JsonNode, seconds: number | undefined): number | undefined {
  const completed = parseTime(stringValue(propertyValue(event, 'completed')));
  if (completed !== undefined) return completed;
  const started = parseTime(stringValue(propertyValue(event, 'timestamp')));
  return started !== undefined && seconds !== undefined ? started + seconds * 1000 : undefined;
}

function parseTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/** Inspect's `ModelUsage`: input, output and total tokens, the cache reads and the reasoning. */
export function readUsage(node: JsonNode | undefined): TokenUsage | undefined {
  if (node?.type !== 'object') return undefined;
  const usage: TokenUsage = {};
  const read = (key: string) => numberValue(propertyValue(node, key));
  const input = read('input_tokens');
  const output = read('output_tokens');
  const total = read('total_tokens');
  const cached = read('input_tokens_cache_read');
  const reasoning = read('reasoning_tokens');
  if (input !== undefined) usage.input = input;
  if (output !== undefined) usage.output = output;
  if (total !== undefined) usage.total = total;
  if (cached !== undefined) usage.cachedInput = cached;
  if (reasoning !== undefined) usage.reasoning = reasoning;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/**
 * The sample's totals as the outline and the preview show them: the shared ones, with the time the sample ran
 * (`total_time`) where it records it rather than the span between the few messages the events time.
 */
export function sampleTotals(trace: SampleTrace): ConversationTotals {
  const totals = conversationTotals(trace);
  const ran = numberValue(propertyValue(trace.sample.node, 'total_time'));
  if (ran !== undefined) totals.durationMs = ran * 1000;
  else if (totals.durationMs === 0) delete totals.durationMs;
  return totals;
}

/** The sample's `model_usage` summed over its models: the whole sample's tokens. */
export function sampleUsage(sample: JsonNode): TokenUsage | undefined {
  const byModel = propertyValue(sample, 'model_usage');
  if (byModel?.type !== 'object') return undefined;
  let sum: TokenUsage | undefined;
  for (const entry of byModel.properties) {
    const usage = readUsage(entry.value);
    if (!usage) continue;
    sum ??= {};
    for (const key of ['input', 'cachedInput', 'output', 'reasoning', 'total'] as const) {
      if (usage[key] !== undefined) sum[key] = (sum[key] ?? 0) + usage[key]!;
    }
  }
  return sum;
}
