import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as assert from 'node:assert/strict';
import { spansService, detectSpans, type SpansModel } from '../../../server/src/otel';
import { languageForDocument, languageForFile } from '../../../server/src/languages';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { OutlineItem } from '../../../server/src/common/types';
import { spansTraces } from '../../../server/src/otel/events';
import { conventionsRun, exporterFile, otlpLine, runWithCosts, runWithoutIds, type SpanSpec } from './samples';

const context: ServiceContext = { settings: defaultSettings };
const parse = (text: string, maxLines?: number): SpansModel => spansService.parse({ uri: 'file:///exports/spans.jsonl', version: 1, text, maxLines });
const problems = (text: string, model = parse(text)) => spansService.validate(model, context).map((p) => `${p.severity} ${p.code} ${JSON.stringify(text.slice(p.span.start, p.span.end))}: ${p.message}`);
const outline = (items: OutlineItem[], depth = 0): string[] =>
  items.flatMap((item) => [`${'  '.repeat(depth)}${item.name}${item.detail ? ` | ${item.detail}` : ''}`, ...outline(item.children ?? [], depth + 1)]);

// Generated runs imitating otel-any-agent/OPENAI_trace.json in OTLP (see samples.ts).

test('the file exporter\'s JSON Lines, in .jsonl and in .json: recognised by content, whatever language id the editor sends', () => {
  const text = exporterFile(conventionsRun());
  assert.equal(detectSpans(text), 'otlp');
  assert.equal(languageForFile('/exports/spans.jsonl', text), 'otel-spans');
  assert.equal(languageForFile('/exports/spans.json', text), 'otel-spans');
  for (const id of ['json', 'jsonl', 'plaintext', 'agent-trace', 'agent-trace-jsonl']) assert.equal(languageForDocument('file:///exports/spans.json', id, text), 'otel-spans', id);
  // Other JSON stays untouched: an Invariant trace, a file with a `spans` list of something else, a dataset line.
  assert.equal(languageForFile('/a/run.json', '[{"role": "user", "content": "hi"}]'), 'agent-trace');
  assert.equal(detectSpans('{"spans": [{"start": 1, "end": 2}]}'), undefined);
  assert.equal(languageForDocument('file:///a/package.json', 'json', '{"name": "x", "spans": []}'), undefined);
  assert.equal(languageForFile('/a/log.jsonl', '{"level": "info", "msg": "resourceSpans"}\n'), undefined);
});

test('OTLP with call ids: each tool span answers the call whose id it names (trimmed), the history is not counted twice', () => {
  const text = exporterFile(conventionsRun());
  const model = parse(text);
  assert.equal(model.lines, true);
  assert.deepEqual(problems(text, model), []);
  const [trace] = model.traces;
  assert.equal(trace.traceId, '5b8efff798038103d269b633813fc60c');
  assert.deepEqual(trace.calls.map((call) => `${call.name} ${JSON.stringify(call.id)} #${call.step.index} → ${call.outputs.map((o) => `#${o.step.index}${o.inferred ? ' inferred' : ''}`)}`), [
    'get_current_time "call_1" #0 → #1', 'write_file "call_2" #2 → #3',
  ]);
  // The second chat span repeats the first call and its result in its input: mentions that lead to the call.
  const repeated = text.indexOf('\\"id\\":\\" call_1\\"', text.indexOf('"chat gpt-4o"', text.indexOf('execute_tool get_current_time')));
  assert.ok(repeated > 0);
  const [target] = spansService.definition(model, repeated + 8);
  assert.equal(text.slice(target.selection!.start, target.selection!.end), '\\" call_1\\"');
  assert.ok(target.selection!.start < text.indexOf('execute_tool get_current_time'));
  assert.match(spansService.hover(model, repeated + 8, context)!.markdown, /^\*\*History\*\*: this model span's input repeats the call `get_current_time\(timezone="America\/New_York"\)` — span #0 "chat gpt-4o", id `call_1`; it is not counted again\.$/);
  // From the tool span's id to the call; references list the call, the tool span and the repeats.
  const toolId = text.indexOf('"call_1"', text.indexOf('execute_tool get_current_time'));
  const [call] = spansService.definition(model, toolId + 2);
  assert.equal(call.selection!.start, target.selection!.start);
  // The call, the tool span, and four repeats in the later chat spans' inputs (the call and its response, twice).
  assert.equal(spansService.references(model, toolId + 2, true).length, 6);
});

test('base64 ids (protobuf\'s JSON mapping) build the same tree as hex; integers written as strings are counted', () => {
  const hex = parse(exporterFile(conventionsRun(), 'hex'));
  const text = exporterFile(conventionsRun(), 'base64');
  const base64 = parse(text);
  assert.deepEqual(problems(text, base64), []);
  assert.equal(base64.traces[0].traceId, hex.traces[0].traceId);
  assert.deepEqual(base64.steps.map((step) => step.parent?.index), hex.steps.map((step) => step.parent?.index));
  assert.deepEqual(outline(spansService.symbols(base64)), [
    'Trace 5b8efff7… | 6 spans · 2 calls · 1.23 s · 1,096 tokens (1,020 in, 76 out) · invoke_agent weather-agent',
    '  invoke_agent weather-agent | 1.23 s',
    '    chat gpt-4o | 240.0 ms · 285 tokens (269 in, 16 out) · 1 call',
    '    execute_tool get_current_time | 3.0 ms',
    '    chat gpt-4o | 314.0 ms · 373 tokens (359 in, 14 out) · 1 call',
    '    execute_tool write_file | 2.0 ms',
    '    chat gpt-4o | 662.0 ms · 438 tokens (392 in, 46 out)',
  ]);
  const id = text.indexOf('"spanId"');
  assert.match(spansService.hover(base64, id + 12, context)!.markdown, /^\*\*This span\*\* `0000000000000002` \(written in base64 \(protobuf's JSON mapping\)\)/);
});

test('the trace\'s top entry adds the dollars of the spans that record a cost after the tokens, and says nothing of cost for spans that record none', () => {
  const top = (specs: SpanSpec[]) => outline(spansService.symbols(parse(exporterFile(specs))))[0];
  assert.equal(top(runWithCosts()), 'Trace 5b8efff7… | 6 spans · 2 calls · 1.23 s · 1,096 tokens (1,020 in, 76 out) · $0.00012 · invoke_agent weather-agent');
  assert.equal(top(conventionsRun()), 'Trace 5b8efff7… | 6 spans · 2 calls · 1.23 s · 1,096 tokens (1,020 in, 76 out) · invoke_agent weather-agent');
  // One chat span with a cost is enough: the others count as recording none, not as free.
  const one = runWithCosts().map((spec) => (spec.id === 2 || spec.id === 6 ? conventionsRun().find((plain) => plain.id === spec.id)! : spec));
  assert.equal(top(one), 'Trace 5b8efff7… | 6 spans · 2 calls · 1.23 s · 1,096 tokens (1,020 in, 76 out) · $0.000040 · invoke_agent weather-agent');
});

test('OTLP without call ids (as LangChain writes them): calls and tool spans linked by nesting and order, the hover says so', () => {
  const text = exporterFile(runWithoutIds());
  const model = parse(text);
  assert.deepEqual(problems(text, model), []);
  const [trace] = model.traces;
  assert.deepEqual(trace.calls.map((call) => `${call.name} → #${call.outputs[0].step.index} ${call.outputs[0].inferred}`), [
    'get_current_time → #1 inferred from span nesting and order (the call has no id): the first unanswered call to "get_current_time" made before this span, by a model span beside it in the tree',
    'write_file → #3 inferred from span nesting and order (the call has no id): the first unanswered call to "write_file" made before this span, by a model span beside it in the tree',
  ]);
});

test('a tool span no model span asked for is a call of its own, answered by its result; an error status marks it failed', () => {
  const spans: SpanSpec[] = [
    { name: 'execute_tool send_email', id: 7, at: 0, took: 5, status: 'error', attributes: {
      'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'send_email', 'gen_ai.tool.call.id': 'toolu_9', 'gen_ai.tool.call.arguments': '{"to": "a@b.c"',
      'gen_ai.tool.call.result': 'SMTP refused',
    } },
  ];
  const text = `${otlpLine(spans)}\n`;
  const model = parse(text);
  assert.deepEqual(problems(text, model), [
    'error otel/arguments-json "\\"": arguments: the JSON in this string breaks here: Unexpected end of file: expected \'}\'',
    'information otel/span-error "2": The span ended with an error: tool failed',
  ].map((line) => line));
  const [call] = model.traces[0].calls;
  assert.equal(call.source, 'tool-span');
  assert.equal(call.id, 'toolu_9');
  assert.equal(call.outputs[0].isError, true);
  assert.equal(outline(spansService.symbols(model))[1], '  ✗ execute_tool send_email | 5.0 ms · error');
});

test('a tool call response answers its call where no tool span does, its value read from `response` or from `result`', () => {
  // Imitates otel-any-agent/OPENAI_trace.json's run in OTLP (conventionsRun) exported without its tool spans, the
  // results then only in the next model span's input: `tool_call_response` parts as the GenAI conventions document
  // them, `response` in their schema, `result` in their example.
  const prompt = { role: 'user', parts: [{ type: 'text', content: 'What time is it in New York, and write it to a file.' }] };
  const calls = { role: 'assistant', parts: [
    { type: 'tool_call', id: 'call_1', name: 'get_current_time', arguments: { timezone: 'America/New_York' } },
    { type: 'tool_call', id: 'call_2', name: 'write_file', arguments: { text: '08:43' } },
  ] };
  const results = { role: 'tool', parts: [
    { type: 'tool_call_response', id: 'call_1', result: '08:43' },
    { type: 'tool_call_response', id: 'call_2', response: 'written' },
  ] };
  const chat = (id: number, at: number, input: unknown[], output: unknown[]): SpanSpec => ({ name: 'chat gpt-4o', id, at, took: 100, attributes: {
    'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': JSON.stringify(input), 'gen_ai.output.messages': JSON.stringify(output),
  } });
  const text = `${otlpLine([
    chat(2, 0, [prompt], [calls]),
    chat(4, 200, [prompt, calls, results], [{ role: 'assistant', parts: [{ type: 'text', content: 'It is 08:43; I wrote it down.' }] }]),
  ])}\n`;
  const model = parse(text);
  assert.deepEqual(problems(text, model), []);
  const answers = text.indexOf('tool_call_response');
  for (const [id, key, value] of [['call_1', 'result', '08:43'], ['call_2', 'response', 'written']]) {
    const callId = text.indexOf(`\\"${id}\\"`);
    const responseId = text.indexOf(`\\"${id}\\"`, answers);
    assert.ok(callId > 0 && responseId > answers, id);
    assert.deepEqual(spansService.definition(model, responseId + 3).map((target) => text.slice(target.selection!.start, target.selection!.end)), [`\\"${id}\\"`], id);
    assert.equal(spansService.definition(model, responseId + 3)[0].selection!.start, callId, id);
    const [call] = model.traces[0].calls.filter((found) => found.id === id);
    assert.deepEqual(call.outputs.map((output) => [output.source, output.result && text.slice(output.result.start, output.result.end)]), [['input', `\\"${value}\\"`]], key);
  }
  // Rules see each result under its call's id, with the value written under its key.
  assert.deepEqual(spansTraces(model)[0].events.map((event) => event.value).filter((event) => (event as { role: string }).role === 'tool'), [
    { role: 'tool', content: '08:43', tool_call_id: 'call_1', metadata: { error: null } },
    { role: 'tool', content: 'written', tool_call_id: 'call_2', metadata: { error: null } },
  ]);
});

test('a tool call response whose call is not in the trace, and a call never answered', () => {
  const [chat] = conventionsRun();
  const spans: SpanSpec[] = [{ ...chat, attributes: {
    ...chat.attributes,
    'gen_ai.input.messages': JSON.stringify([{ role: 'tool', parts: [{ type: 'tool_call_response', id: 'call_0', result: 'old' }] }]),
  } }];
  const text = `${otlpLine(spans)}\n`;
  assert.deepEqual(problems(text), [
    'warning otel/unknown-call-id "\\\\\\"call_0\\\\\\"": tool call id "call_0" names no tool call in this trace: the model span repeats it from its history, whose call may have been made before this trace began',
    'information otel/unanswered-call "\\\\\\" call_1\\\\\\"": No tool result answers this call to "get_current_time" (id "call_1")',
  ]);
});

test('broken lines, a broken messages attribute, spans past the line limit: said where they are, the rest still read', () => {
  const lines = exporterFile(conventionsRun()).split('\n');
  const broken = `${lines[0]}\n${lines[1].slice(0, 200)}\n${otlpLine([{ name: 'chat', id: 9, at: 0, took: 1, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': '[{"role": "user", "parts": [' } }])}\n`;
  const model = parse(broken);
  const found = problems(broken, model);
  // The first line's last chat span asks for write_file, whose tool span was on the line cut short.
  assert.deepEqual(found, [
    'information otel/unanswered-call "\\\\\\"call_2\\\\\\"": No tool result answers this call to "write_file" (id "call_2")',
    'error otel/syntax "": Unexpected end of line: expected \'}\' then \']\' then \'}\' (and 2 more)',
    'error otel/messages-json "\\"": gen_ai.input.messages: the JSON in this string breaks here: Unexpected end of line: expected \']\' then \'}\' then \']\'',
  ]);
  assert.equal(model.steps.length, 4);
  const limited = parse(exporterFile(conventionsRun()), 1);
  assert.equal(limited.steps.length, 3);
  assert.deepEqual(problems(exporterFile(conventionsRun()), limited).slice(0, 1), [
    `warning otel/too-many-spans ${JSON.stringify(exporterFile(conventionsRun()).split('\n')[0])}: Only the first spans are read: 1 lines past the limit (agentTraces.jsonl.maxLines) are left out of navigation, the outline, the preview and rules`,
  ]);
});

test('hostile trees: a cycle of parents, a span its own parent, a chain 20,000 deep, a repeated span id', () => {
  const cycle: SpanSpec[] = [
    { name: 'a', id: 1, parent: 3, at: 0, took: 1, attributes: {} },
    { name: 'b', id: 2, parent: 1, at: 1, took: 1, attributes: {} },
    { name: 'c', id: 3, parent: 2, at: 2, took: 1, attributes: {} },
    { name: 'self', id: 4, parent: 4, at: 3, took: 1, attributes: {} },
    { name: 'again', id: 2, at: 4, took: 1, attributes: {} },
  ];
  const text = `${otlpLine(cycle)}\n`;
  const model = parse(text);
  assert.deepEqual(problems(text, model).map((line) => line.replace(/ ".*?": /, ': ')), [
    'warning otel/parent-cycle: This parentSpanId closes a cycle of parents (a span cannot run inside itself): the span is drawn as a root',
    'warning otel/parent-cycle: This parentSpanId closes a cycle of parents (a span cannot run inside itself): the span is drawn as a root',
    'warning otel/duplicate-span-id: Span id 0000000000000002 is already the id of span #1: children name the first one as their parent',
  ]);
  // Walking up from a (c, b, then a again), the link that closes the cycle is b's.
  assert.deepEqual(outline(spansService.symbols(model)).slice(1), ['  b | 1.0 ms · parent cycle', '    c | 1.0 ms', '      a | 1.0 ms', '  self | 1.0 ms · parent cycle', '  again | 1.0 ms']);

  const depth = 20_000;
  const chain: SpanSpec[] = Array.from({ length: depth }, (_, i) => ({ name: `s${i}`, id: i + 1, parent: i === 0 ? undefined : i, at: i, took: 1, attributes: {} }));
  const deep = `${otlpLine(chain)}\n`;
  const deepModel = parse(deep);
  assert.equal(deepModel.steps[depth - 1].depth, depth - 1);
  const items = spansService.symbols(deepModel);
  let level = 0;
  for (let item: OutlineItem | undefined = items[0]; item?.children?.length; item = item.children[0]) level++;
  assert.equal(level, 33, 'the outline nests 32 levels below the trace, then lists deeper spans at that level');
  const graph = spansService.graph!(deepModel, { toRange: () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }) }, context);
  assert.equal(Math.max(...graph.nodes.map((node) => node.depth ?? 0)), 32);
});

test('a file with spans of two traces: one outline entry and one preview choice per trace', () => {
  const first = otlpLine(conventionsRun());
  const second = first.replace(/"traceId":"5b8efff798038103d269b633813fc60c"/g, '"traceId":"00000000000000000000000000000abc"');
  const text = `${first}\n${second}\n`;
  const model = parse(text);
  assert.equal(model.traces.length, 2);
  assert.deepEqual(spansService.symbols(model).map((item) => item.name), ['Trace 5b8efff7…', 'Trace 00000000…']);
  const graph = spansService.graph!(model, { toRange: () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }), traceIndex: 1 }, context);
  assert.equal(graph.traceIndex, 1);
  assert.deepEqual(graph.traces.map((choice) => choice.label), ['Trace 5b8efff7 · 6 spans', 'Trace 00000000 · 6 spans']);
});

test('VS Code adopts the file exporter\'s JSON Lines by the manifest\'s first-line pattern', () => {
  const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as { contributes: { languages: { id: string; firstLine?: string }[] } };
  const pattern = new RegExp(manifest.contributes.languages.find((language) => language.id === 'agent-trace-jsonl')!.firstLine!);
  assert.ok(pattern.test(exporterFile(conventionsRun()).split('\n')[0]));
  assert.ok(!pattern.test('{"name": "resourceSpans"}'));
});

test('a valid line\'s spans are read again from the text when visited: the check of their ids and the hover on their keys land where the built nodes put them', () => {
  const valid = exporterFile(conventionsRun()).replace('"spanId":"0000000000000003"', '"spanId":"not-an-id"').replace('"parentSpanId":"0000000000000001"', '"parentSpanId":"xyz"');
  // The same line cut before its last brackets: a broken line's spans keep the nodes read from its partial tree.
  const [first, ...rest] = valid.split('\n');
  const withBroken = [first.slice(0, -2), ...rest].join('\n');
  for (const text of [valid, withBroken]) {
    const model = parse(text);
    const ids = spansService.validate(model, context).filter((p) => p.code === 'otel/bad-id').map((p) => text.slice(p.span.start, p.span.end));
    assert.deepEqual(ids, ['"xyz"', '"not-an-id"']);
    const key = text.indexOf('"startTimeUnixNano"', text.indexOf('"not-an-id"'));
    const hover = spansService.hover(model, key + 3, context)!;
    assert.deepEqual(hover.span, { start: key, end: key + '"startTimeUnixNano"'.length });
    assert.match(hover.markdown, /^\*\*startTimeUnixNano\*\*\n\nWhen the span started/);
  }
  const released = parse(valid).steps[1];
  assert.ok('find' in released.node, 'the span of a valid line is a node read again from the text');
  assert.deepEqual([released.node.start, released.node.end], [released.span.start, released.span.end]);
  assert.match(valid.slice(released.span.start, released.span.end), /^\{"traceId":"[0-9a-f]+","spanId":"not-an-id",[^]*\}$/);
});
