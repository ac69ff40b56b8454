import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonlService } from '../../../server/src/jsonl';
import { context, cut, describe, offsetOf, parse, problemsOf, spanOf } from './helpers';

interface EntryOptions {
  callId?: string;
  resultCallId?: string;
  tool?: string;
  resultTool?: string;
  status?: string;
  started?: string;
  finished?: string;
  time?: string;
  retries?: string;
  validations?: string;
  hallucination?: string;
  usage?: string;
  cost?: string;
  model?: string;
  args?: string;
}

/** One compact agentguard line, fields in declaration order as agentguard writes them. */
function entry(o: EntryOptions = {}): string {
  const id = o.callId ?? 'de86d8d4-ccd2-45b6-a834-70ef73688471';
  const tool = o.tool ?? 'lookup_order';
  return `{"call":{"call_id":"${id}","tool_name":"${tool}","args":${o.args ?? '[1001]'},"kwargs":{},"timestamp":"${o.started ?? '2026-11-22T11:36:17.813113Z'}","session_id":null,"metadata":{}},`
    + `"result":{"call_id":"${o.resultCallId ?? id}","tool_name":"${o.resultTool ?? tool}","status":"${o.status ?? 'success'}","return_value":null,"exception":null,"exception_type":null,`
    + `"execution_time_ms":${o.time ?? '32.5'},"retry_count":${o.retries ?? '0'},"validations":${o.validations ?? '[]'},"hallucination":${o.hallucination ?? 'null'},`
    + `"cost":${o.cost ?? 'null'},"provider":null,"model":${o.model ?? 'null'},"usage":${o.usage ?? 'null'},"cost_breakdown":null,"cost_estimated":false,"cost_known":false,"timestamp":"${o.finished ?? '2026-11-22T11:36:17.846354Z'}"}}`;
}

test('a well-formed entry has no problems', () => {
  assert.deepEqual(problemsOf(entry()), []);
  assert.deepEqual(problemsOf(`${entry()}\n${entry({ callId: 'b' })}\n`), []);
});

test('shape: required fields, types, status values, validation kinds, ranges, timestamps', () => {
  const text = [
    entry({ callId: '1', status: 'sucess' }),
    entry({ callId: '2', validations: '[{"valid":false,"kind":"schemas","message":"m","details":{}}]' }),
    entry({ callId: '3', hallucination: '{"is_hallucinated":true,"confidence":1.5,"reason":"r","signals":{}}' }),
    entry({ callId: '4', time: '-1.5', retries: '-2' }),
    entry({ callId: '5', retries: '1.5' }),
    entry({ callId: '6', started: '2026-13-40T00:00:00Z' }),
    '{"call":{"call_id":"x","tool_name":7},"result":{"call_id":"x","tool_name":"t"}}',
  ].join('\n');
  assert.deepEqual(describe(text, problemsOf(text)).filter((p) => !p.startsWith('ag/unknown-field')), [
    'ag/status "\\"sucess\\"" Unknown status \'sucess\': expected one of success, failure, timeout, circuit_open, budget_exceeded, rate_limited, validation_failed, hallucinated, retried',
    'ag/validation-kind "\\"schemas\\"" Unknown kind \'schemas\': expected one of schema, hallucination, response_verification, semantic, custom',
    'ag/confidence-range "1.5" confidence must be between 0 and 1, found 1.5',
    'ag/negative-time "-1.5" execution_time_ms cannot be negative, found -1.5',
    'ag/negative-retries "-2" retry_count cannot be negative, found -2',
    'ag/type "1.5" result.retry_count must be an integer, found a non-integer number 1.5',
    'ag/timestamp "\\"2026-13-40T00:00:00Z\\"" call.timestamp is not an ISO-8601 date-time: \'2026-13-40T00:00:00Z\' (expected e.g. 2026-01-31T12:00:00.000000Z)',
    'ag/type "7" call.tool_name must be a string, found the number 7',
    'ag/missing-field "{" result is missing the required field \'status\' (string)',
  ]);
});

test('unknown fields are hints, and only when unknownKeyHints is on', () => {
  const text = entry().replace('"metadata":{}', '"metadata":{},"extra":1');
  assert.deepEqual(describe(text, problemsOf(text)), ['ag/unknown-field "\\"extra\\"" agentguard does not write \'extra\' in call']);
  assert.equal(problemsOf(text)[0].severity, 'hint');
  assert.deepEqual(problemsOf(text, { unknownKeyHints: false }), []);
});

test('consistency: call ids, tool names, time order, duplicate ids', () => {
  const text = [
    entry({ resultCallId: 'other-id' }),
    entry({ callId: 'b', resultTool: 'lookup_orders' }),
    entry({ callId: 'c', started: '2026-11-22T11:36:17.813113Z', finished: '2026-11-22T11:36:17.813112Z' }),
    entry({ callId: 'b' }),
  ].join('\n');
  const problems = problemsOf(text);
  assert.deepEqual(describe(text, problems), [
    'ag/call-id-mismatch "\\"other-id\\"" result.call_id other-id differs from call.call_id de86d8d4-ccd2-45b6-a834-70ef73688471: the result belongs to another call',
    'ag/tool-name-mismatch "\\"lookup_orders\\"" result.tool_name \'lookup_orders\' differs from call.tool_name \'lookup_order\'',
    'ag/time-order "\\"2026-11-22T11:36:17.813112Z\\"" The result is stamped 2026-11-22T11:36:17.813112Z, before its call started (2026-11-22T11:36:17.813113Z)',
    'ag/duplicate-call-id "\\"b\\"" Call id b was already used on line 2; every invocation gets its own id',
  ]);
  assert.deepEqual(problems[0].related?.[0].span, spanOf(text, '"de86d8d4-ccd2-45b6-a834-70ef73688471"'));
  assert.deepEqual(problems[3].related?.[0].span, spanOf(text, '"b"', 0));
  // Time zones and precision beyond milliseconds are compared exactly.
  assert.deepEqual(problemsOf(entry({ started: '2026-11-22T12:00:00.0000001+01:00', finished: '2026-11-22T11:00:00.0000002Z' })), []);
  assert.deepEqual(problemsOf(entry({ started: '2026-11-22T11:00:00.0000002Z', finished: '2026-11-22T11:00:00.0000002Z' })), []);
});

test('NaN written as null and integers beyond 2^53 break nothing', () => {
  const text = entry({ time: 'null', args: '[12345678901234567890123, 9007199254740993]', hallucination: '{"is_hallucinated":false,"confidence":null,"reason":"","signals":{"n":99999999999999999999}}' });
  assert.deepEqual(problemsOf(text), []);
  const model = parse(text);
  assert.equal(jsonlService.symbols(model)[0].detail, 'success, no duration');
  const graph = jsonlService.graph!(model, { toRange: () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }) }, context);
  assert.equal(graph.nodes[0].summary, 'lookup_order(12345678901234567890123, 9007199254740993)');
  assert.equal(graph.nodes[0].durationMs, undefined);
});

test('outline: one entry per call, failures and LLM spend stand out', () => {
  const llm = entry({ callId: 'l1', tool: 'llm.openai.chat_completions', model: '"gpt-4o-mini"', cost: '0.00123', usage: '{"kind":"text","input_tokens":1200,"output_tokens":34,"total_tokens":1234}' });
  const text = [entry({ status: 'validation_failed', time: '0.0' }), entry({ callId: 'b', status: 'retried', retries: '2' }), llm].join('\n');
  const outline = jsonlService.symbols(parse(text));
  assert.deepEqual(outline.map((s) => [s.name, s.detail, s.kind]), [
    ['#1 ✗ lookup_order', 'validation_failed, 0.0 ms', 'event'],
    ['#2 lookup_order', 'retried, 32.5 ms, 2 retries', 'call'],
    ['#3 llm.openai.chat_completions', 'success, 32.5 ms — gpt-4o-mini, 1234 tokens, $0.0012', 'message'],
  ]);
  assert.equal(cut(text, outline[0].selection), '"lookup_order"');
  assert.deepEqual(outline[1].span, { start: text.indexOf('\n') + 1, end: text.indexOf('\n', text.indexOf('\n') + 1) });
});

test('hover explains fields, status values and validation kinds in our words; LLM entries show spend', () => {
  const text = entry({ status: 'circuit_open', validations: '[{"valid":true,"kind":"semantic","message":"","details":{}}]' });
  const model = parse(text);
  assert.deepEqual(jsonlService.hover(model, offsetOf(text, '"retry_count"'), context), {
    span: spanOf(text, '"retry_count"'),
    markdown: '**result.retry_count**: integer\n\nHow many times the call was retried before this outcome.',
  });
  assert.equal(jsonlService.hover(model, offsetOf(text, '"circuit_open"'), context)?.markdown,
    '**status `circuit_open`** — counts as a **failure**\n\nThe call was refused without running: too many recent failures opened the circuit breaker for this tool.');
  assert.equal(jsonlService.hover(model, offsetOf(text, '"semantic"'), context)?.markdown,
    '**validation kind `semantic`**\n\nChecks the meaning of arguments or response (e.g. a business rule).');
  assert.match(jsonlService.hover(model, offsetOf(text, '"execution_time_ms"'), context)?.markdown ?? '', /null here means the value was NaN or infinite/);

  const llm = entry({ tool: 'llm.anthropic.messages', model: '"claude-x"', cost: '0.5', usage: '{"input_tokens":10,"output_tokens":5}' });
  const llmModel = parse(llm);
  assert.equal(jsonlService.hover(llmModel, offsetOf(llm, '"llm.anthropic.messages"'), context)?.markdown,
    '**LLM call `llm.anthropic.messages`** (line 1)\n\n- status: `success`\n- duration: 32.5 ms\n- cost: $0.5000\n- model: claude-x\n- tokens: 10 in, 5 out');
  assert.match(jsonlService.hover(llmModel, offsetOf(llm, '"usage"'), context)?.markdown ?? '', /LLM spend: claude-x, 15 tokens, \$0\.5000$/);
});

test('hover on a timestamp gives the time from call to result, to the microsecond', () => {
  const text = entry({ started: '2026-11-22T11:36:17.813682Z', finished: '2026-11-22T11:36:18.046354Z' });
  const model = parse(text);
  assert.deepEqual(jsonlService.hover(model, offsetOf(text, '"2026-11-22T11:36:18.046354Z"'), context), {
    span: spanOf(text, '"2026-11-22T11:36:18.046354Z"'),
    markdown: '**Result recorded** 2026-11-22T11:36:18.046354Z\n\n232.672 ms from call to result (wall clock, including guards and retries).',
  });
  assert.equal(jsonlService.hover(model, offsetOf(text, '"2026-11-22T11:36:17.813682Z"'), context)?.markdown.split('\n')[0], '**Call started** 2026-11-22T11:36:17.813682Z');
});

test('definition, references and highlights connect result.call_id and call.call_id', () => {
  const text = `${entry()}\n${entry({ callId: 'second' })}`;
  const model = parse(text);
  const callId = spanOf(text, '"de86d8d4-ccd2-45b6-a834-70ef73688471"', 0);
  const resultId = spanOf(text, '"de86d8d4-ccd2-45b6-a834-70ef73688471"', 1);
  assert.deepEqual(jsonlService.definition(model, resultId.start + 3), [{ span: callId }]);
  assert.deepEqual(jsonlService.definition(model, callId.start + 3), [{ span: resultId }]);
  assert.deepEqual(jsonlService.references(model, callId.start + 3, true), [{ span: callId }, { span: resultId }]);
  assert.deepEqual(jsonlService.highlights(model, resultId.start + 3), [{ span: callId, kind: 'write' }, { span: resultId, kind: 'read' }]);
  // A tool name's references are the calls of that tool across the log.
  assert.deepEqual(jsonlService.references(model, offsetOf(text, '"lookup_order"'), true).map((t) => t.span), [spanOf(text, '"lookup_order"', 0), spanOf(text, '"lookup_order"', 2)]);
});

test('completion offers status values while the line is still being typed, without shape noise', () => {
  const text = '{"call":{"call_id":"a","tool_name":"t"},"result":{"call_id":"a","tool_name":"t","status":"ti';
  const model = parse(text);
  const items = jsonlService.completion(model, text.length, context);
  assert.equal(items[2].label, 'timeout');
  assert.equal(items[2].insertText, '"timeout"');
  assert.equal(cut(text, items[2].replace!), '"ti');
  assert.deepEqual(jsonlService.validate(model, context).map((p) => p.code), ['jsonl/syntax']);
});

test('completion offers status values and validation kinds', () => {
  const text = entry({ status: 'fa', validations: '[{"valid":false,"kind":"","message":"","details":{}}]' });
  const model = parse(text);
  const statuses = jsonlService.completion(model, offsetOf(text, '"fa"', 2), context);
  assert.deepEqual(statuses.map((c) => c.label), ['success', 'failure', 'timeout', 'circuit_open', 'budget_exceeded', 'rate_limited', 'validation_failed', 'hallucinated', 'retried']);
  assert.deepEqual(statuses[1].replace, spanOf(text, 'fa'));
  assert.equal(statuses[1].insertText, 'failure');
  const kinds = jsonlService.completion(model, offsetOf(text, '"kind":""', 8), context);
  assert.deepEqual(kinds.map((c) => c.label), ['schema', 'hallucination', 'response_verification', 'semantic', 'custom']);
});

test('a line that is not an entry in an agentguard log', () => {
  const text = `${entry()}\n[1, 2]\n{"call": "x"`;
  assert.deepEqual(describe(text, problemsOf(text)), [
    'ag/not-entry "[" This line is not an agentguard trace entry: expected an object {"call": {...}, "result": {...}}',
    'jsonl/syntax "" Unexpected end of line: expected \'}\' (line 3 is not valid JSON; other lines are read on their own)',
  ]);
});

test('graph: the log\'s totals for the header, with the tokens and dollars of the entries that record them and no cost for a log that records none', () => {
  const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  const totals = (...lines: string[]) => jsonlService.graph!(parse(lines.join('\n')), { toRange }, context).totals;
  const llm = (callId: string, cost: string) => entry({
    callId, tool: 'llm.openai.chat_completions', model: '"gpt-4o-mini"', cost, usage: '{"kind":"text","input_tokens":1020,"output_tokens":130,"total_tokens":1150}',
  });
  assert.deepEqual(totals(entry(), llm('b', '0.000231'), entry({ callId: 'c', status: 'timeout' }), llm('d', '0.25')), {
    calls: 4, failedCalls: 1, tokens: 2300, inputTokens: 2040, outputTokens: 260, costUsd: 0.250231,
  });
  assert.deepEqual(totals(entry(), entry({ callId: 'b', status: 'failure' })), { calls: 2, failedCalls: 1 });
});

test('graph: a timeline of calls with status, duration, retries, cost and problems', () => {
  const text = [entry(), entry({ callId: 'b', status: 'timeout', time: '200.5', retries: '1', cost: '0.25' }), entry({ callId: 'c', resultTool: 'zzz' })].join('\n');
  const model = parse(text);
  const toRange = (span: { start: number; end: number }) => {
    const a = model.lineIndex.positionAt(span.start);
    const b = model.lineIndex.positionAt(span.end);
    return { start: a, end: b };
  };
  const graph = jsonlService.graph!(model, { toRange }, context);
  assert.equal(graph.format, 'agentguard');
  assert.deepEqual(graph.nodes.map((n) => [n.kind, n.title, n.status, n.durationMs, n.retries, n.cost, n.lane, n.y, n.height]), [
    ['entry', '#1 lookup_order', 'success', 32.5, 0, null, 0, 16, 44],
    ['entry', '#2 lookup_order', 'timeout', 200.5, 1, 0.25, 0, 72, 44],
    ['entry', '#3 lookup_order', 'success', 32.5, 0, null, 0, 128, 62],
  ]);
  assert.deepEqual(graph.edges, [{ from: 0, to: 1, kind: 'sequence' }, { from: 1, to: 2, kind: 'sequence' }]);
  assert.deepEqual(graph.nodes[2].problems.map((p) => p.code), ['ag/tool-name-mismatch']);
  assert.equal(graph.nodes[0].summary, 'lookup_order(1001)');
  const secondTool = spanOf(text, '"lookup_order"', 2);
  assert.deepEqual(graph.nodes[1].selection, toRange(secondTool));
  assert.equal(secondTool.start - text.indexOf('\n') - 1, 35);
  assert.equal(graph.height, 128 + 62 + 16);
  const limited = jsonlService.graph!(model, { toRange }, { settings: { ...context.settings, preview: { maxNodes: 2, maxTextLength: 10 } } });
  assert.equal(limited.nodes.length, 2);
  assert.equal(limited.limits.truncatedFrom, 3);
  assert.equal(limited.nodes[0].text, text.slice(0, 10));
  assert.equal(limited.nodes[0].textLength, text.indexOf('\n'));
});
