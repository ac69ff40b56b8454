/**
 * OTLP/JSON spans written the way the collector's file exporter writes them (one `{"resourceSpans": [...]}` per line),
 * generated from the documented shapes where the corpus has no real OTLP file. Each builder says which real file it
 * imitates: the runs are any-agent's corpus runs (`otel-any-agent/*_trace.json`: an agent, model spans asking for
 * `get_current_time` then `write_file`, and the tool spans that ran them) written in OTLP with the GenAI conventions'
 * attributes instead of any-agent's.
 */
import { MessageHistories } from '../../../server/src/otel/history';

export type IdEncoding = 'hex' | 'base64';

export interface SpanSpec {
  name: string;
  id: number;
  parent?: number;
  /** Milliseconds after the run's start, and the duration. */
  at: number;
  took: number;
  attributes: Record<string, string | number | boolean>;
  status?: 'error';
}

const traceHex = '5b8efff798038103d269b633813fc60c';
const baseNs = 1_758_026_593_209_236_000n;

function idText(n: number, bytes: number, encoding: IdEncoding): string {
  const hex = n.toString(16).padStart(bytes * 2, '0');
  return encoding === 'hex' ? hex : Buffer.from(hex, 'hex').toString('base64');
}

function attributeValue(value: string | number | boolean): Record<string, unknown> {
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { stringValue: value };
}

export function otlpSpan(spec: SpanSpec, encoding: IdEncoding = 'hex'): Record<string, unknown> {
  const start = baseNs + BigInt(spec.at) * 1_000_000n;
  return {
    traceId: encoding === 'hex' ? traceHex : Buffer.from(traceHex, 'hex').toString('base64'),
    spanId: idText(spec.id, 8, encoding),
    parentSpanId: spec.parent === undefined ? '' : idText(spec.parent, 8, encoding),
    flags: 256,
    name: spec.name,
    kind: spec.name.startsWith('chat') ? 3 : 1,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + BigInt(spec.took) * 1_000_000n),
    attributes: Object.entries(spec.attributes).map(([key, value]) => ({ key, value: attributeValue(value) })),
    status: spec.status === 'error' ? { code: 2, message: 'tool failed' } : {},
  };
}

/** One line of the file exporter: the spans of one batch under one resource and scope. */
export function otlpLine(spans: SpanSpec[], encoding: IdEncoding = 'hex'): string {
  return JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'weather-agent' } }] },
      scopeSpans: [{ scope: { name: 'openinference.instrumentation', version: '0.1.0' }, spans: spans.map((spec) => otlpSpan(spec, encoding)) }],
    }],
  });
}

const messages = (value: unknown) => JSON.stringify(value);

/**
 * A run with call ids, as the GenAI conventions write it: the agent (1), a chat span (2) whose output asks for
 * get_current_time with id " call_1" (the conventions' own example has a leading space), the tool span (3) naming
 * "call_1", a second chat span (4) whose input repeats the history (the call and its response under `result`) and
 * whose output asks for write_file, its tool span (5), and a last chat span (6) answering in text. Imitates
 * `otel-any-agent/OPENAI_trace.json`'s run, in OTLP.
 */
export function conventionsRun(): SpanSpec[] {
  const prompt = { role: 'user', parts: [{ type: 'text', content: 'Find what year it is in the America/New_York timezone and write it to a file.' }] };
  const firstCall = { role: 'assistant', parts: [{ type: 'tool_call', id: ' call_1', name: 'get_current_time', arguments: { timezone: 'America/New_York' } }] };
  const firstResult = { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_1', result: '{"datetime": "2025-09-16T08:43:13-04:00"}' }] };
  const secondCall = { role: 'assistant', parts: [{ type: 'tool_call', id: 'call_2', name: 'write_file', arguments: { text: '2025' } }] };
  const secondResult = { role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_2', response: 'written' }] };
  return [
    { name: 'chat gpt-4o', id: 2, parent: 1, at: 1, took: 240, attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 269, 'gen_ai.usage.output_tokens': 16,
      'gen_ai.input.messages': messages([prompt]), 'gen_ai.output.messages': messages([firstCall]),
    } },
    { name: 'execute_tool get_current_time', id: 3, parent: 1, at: 241, took: 3, attributes: {
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_current_time', 'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.call.arguments': '{"timezone": "America/New_York"}', 'gen_ai.tool.call.result': '{"datetime": "2025-09-16T08:43:13-04:00"}',
    } },
    { name: 'chat gpt-4o', id: 4, parent: 1, at: 244, took: 314, attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 359, 'gen_ai.usage.output_tokens': 14,
      'gen_ai.input.messages': messages([prompt, firstCall, firstResult]), 'gen_ai.output.messages': messages([secondCall]),
    } },
    { name: 'execute_tool write_file', id: 5, parent: 1, at: 560, took: 2, attributes: {
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'write_file', 'gen_ai.tool.call.id': 'call_2', 'gen_ai.tool.call.arguments': '{"text": "2025"}',
      'gen_ai.tool.call.result': 'written',
    } },
    { name: 'chat gpt-4o', id: 6, parent: 1, at: 563, took: 662, attributes: {
      'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 392, 'gen_ai.usage.output_tokens': 46,
      'gen_ai.input.messages': messages([prompt, firstCall, firstResult, secondCall, secondResult]),
      'gen_ai.output.messages': messages([{ role: 'assistant', parts: [{ type: 'text', content: 'The year is 2025; I wrote it to a file.' }], finish_reason: 'stop' }]),
    } },
    { name: 'invoke_agent weather-agent', id: 1, at: 0, took: 1227, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'weather-agent' } },
  ];
}

/**
 * The same run as a framework without call ids writes it (any-agent's LangChain and LlamaIndex runs,
 * `otel-any-agent/LANGCHAIN_trace.json`): tool calls named in the chat span's output, tool spans with no
 * `gen_ai.tool.call.id`.
 */
export function runWithoutIds(): SpanSpec[] {
  return conventionsRun().map((spec) => {
    const attributes = { ...spec.attributes };
    delete attributes['gen_ai.tool.call.id'];
    for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages']) {
      if (typeof attributes[key] === 'string') attributes[key] = (attributes[key] as string).replace(/,"id":"[^"]*"/g, '').replace(/"id":"[^"]*",/g, '');
    }
    return { ...spec, attributes };
  });
}

/**
 * The run with what each model request cost, as any-agent records it beside the GenAI conventions' tokens
 * (`gen_ai.usage.input_cost` / `gen_ai.usage.output_cost`, in US dollars): the three chat spans' figures of
 * `otel-any-agent/OPENAI_trace.json`, whose tokens the run already has.
 */
export function runWithCosts(): SpanSpec[] {
  const costs = new Map([[2, [0.0000269, 4.8e-6]], [4, [0.0000359, 4.2e-6]], [6, [0.0000392, 0.0000138]]]);
  return conventionsRun().map((spec) => {
    const cost = costs.get(spec.id);
    if (!cost) return spec;
    return { ...spec, attributes: { ...spec.attributes, 'gen_ai.usage.input_cost': cost[0], 'gen_ai.usage.output_cost': cost[1] } };
  });
}

/** The file exporter's file: the run in two batches (the spans that ended first, then the rest), one line each. */
export function exporterFile(specs: SpanSpec[], encoding: IdEncoding = 'hex'): string {
  return `${otlpLine(specs.slice(0, 3), encoding)}\n${otlpLine(specs.slice(3), encoding)}\n`;
}

/** How many model spans' input histories `read` continued from an earlier span's (server/src/otel/history.ts). */
export function countContinuedHistories(read: () => void): number {
  const continued = MessageHistories.prototype.continued;
  let count = 0;
  MessageHistories.prototype.continued = function (...args: Parameters<typeof continued>) {
    const messages = continued.apply(this, args);
    if (messages) count++;
    return messages;
  };
  try {
    read();
  } finally {
    MessageHistories.prototype.continued = continued;
  }
  return count;
}
