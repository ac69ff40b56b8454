import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonlService } from '../../../server/src/jsonl';
import { traceService } from '../../../server/src/trace';
import { collectProblems } from '../../../server/src/trace/validate';
import { context, cut, parse, spanOf } from './helpers';

const raw = '[{"role": "user", "content": "hi"}]';
const trace = '{"index": 4, "name": "ls run", "messages": [{"role": "user", "content": "list files"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ls", "arguments": "{\\"dir\\": \\"/\\"}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "a b"}, {"role": "tool", "tool_call_id": "c9", "content": "x"}, {"role": "assistant", "content": "done"}], "annotations": [{"content": "the call", "address": "messages.1.tool_calls.0"}]}';

/** Moves every {start, end} span in a result by delta (results of the trace service run on the line alone). */
function shift<T>(value: T, delta: number): T {
  if (Array.isArray(value)) return value.map((item) => shift(item, delta)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = item;
    if (typeof out.start === 'number' && typeof out.end === 'number') {
      out.start = (out.start as number) + delta;
      out.end = (out.end as number) + delta;
    }
    for (const [key, item] of Object.entries(out)) if (item && typeof item === 'object') out[key] = shift(item, delta);
    return out as T;
  }
  return value;
}

function dataset(): { text: string; lineStart: number } {
  const text = `{"index": 1, "messages": [{"role": "user", "content": "first"}]}\n\n${trace}\n`;
  return { text, lineStart: text.indexOf(trace) };
}

test('every trace feature answers per line exactly as for the trace alone, with ranges inside the line', () => {
  const { text, lineStart } = dataset();
  const model = parse(text);
  const alone = traceService.parse({ uri: 'file:///alone.trace.json', version: 1, text: trace });
  let checked = 0;
  for (let offset = 0; offset <= trace.length; offset += 3) {
    const inFile = lineStart + offset;
    if (cut(trace, { start: offset - 1, end: offset + 30 }).includes('"address"')) continue;
    if (trace.slice(0, offset).lastIndexOf('"annotations"') !== -1) continue;
    const expectedHover = traceService.hover(alone, offset, context);
    const hover = jsonlService.hover(model, inFile, context);
    // Where the trace format has nothing to say, the dataset's own keys (index, name, annotations) are explained.
    if (expectedHover || !hover?.markdown.includes('(dataset trace)')) assert.deepEqual(hover, shift(expectedHover, lineStart), `hover at ${offset}`);
    assert.deepEqual(jsonlService.definition(model, inFile), shift(traceService.definition(alone, offset), lineStart), `definition at ${offset}`);
    assert.deepEqual(jsonlService.highlights(model, inFile), shift(traceService.highlights(alone, offset), lineStart), `highlights at ${offset}`);
    assert.deepEqual(jsonlService.completion(model, inFile, context), shift(traceService.completion(alone, offset, context), lineStart), `completion at ${offset}`);
    const expectedReferences = shift(traceService.references(alone, offset, true), lineStart);
    assert.deepEqual(jsonlService.references(model, inFile, true).slice(0, expectedReferences.length), expectedReferences, `references at ${offset}`);
    checked++;
  }
  assert.ok(checked > 100);
  // The two calls' ids: definition from the output lands inside this line.
  const output = spanOf(text, '"tool_call_id": "c1"');
  const targets = jsonlService.definition(model, output.end - 2);
  assert.ok(targets.length > 0 && targets.every((t) => t.span.start >= lineStart && t.span.end <= lineStart + trace.length));
});

test('trace problems are reported per line at their place in the file, next to the dataset rules', () => {
  const { text, lineStart } = dataset();
  const problems = jsonlService.validate(parse(text), context);
  const traceProblems = problems.filter((p) => p.code.startsWith('trace/'));
  const alone = traceService.parse({ uri: 'file:///alone.trace.json', version: 1, text: trace });
  assert.deepEqual(traceProblems, shift(collectProblems(alone, context), lineStart));
  assert.ok(traceProblems.some((p) => p.code === 'trace/unknown-call-id' && cut(text, p.span) === '"c9"'));
  assert.deepEqual(problems.filter((p) => !p.code.startsWith('trace/')), []);
  // A broken trace line reports its syntax error once, not again through the trace service.
  const broken = `${raw}\n[{"role": "user", "content": "hi"]`;
  const brokenProblems = jsonlService.validate(parse(broken), context);
  assert.ok(brokenProblems.length > 0 && brokenProblems.every((p) => p.code === 'jsonl/syntax'));
  assert.equal(brokenProblems[0].span.start, broken.lastIndexOf(']'));
});

test('outline: one entry per trace with its events below, inside the line', () => {
  const { text, lineStart } = dataset();
  const outline = jsonlService.symbols(parse(`{"metadata": {"v": 1}}\n${text}`));
  const offset = '{"metadata": {"v": 1}}\n'.length;
  assert.deepEqual(outline.map((item) => [item.name, item.detail, item.kind]), [
    ['Dataset metadata', undefined, 'metadata'],
    ['#1', '1 event — first', 'trace'],
    ['#4 ls run', '5 events — list files', 'trace'],
  ]);
  const alone = traceService.parse({ uri: 'file:///alone.trace.json', version: 1, text: trace });
  assert.deepEqual(outline[2].children, shift(traceService.symbols(alone), lineStart + offset));
  assert.deepEqual(outline[2].span, { start: lineStart + offset, end: lineStart + offset + trace.length });
  const rawOutline = jsonlService.symbols(parse(`${raw}\n[{"metadata": {"name": "named run"}}, {"role": "user", "content": "yo"}]`));
  assert.deepEqual(rawOutline.map((item) => [item.name, item.detail]), [['Trace 1', '1 event — hi'], ['named run', '1 event — yo']]);
});

test('graph: the chosen trace through the trace service, every trace listed for the picker', () => {
  const { text, lineStart } = dataset();
  const model = parse(text);
  const toRange = (span: { start: number; end: number }) => ({ start: model.lineIndex.positionAt(span.start), end: model.lineIndex.positionAt(span.end) });
  const byCursor = jsonlService.graph!(model, { cursorOffset: lineStart + 10, toRange }, context);
  assert.equal(byCursor.format, 'dataset');
  assert.equal(byCursor.traceIndex, 1);
  assert.deepEqual(byCursor.traces, [{ index: 0, label: '#1 (line 1)' }, { index: 1, label: '#4 ls run (line 3)' }]);
  assert.equal(byCursor.uri, 'file:///test.jsonl');
  assert.deepEqual(byCursor.nodes.map((n) => n.kind), ['user', 'assistant', 'call', 'output', 'output', 'assistant']);
  assert.ok(byCursor.nodes.every((n) => n.range.start.line === 2 && n.range.end.line === 2));
  const alone = traceService.parse({ uri: 'file:///alone.trace.json', version: 1, text: trace });
  const aloneGraph = traceService.graph!(alone, { toRange: (s) => ({ start: { line: 2, character: s.start + lineStart - text.lastIndexOf('\n', lineStart - 1) - 1 }, end: { line: 2, character: s.end + lineStart - text.lastIndexOf('\n', lineStart - 1) - 1 } }) }, context);
  assert.deepEqual(byCursor.nodes, aloneGraph.nodes);
  assert.deepEqual(byCursor.edges, aloneGraph.edges);

  assert.equal(jsonlService.graph!(model, { toRange }, context).traceIndex, 0);
  assert.equal(jsonlService.graph!(model, { traceIndex: 1, cursorOffset: 0, toRange }, context).traceIndex, 1);
  assert.equal(jsonlService.graph!(model, { traceIndex: 7, toRange }, context).traceIndex, 0);
  const empty = jsonlService.graph!(parse('{"metadata": {}}'), { toRange }, context);
  assert.equal(empty.error, 'This file holds no traces yet: each line should be an event list or an object with "messages".');
});

test('called tools are counted across all lines', () => {
  const { text } = dataset();
  assert.deepEqual([...jsonlService.calledTools!(parse(`${text}\n${text}`))], [['ls', 2]]);
  const agentguard = '{"call":{"call_id":"a","tool_name":"t1"},"result":{}}\n{"call":{"call_id":"b","tool_name":"t1"},"result":{}}';
  assert.deepEqual([...jsonlService.calledTools!(parse(agentguard))], [['t1', 2]]);
});
