import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRulesOnTrace, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { tracesInText } from '../../../server/src/rulesOnTraces/tracesInText';
import { isConverted, traceLayoutOfFile, type TraceLayout } from '../../../server/src/traceFormats';
import { corpus, corpusOrSkip } from '../corpus';
import { conventionsRun, exporterFile, runWithoutIds } from './samples';

function rules(source: string): RuleFile {
  const uri = 'file:///w/rules/spans.gr';
  return { uri, model: guardrailService.parse({ uri, version: 1, text: source }) as RuleModel };
}

function layoutOf(file: string, text: string): TraceLayout {
  const layout = traceLayoutOfFile(file, text);
  assert.ok(isConverted(layout), `${file} is read as a format that converts`);
  return layout;
}

function converted(file: string, text: string): unknown[][] {
  return [...tracesInText(text, layoutOf(file, text), file)].map((found) => {
    assert.equal(found.problem, undefined);
    return found.trace as unknown[];
  });
}

function marked(file: string, text: string, source: string): string[] {
  return evaluateRulesOnTrace([rules(source)], text, layoutOf(file, text), { workBudget: 1_000_000, path: file }).violations.map((v) => text.slice(v.span.start, v.span.end));
}

const writeRule = 'raise "writes a file" if:\n    (call: ToolCall)\n    call is tool:write_file\n    "2025" in call.function.arguments.text\n';
const outputRule = (word: string) => `raise "time" if:\n    (out: ToolOutput)\n    "${word}" in out.content\n`;

test('OTLP spans with call ids (imitating OPENAI_trace.json\'s run): our mapping to Invariant events, the history given once', () => {
  const [trace] = converted('/w/spans.jsonl', exporterFile(conventionsRun()));
  assert.deepEqual(trace, [
    { role: 'user', content: 'Find what year it is in the America/New_York timezone and write it to a file.' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_current_time', arguments: { timezone: 'America/New_York' } } }] },
    { role: 'tool', content: '{"datetime": "2025-09-16T08:43:13-04:00"}', tool_call_id: 'call_1', metadata: { error: null } },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'write_file', arguments: { text: '2025' } } }] },
    { role: 'tool', content: 'written', tool_call_id: 'call_2', metadata: { error: null } },
    { role: 'assistant', content: 'The year is 2025; I wrote it to a file.' },
  ]);
});

test('a failed tool span carries its error in the event\'s metadata, as an Inspect tool message does; a model\'s reasoning is left out', () => {
  // conventionsRun (OPENAI_trace.json's run in OTLP) with its write_file span failed, as the conventions record a
  // failure (status code 2, `error.type`), and the last model span's output opening with a reasoning part.
  const run = conventionsRun().map((spec) => spec.attributes['gen_ai.tool.name'] === 'write_file'
    ? { ...spec, status: 'error' as const, attributes: { ...spec.attributes, 'error.type': 'PermissionError', 'gen_ai.tool.call.result': 'denied' } }
    : spec);
  const last = run.find((spec) => spec.id === 6)!;
  last.attributes['gen_ai.output.messages'] = JSON.stringify([{ role: 'assistant', parts: [
    { type: 'reasoning', content: 'The write failed; say so.' }, { type: 'text', content: 'I could not write the file.' },
  ] }]);
  const text = exporterFile(run);
  const [trace] = converted('/w/spans.jsonl', text) as { role: string; content: unknown; metadata?: unknown }[][];
  assert.deepEqual(trace.filter((event) => event.role === 'tool').map((event) => event.metadata), [
    { error: null },
    { error: { type: 'PermissionError', message: 'tool failed' } },
  ]);
  assert.deepEqual(trace[trace.length - 1], { role: 'assistant', content: 'I could not write the file.' });
  const failedRule = 'raise "a tool failed" if:\n    (out: ToolOutput)\n    out.metadata.error is not None\n    out.metadata.error.type == "PermissionError"\n';
  // A comparison binds no characters of its own: the violation lands on the failed tool span, as on an Inspect tool message.
  const [failed] = marked('/w/spans.jsonl', text, failedRule);
  assert.match(failed, /^\{"traceId":"[0-9a-f]{32}","spanId":"0000000000000005",[^]*"status":\{"code":2,"message":"tool failed"\}\}$/);
  assert.deepEqual(marked('/w/spans.jsonl', text, outputRule('say so')), [], 'rules do not see the reasoning');
});

test('OTLP spans without call ids (imitating LANGCHAIN_trace.json): a call takes an id of its span, and its result the same', () => {
  const [trace] = converted('/w/spans.jsonl', exporterFile(runWithoutIds()));
  const calls = (trace as { tool_calls?: { id: string }[]; tool_call_id?: string }[]).flatMap((event) => [...(event.tool_calls ?? []).map((call) => `call ${call.id}`), ...(event.tool_call_id ? [`result ${event.tool_call_id}`] : [])]);
  assert.deepEqual(calls, ['call span0.call0', 'result span0.call0', 'call span2.call0', 'result span2.call0']);
});

test('a violation in spans lands on the original characters: inside the escaped messages JSON, and on a tool span\'s own result', () => {
  const text = exporterFile(conventionsRun());
  assert.deepEqual(marked('/w/spans.jsonl', text, writeRule), ['\\"2025\\"']);
  // An OTLP stringValue is the file's own literal: the violation marks the very characters the rule found.
  assert.deepEqual(marked('/w/spans.jsonl', text, outputRule('datetime')), ['datetime']);
});

test('the corpus runs of five frameworks: every call and result converted, violations on the any-agent file\'s characters', (t) => {
  if (!corpusOrSkip(t)) return;
  for (const framework of ['AGNO', 'GOOGLE', 'LANGCHAIN', 'LLAMA_INDEX', 'OPENAI']) {
    const file = path.join(corpus, 'formats/otel-any-agent', `${framework}_trace.json`);
    const text = readFileSync(file, 'utf8');
    const [trace] = converted(file, text) as { role: string; tool_calls?: unknown[]; tool_call_id?: string }[][];
    assert.equal(trace.filter((event) => event.tool_calls).length, trace.filter((event) => event.role === 'tool').length, framework);
    assert.equal(trace[0].role, 'system', framework);
    assert.equal(trace[1].role, 'user', framework);
    // The tool span's gen_ai.output is the file's own string: the violation marks the words the rule found.
    const found = marked(file, text, outputRule('America/New_York'));
    assert.ok(found.length >= 1 && found.every((words) => words === 'America/New_York'), `${framework}: ${found}`);
  }
  const openai = readFileSync(path.join(corpus, 'formats/otel-any-agent/OPENAI_trace.json'), 'utf8');
  assert.deepEqual(marked('/w/OPENAI_trace.json', openai, writeRule), ['\\"{\\\\\\"text\\\\\\": \\\\\\"2025\\\\\\"}\\"']);
});
