// A valid span line is read as a view (jsonViews.ts: members found when visited), the JSON inside its message
// attributes too, and the messages a model keeps of each span hold their texts, arguments and results as nodes that
// keep only their place in the file and decode their characters again when visited (read.ts `kept`, jsonViews.ts
// `detached`). These tests read every span of a file both ways, so and as the JSON reader builds it whole, and
// compare every node they reach: types, places, values, members, at every depth. The files are the corpus's any-agent runs and runs generated
// as test/unit/otel/samples.ts writes them (imitating otel-any-agent/OPENAI_trace.json's run), varied in the ways
// writers vary: escapes of every kind inside the JSON inside a string, OpenAI chat messages, any-agent's list of
// calls with arguments as a string inside a string, instructions as parts, nesting past the reader's depth, broken
// JSON in a message attribute.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { spansService, type SpansModel } from '../../../server/src/otel';
import { readSpanFacts, type SpanFacts } from '../../../server/src/otel/read';
import { viewOfValidJson } from '../../../server/src/otel/jsonViews';
import { SpanAttribute } from '../../../server/src/otel/attributes';
import { parseWholeJsonValue } from '../../../server/src/json/readJson';
import { isDecoded } from '../../../server/src/json/nodes';
import type { ReadMessage } from '../../../server/src/otel/messages';
import type { JsonNode } from '../../../server/src/json/nodes';
import { property } from '../../../server/src/json/queries';
import { defaultSettings } from '../../../server/src/common/languageService';
import { conventionsRun, countContinuedHistories, exporterFile, otlpLine, runWithoutIds, type SpanSpec } from './samples';
import { corpus, corpusOrSkip } from '../corpus';

const parse = (text: string): SpansModel => spansService.parse({ uri: 'file:///runs/spans.jsonl', version: 1, text });

/** Everything a feature can read of a node, at every depth. */
function described(node: JsonNode | undefined, depth = 0): unknown {
  if (!node) return undefined;
  const place = `${node.type} ${node.start}-${node.end}${isDecoded(node) ? ' decoded' : ''}`;
  if (depth > 200) return place;
  switch (node.type) {
    case 'object':
      return [place, node.properties.map((p) => [p.key, p.keyStart, p.keyEnd, p.start, p.end, described(p.value, depth + 1)])];
    case 'array':
      return [place, node.items.map((item) => described(item, depth + 1))];
    case 'string':
      return [place, node.value];
    case 'number':
      return [place, node.raw];
    default:
      return [place, node.value];
  }
}

function describedMessages(messages: ReadMessage[]): unknown {
  return messages.map((message) => ({
    span: message.span, role: message.role, roleSpan: message.roleSpan, texts: message.texts.map((node) => described(node)),
    calls: message.toolCalls.map((call) => ({ ...call, args: described(call.args) })),
    responses: message.toolResponses.map((response) => ({ ...response, response: described(response.response) })),
  }));
}

/** Every model span's messages, kept and as read, compared; returns how many nodes of them were decoded from a string. */
function compareBothWays(text: string, label: string): number {
  const model = parse(text);
  let decodedNodes = 0;
  for (const step of model.steps) {
    if (step.role !== 'model') continue;
    const shape = model.shape === 'otlp' || property(step.node, 'spanId') ? 'otlp' : 'any-agent';
    const asRead = readSpanFacts(text, { node: step.node, shape, releasable: false }, false);
    for (const [kept, read] of [[step.input, asRead.input], [step.output, asRead.output]]) {
      assert.deepEqual(describedMessages(kept), describedMessages(read), `${label}: span #${step.index}`);
      for (const message of kept) decodedNodes += [...message.texts, ...message.toolCalls.map((c) => c.args), ...message.toolResponses.map((r) => r.response)].filter((n) => n && isDecoded(n)).length;
    }
  }
  return decodedNodes;
}

/** Batches of one run each, with their own span ids and call ids, as the spans benchmark writes them. */
function file(runs: number, vary: (spec: SpanSpec, run: number) => SpanSpec = (spec) => spec): string {
  const lines: string[] = [];
  for (let run = 0; run < runs; run++) {
    lines.push(otlpLine(conventionsRun().map((spec) => vary({ ...spec, id: spec.id + run * 10, parent: spec.parent === undefined ? undefined : spec.parent + run * 10, at: spec.at + run * 2000 }, run))));
  }
  return `${lines.join('\n')}\n`;
}

const escapes = 'é “quoted” \\ back\\slash / \n new line \t tab \r \b \f \u2028 \u0001 😀 \\"inner\\"';

test('kept messages read as the reader built them: the conventions\' runs, as written and with escapes of every kind in texts, arguments and results', () => {
  assert.ok(compareBothWays(file(3), 'plain') > 0);
  const escaped = file(2, (spec, run) => {
    const attributes: SpanSpec['attributes'] = {};
    for (const [key, value] of Object.entries(spec.attributes)) {
      if (typeof value !== 'string' || !key.endsWith('.messages')) attributes[key] = value;
      else {
        const messages = JSON.parse(value) as { parts: Record<string, unknown>[] }[];
        for (const message of messages) for (const part of message.parts) {
          if (part.type === 'text') part.content = `${part.content as string} ${escapes} run ${run}`;
          if (part.type === 'tool_call') part.arguments = { text: escapes, list: [1, 2.5e3, true, null, { deep: [escapes] }], empty: {}, none: [] };
          // A result is an object in the first run, a list in the second (a kept node of each kind).
          if (part.type === 'tool_call_response') part[part.result !== undefined ? 'result' : 'response'] = run === 0 ? { output: escapes, lines: [escapes, escapes] } : [escapes, { output: escapes }];
        }
        // Written with \u escapes for every character past ASCII, as Python's json.dumps writes them.
        attributes[key] = JSON.stringify(messages).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
      }
    }
    return { ...spec, attributes };
  });
  assert.ok(compareBothWays(escaped, 'escaped') > 0);
  // The values themselves, decoded twice through the file's escapes.
  const model = parse(escaped);
  const call = model.traces[0].calls.find((c) => c.name === 'write_file')!;
  assert.equal(property(call.args, 'text')?.value?.type === 'string' ? (property(call.args, 'text')!.value as { value: string }).value : undefined, escapes);
});

test('kept messages read as the reader built them: OpenAI chat messages, instructions as parts, nesting past the reader\'s depth, broken JSON', () => {
  let deep: unknown = 'bottom';
  for (let level = 0; level < 80; level++) deep = level % 2 === 0 ? { level: deep } : [deep];
  const varied = file(2, (spec, run) => {
    if (!spec.name.startsWith('chat')) return spec;
    const attributes: SpanSpec['attributes'] = { ...spec.attributes };
    attributes['gen_ai.system_instructions'] = JSON.stringify([{ type: 'text', content: `Be brief. ${escapes}` }]);
    attributes['gen_ai.input.messages'] = JSON.stringify([
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: [{ type: 'text', text: `What time is it? ${escapes}` }] },
      { role: 'assistant', content: null, tool_calls: [{ id: `call_${run}_9`, type: 'function', function: { name: 'get_current_time', arguments: JSON.stringify({ timezone: 'America/New_York', deep }) } }] },
      { role: 'tool', tool_call_id: `call_${run}_9`, name: 'get_current_time', content: '{"datetime": "2025-09-16T08:43:13-04:00"}' },
    ]);
    attributes['gen_ai.output.messages'] = JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: `call_${run}_8`, name: 'write_file', arguments: { deep } }] }]);
    return { ...spec, attributes };
  });
  assert.ok(compareBothWays(varied, 'openai') > 0);
  const broken = file(1, (spec) => spec.name.startsWith('chat') ? { ...spec, attributes: { ...spec.attributes, 'gen_ai.input.messages': '[{"role": "user", "parts": [{"type": "text", "content": "cut' } } : spec);
  compareBothWays(broken, 'broken');
  const problems = spansService.validate(parse(broken), { settings: defaultSettings }).filter((p) => p.code === 'otel/messages-json');
  assert.equal(problems.length, 3);
});

test('kept messages read as the reader built them: any-agent\'s {"spans": [...]}, its calls\' arguments a string inside a string', () => {
  const spans = [1, 2].map((n) => ({
    name: 'call_llm mistral/mistral-small-latest', kind: 'internal', parent: { trace_id: 7, span_id: 100 }, start_time: 1758026593210770000 + n, end_time: 1758026593449611000 + n,
    status: { status_code: 'ok', description: null }, context: { trace_id: 7, span_id: 100 + n },
    attributes: {
      'gen_ai.operation.name': 'call_llm', 'gen_ai.input.messages': JSON.stringify([{ role: 'user', content: `Find the year. ${escapes}` }]),
      'gen_ai.output': JSON.stringify([{ 'tool.name': 'get_current_time', 'tool.args': JSON.stringify({ timezone: escapes }) }, { 'tool.name': 'write_file', 'tool.args': { text: escapes } }]),
      'gen_ai.output.type': 'json',
    },
  }));
  assert.ok(compareBothWays(JSON.stringify({ spans }, null, 2), 'any-agent') > 0);
});

test('kept messages read as the reader built them: the corpus\'s any-agent runs', (t) => {
  if (!corpusOrSkip(t)) return;
  for (const framework of ['AGNO', 'GOOGLE', 'LANGCHAIN', 'LLAMA_INDEX', 'OPENAI']) {
    compareBothWays(readFileSync(path.join(corpus, 'formats/otel-any-agent', `${framework}_trace.json`), 'utf8'), framework);
  }
});

/** How many model spans' input histories the reading of `text` continued from an earlier span's. */
const continuedHistories = (text: string): number => countContinuedHistories(() => parse(text));

/** The chat spans' input histories of a run rewritten by `rewrite` (its messages, parsed, and the span's index among the chat spans). */
function withHistories(rewrite: (messages: Record<string, unknown>[], chat: number, run: number) => string): (spec: SpanSpec, run: number) => SpanSpec {
  return (spec, run) => {
    const input = spec.attributes['gen_ai.input.messages'];
    if (typeof input !== 'string') return spec;
    const chat = [2, 4, 6].indexOf(spec.id - run * 10);
    return { ...spec, attributes: { ...spec.attributes, 'gen_ai.input.messages': rewrite(JSON.parse(input) as Record<string, unknown>[], chat, run) } };
  };
}

test('a model span\'s history that continues an earlier span\'s is read from its new messages only, with the messages, places and problems of a whole reading', () => {
  // The conventions' runs: each chat span's history is the one before it and the messages since.
  assert.equal(continuedHistories(file(3)), 6);
  assert.ok(compareBothWays(file(3), 'continued') > 0);
  // Escapes of every kind in the messages, spaces before the commas between them, the runs interleaved line by line (a
  // history continues one read a few spans before, not the last one).
  const spaced = file(2, withHistories((messages, _chat, run) => `[${messages.map((m) => JSON.stringify({ ...m, note: `${escapes} ${run}` })).join(' , ')} ]`));
  const [first, second] = spaced.trim().split('\n').map((line) => JSON.parse(line) as { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] });
  // One chat span a line, the two runs' in turn (spans 0, 2 and 4 of each line are its chat spans).
  const interleaved = [0, 1, 2, 3, 4, 5].map((i) => {
    const line = structuredClone(i % 2 === 0 ? first : second);
    line.resourceSpans[0].scopeSpans[0].spans = [line.resourceSpans[0].scopeSpans[0].spans[2 * (i >> 1)]];
    return JSON.stringify(line);
  });
  const interleavedFile = `${interleaved.join('\n')}\n`;
  assert.equal(continuedHistories(interleavedFile), 4);
  assert.ok(compareBothWays(interleavedFile, 'interleaved') > 0);
  // Histories not continued from the one before: an earlier message changed (read whole), a history that is the one
  // before (nothing new: it continues the run's first instead), any-agent's calls after the history and a new message
  // that breaks the JSON (read whole). Each run's second chat span continues its first: 4 + 1.
  const varied = file(4, withHistories((messages, chat, run) => {
    if (run === 0 && chat === 2) messages[0] = { ...messages[0], parts: [{ type: 'text', content: 'changed' }] };
    if (run === 1 && chat === 2) return JSON.stringify(messages.slice(0, 3));
    if (run === 2 && chat === 2) return JSON.stringify([...messages.slice(0, 3), { 'tool.name': 'write_file', 'tool.args': { text: '2025' } }]);
    if (run === 3 && chat === 2) return `${JSON.stringify(messages).slice(0, -1)},{"role": "tool", "parts": [}]`;
    return JSON.stringify(messages);
  }));
  assert.equal(continuedHistories(varied), 5);
  assert.ok(compareBothWays(varied, 'read whole') > 0);
  const problems = spansService.validate(parse(varied), { settings: defaultSettings }).filter((p) => p.code === 'otel/messages-json');
  assert.equal(problems.length, 1);
});

/** Every fact of a span, its nodes described. */
function describedFacts(facts: SpanFacts): unknown {
  const nodes = (value: unknown): unknown => {
    if (value && typeof value === 'object' && 'type' in value && 'start' in value) return described(value as JsonNode);
    if (value instanceof SpanAttribute) return { key: value.key, keyStart: value.keyStart, keyEnd: value.keyEnd, value: nodes(value.value), jsonErrors: value.jsonErrors };
    if (value instanceof Map) return [...value.entries()].map(([key, entry]) => [key, nodes(entry)]);
    if (Array.isArray(value)) return value.map(nodes);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, nodes(v)]));
    return value;
  };
  return nodes({ ...facts, input: describedMessages(facts.input), output: describedMessages(facts.output) });
}

/** Each valid line's spans read from its view and from the line built whole: the same facts, node for node. */
function compareLines(text: string, label: string): number {
  let spans = 0;
  let start = 0;
  while (start < text.length) {
    const end = text.indexOf('\n', start) === -1 ? text.length : text.indexOf('\n', start);
    const view = viewOfValidJson(text, start, end);
    const built = parseWholeJsonValue(text, start, end).root;
    assert.ok(view && built, `${label}: line at ${start}`);
    assert.deepEqual(described(view), described(built), `${label}: line at ${start}`);
    const spansOf = (line: JsonNode) => ((property((property((property(line, 'resourceSpans')!.value as { items: JsonNode[] }).items[0], 'scopeSpans')!.value as { items: JsonNode[] }).items[0], 'spans')!.value) as { items: JsonNode[] }).items;
    const [viewed, whole] = [spansOf(view), spansOf(built)];
    for (let i = 0; i < whole.length; i++) {
      assert.deepEqual(describedFacts(readSpanFacts(text, { node: viewed[i] as never, shape: 'otlp', releasable: true })), describedFacts(readSpanFacts(text, { node: whole[i] as never, shape: 'otlp', releasable: false }, false)), `${label}: span ${i} of line at ${start}`);
      spans++;
    }
    start = end + 1;
  }
  return spans;
}

test('a valid line read as a view gives every span the facts the line built whole gives: ids in hex and base64, runs with and without call ids, attributes of every OTLP kind', () => {
  assert.equal(compareLines(exporterFile(conventionsRun()), 'hex'), 6);
  assert.equal(compareLines(exporterFile(conventionsRun(), 'base64'), 'base64'), 6);
  assert.equal(compareLines(exporterFile(runWithoutIds()), 'without ids'), 6);
  // Attributes of every AnyValue kind, an attribute's key and a member's key written with escapes, a repeated key, an error status, an empty value.
  const line = JSON.stringify({
    resourceSpans: [{
      resource: { attributes: [{ key: 'service.name', value: { stringValue: `weather ${escapes}` } }] },
      scopeSpans: [{ scope: { name: 'x' }, spans: [{
        traceId: '5b8efff798038103d269b633813fc60c', spanId: '00000000000000a1', parentSpanId: '', name: `execute_tool ${escapes}`, kind: 'SPAN_KIND_INTERNAL',
        startTimeUnixNano: '1758026593209236000', endTimeUnixNano: 1758026593219236000,
        attributes: [
          { key: 'gen_ai.operation.name', value: { stringValue: 'execute_tool' } },
          { key: 'gen_ai.tool.name', value: { stringValue: 'get_current_time' } },
          { key: 'gen_ai.tool.call.id', value: { intValue: '42' } },
          { key: 'gen_ai.tool.call.arguments', value: { kvlistValue: { values: [{ key: 'timezone', value: { stringValue: escapes } }, { key: 'n', value: { doubleValue: 2.5 } }] } } },
          { key: 'gen_ai.tool.call.result', value: { arrayValue: { values: [{ boolValue: true }, { intValue: '7' }, { stringValue: escapes }, { bytesValue: 'AAEC' }] } } },
          { key: 'gen_ai.tool.name', value: { stringValue: 'repeated, not read' } },
          { key: 'empty', value: {} },
          { key: 'gen_ai.usage.input_cost', value: { doubleValue: 0.25 } },
        ],
        status: { code: 'STATUS_CODE_ERROR', message: `failed ${escapes}` },
      }] }],
    }],
  }).replace('"gen_ai.tool.name"', '"gen_ai.tool\\u002ename"').replace('"name":"execute_tool', '"n\\u0061me":"execute_tool');
  assert.equal(compareLines(`${line}\n`, 'kinds'), 1);
});
