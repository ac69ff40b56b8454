import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { spansService, detectSpans, type SpansModel } from '../../../server/src/otel';
import { languageForDocument, languageForFile } from '../../../server/src/languages';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { OutlineItem } from '../../../server/src/common/types';
import { corpus, corpusOrSkip } from '../corpus';

const context: ServiceContext = { settings: defaultSettings };
const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
const frameworks = ['AGNO', 'GOOGLE', 'LANGCHAIN', 'LLAMA_INDEX', 'OPENAI'];
const read = (name: string) => readFileSync(path.join(corpus, 'formats/otel-any-agent', `${name}_trace.json`), 'utf8');
const parse = (text: string): SpansModel => spansService.parse({ uri: 'file:///runs/trace.json', version: 1, text });
const outline = (items: OutlineItem[], depth = 0): string[] =>
  items.flatMap((item) => [`${'  '.repeat(depth)}${item.name}${item.detail ? ` | ${item.detail}` : ''}`, ...outline(item.children ?? [], depth + 1)]);

test('any-agent runs of five frameworks: recognised by content, read without a fault, every call linked to its tool span', (t) => {
  if (!corpusOrSkip(t)) return;
  const linked: string[] = [];
  for (const framework of frameworks) {
    const text = read(framework);
    assert.equal(detectSpans(text), 'any-agent', framework);
    assert.equal(languageForFile('/runs/trace.json', text), 'otel-spans', framework);
    assert.equal(languageForDocument('file:///runs/trace.json', 'json', text), 'otel-spans', framework);
    assert.equal(languageForDocument('file:///runs/trace.json', 'agent-trace', text), 'otel-spans', framework);
    const model = parse(text);
    assert.deepEqual(spansService.validate(model, context).map((p) => `${p.code}: ${p.message}`), [], framework);
    assert.equal(model.traces.length, 1, framework);
    const trace = model.traces[0];
    for (const call of trace.calls) {
      assert.equal(call.outputs.length, 1, `${framework} ${call.name}`);
      assert.equal(call.outputs[0].step.attributes.get('gen_ai.tool.name')?.value?.type, 'string');
      linked.push(`${framework}: ${call.name} #${call.step.index} → #${call.outputs[0].step.index}${call.outputs[0].callId ? ` (${call.outputs[0].callId})` : ''}`);
    }
  }
  // Only AGNO and Google's ADK write tool call ids, and only on the tool spans: every link is inferred.
  assert.deepEqual(linked, [
    'AGNO: get_current_time #0 → #1 (LlAGPjfO0)', 'AGNO: write_file #2 → #3 (wzCUjvRq4)',
    'GOOGLE: get_current_time #0 → #1 (jbUWqgIUr)', 'GOOGLE: write_file #2 → #3 (j5pzf0TaM)', 'GOOGLE: final_output #4 → #5 (Je755BQAS)',
    'LANGCHAIN: get_current_time #0 → #1', 'LANGCHAIN: write_file #2 → #3',
    'LLAMA_INDEX: get_current_time #0 → #1', 'LLAMA_INDEX: write_file #2 → #3', 'LLAMA_INDEX: final_output #4 → #5',
    'OPENAI: get_current_time #0 → #1', 'OPENAI: write_file #2 → #3',
  ]);
});

test('OPENAI_trace.json: the tool span leads to the call in the model output that it answers, and the hover says the link was inferred', (t) => {
  if (!corpusOrSkip(t)) return;
  const text = read('OPENAI');
  const model = parse(text);
  // The tool span's gen_ai.tool.name: definition goes to the call inside the first model span's gen_ai.output string.
  const toolName = text.indexOf('"get_current_time"', text.indexOf('"gen_ai.tool.name"'));
  const [target] = spansService.definition(model, toolName + 3);
  assert.equal(text.slice(target.selection!.start, target.selection!.end), '\\"get_current_time\\"');
  assert.ok(text.slice(target.span.start, target.span.end).startsWith('{\\"tool.name\\": \\"get_current_time\\", \\"tool.args\\"'));
  assert.ok(target.span.start > text.indexOf('"gen_ai.output"') && target.span.start < text.indexOf('"gen_ai.output.type"'));
  // And back: from the call's name to the tool span.
  const [back] = spansService.definition(model, target.selection!.start + 3);
  assert.equal(text.slice(back.selection!.start, back.selection!.end), '"get_current_time"');
  assert.equal(back.selection!.start, toolName);
  const hover = spansService.hover(model, toolName + 3, context)!;
  assert.match(hover.markdown, /^\*\*Answers\*\* `get_current_time\(timezone="America\/New_York"\)` — span #0 "call_llm mistral\/mistral-small-latest", ran 2\.5 ms/);
  assert.match(hover.markdown, /the link is inferred from span nesting and order \(the call has no id\): the first unanswered call to "get_current_time" made before this span, by a model span beside it in the tree/);
  assert.match(hover.markdown, /"timezone": "America\/New_York"/);
});

test('AGNO_trace.json: the tool span\'s gen_ai.tool.call.id names no call (the model output has none), so the link is inferred from it too', (t) => {
  if (!corpusOrSkip(t)) return;
  const text = read('AGNO');
  const model = parse(text);
  const id = text.indexOf('"LlAGPjfO0"');
  const [target] = spansService.definition(model, id + 2);
  assert.equal(text.slice(target.selection!.start, target.selection!.end), '\\"get_current_time\\"');
  const hover = spansService.hover(model, id + 2, context)!;
  assert.match(hover.markdown, /\(the link is inferred from span nesting and order \(the call has no id\)/);
  // Inlay hints name the call after the id; a rename is refused (the framework wrote the ids).
  const hints = spansService.inlayHints!(model, { start: 0, end: text.length }, context);
  assert.deepEqual(hints.filter((hint) => hint.offset === id + '"LlAGPjfO0"'.length).map((hint) => hint.label), ['← get_current_time #0']);
  assert.match(spansService.renameRefusal!(model, id + 2) ?? '', /written by the agent framework/);
});

test('GOOGLE_trace.json: parents that are not in the file make roots, and the tool spans are linked across them', (t) => {
  if (!corpusOrSkip(t)) return;
  const model = parse(read('GOOGLE'));
  assert.equal(model.traces[0].roots.length, 7);
  assert.match(model.traces[0].outputs[0].inferred!, /by a model span earlier in the trace$/);
  const hover = spansService.hover(model, model.steps[1].parentId!.start + 1, context)!;
  assert.match(hover.markdown, /^\*\*Parent span\*\* `ea5dc1b933506464` \(written in an integer\)\n\nNo span of this file has this id: the span is a root here\.$/);
});

test('LLAMA_INDEX_trace.json: the outline is the span tree with durations, tokens and calls, and the trace\'s totals on top (its cost the sum of the model spans\' gen_ai.usage.*_cost)', (t) => {
  if (!corpusOrSkip(t)) return;
  const model = parse(read('LLAMA_INDEX'));
  assert.deepEqual(outline(spansService.symbols(model)), [
    'Trace 89c41176… | 9 spans · 3 calls · 3.93 s · 1,563 tokens (1,308 in, 255 out) · $0.00021 · invoke_agent [any_agent]',
    '  invoke_agent [any_agent] | 3.93 s',
    '    call_llm mistral/mistral-small-latest | 983.8 ms · 233 tokens (197 in, 36 out) · 1 call',
    '    execute_tool get_current_time | 3.1 ms',
    '    call_llm mistral/mistral-small-latest | 226.4 ms · 295 tokens (262 in, 33 out) · 1 call',
    '    execute_tool write_file | 0.8 ms',
    '    call_llm mistral/mistral-small-latest | 582.3 ms · 379 tokens (285 in, 94 out) · 1 call',
    '    execute_tool final_output | 1.1 ms',
    '    call_llm mistral/mistral-small-latest | 1.41 s · 435 tokens (403 in, 32 out)',
    '    call_llm mistral/mistral-small-latest | 712.1 ms · 221 tokens (161 in, 60 out)',
  ]);
});

test('LANGCHAIN_trace.json: the preview draws the span tree (indented under the agent), calls inside the model spans, and edges to the tool spans', (t) => {
  if (!corpusOrSkip(t)) return;
  const model = parse(read('LANGCHAIN'));
  const graph = spansService.graph!(model, { toRange }, context);
  assert.equal(graph.format, 'otel-spans');
  assert.deepEqual(graph.nodes.map((node) => `${node.kind} ${node.title}${node.depth ? ` depth ${node.depth}` : ''}${node.tokens ? ` ${node.tokens} tokens` : ''}`), [
    'system #6 invoke_agent [any_agent]',
    'assistant #0 call_llm mistral/mistral-small-latest depth 1 261 tokens',
    'call #0 get_current_time(timezone="America/New_York") depth 1',
    'output #1 execute_tool get_current_time depth 1',
    'assistant #2 call_llm mistral/mistral-small-latest depth 1 345 tokens',
    'call #2 write_file(text="2025") depth 1',
    'output #3 execute_tool write_file depth 1',
    'assistant #4 call_llm mistral/mistral-small-latest depth 1 399 tokens',
    'assistant #5 call_llm mistral/mistral-small-latest depth 1 382 tokens',
  ]);
  assert.deepEqual(graph.edges.filter((edge) => edge.kind !== 'sequence').map((edge) => `${edge.from} → ${edge.to} ${edge.kind}`), ['2 → 3 implicit-output', '5 → 6 implicit-output']);
  assert.deepEqual(
    { ...graph.totals, durationMs: Math.round(graph.totals!.durationMs!), costUsd: graph.totals!.costUsd!.toFixed(7) },
    { calls: 2, failedCalls: 0, durationMs: 1793, tokens: 1387, inputTokens: 1262, outputTokens: 125, costUsd: '0.0001637' },
  );
  assert.equal(graph.nodes[3].durationMs!.toFixed(3), '2.967');
});
