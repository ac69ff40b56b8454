import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, lines, model } from './helpers';
import { graph as traceGraph } from '../../../server/src/trace/graph';
import { LineIndex } from '../../../server/src/common/lineIndex';
import { GraphLayout } from '../../../shared/protocol';
import type { Span } from '../../../server/src/common/types';

const text = lines(
  '[',
  '  {"role": "system", "content": "Be brief."},',
  '  {"role": "user", "content": "Inbox?"},',
  '  {"role": "assistant", "content": "Looking", "tool_calls": [',
  '    {"id": "a", "type": "function", "function": {"name": "get_inbox", "arguments": {"n": 2}}},',
  '    {"id": "b", "type": "function", "function": {"name": "send_email", "arguments": {"to": "x"}}}',
  '  ]},',
  '  {"role": "tool", "tool_call_id": "a", "content": "1. Hello\\n2. Meeting"},',
  '  {"role": "tool", "content": "sent"},',
  '  {"role": "tool", "tool_call_id": "zzz", "content": "lost"},',
  '  {"role": 3}',
  ']',
);
const index = new LineIndex(text);
const toRange = (span: Span) => ({ start: index.positionAt(span.start), end: index.positionAt(span.end) });

test('nodes for events and calls with kinds, titles, summaries, tool names and problems', () => {
  const graph = traceGraph(model(text), { toRange }, context());
  assert.deepEqual(graph.nodes.map((n) => [n.id, n.kind, n.eventIndex, n.parent ?? '-', n.title, n.summary, n.toolName ?? '-', n.callId ?? '-']), [
    [0, 'system', 0, '-', '#0 system', 'Be brief.', '-', '-'],
    [1, 'user', 1, '-', '#1 user', 'Inbox?', '-', '-'],
    [2, 'assistant', 2, '-', '#2 assistant', 'Looking', '-', '-'],
    [3, 'call', 2, 2, 'get_inbox(n=2)', 'n=2', 'get_inbox', 'a'],
    [4, 'call', 2, 2, 'send_email(to="x")', 'to="x"', 'send_email', 'b'],
    [5, 'output', 3, '-', '#3 tool ← get_inbox', '1. Hello', 'get_inbox', 'a'],
    [6, 'output', 4, '-', '#4 tool ← send_email', 'sent', 'send_email', 'b'],
    [7, 'output', 5, '-', '#5 tool ← "zzz"', 'lost', '-', 'zzz'],
    [8, 'message', 6, '-', '#6 message', '', '-', '-'],
  ]);
  assert.deepEqual(graph.nodes[5].text, '1. Hello\n2. Meeting');
  assert.deepEqual(graph.nodes[5].range, { start: { line: 7, character: 2 }, end: { line: 7, character: 74 } });
  assert.deepEqual(graph.nodes[5].selection, { start: { line: 7, character: 35 }, end: { line: 7, character: 38 } });
  assert.deepEqual(graph.nodes[6].problems.map((p) => p.code), ['trace/implicit-output']);
  assert.deepEqual(graph.nodes[7].problems.map((p) => p.code), ['trace/unknown-call-id']);
  assert.deepEqual(graph.nodes[8].problems.map((p) => p.code), ['trace/role-type']);
  assert.deepEqual(graph.nodes[2].problems, []);
});

test('edges: sequence between events, call → output, implicit links and dangling references', () => {
  const graph = traceGraph(model(text), { toRange }, context());
  assert.deepEqual(graph.edges.map((e) => `${e.from}->${e.to} ${e.kind}`), [
    '0->1 sequence', '1->2 sequence', '2->5 sequence', '5->6 sequence', '6->7 sequence', '7->8 sequence',
    '3->5 output', '4->6 implicit-output', '7->-1 dangling',
  ]);
});

test('layout: a deterministic timeline with calls inside their assistant box and outputs in lane 2', () => {
  const graph = traceGraph(model(text), { toRange }, context());
  const again = traceGraph(model(text), { toRange }, context());
  assert.deepEqual(graph, again);
  const { headerHeight: h, lineHeight: l, callHeight: c, gap: g, padding: p } = GraphLayout;
  const single = h + l;
  const assistant = h + l + g / 2 + 2 * (c + g / 2);
  assert.deepEqual(graph.nodes.map((n) => [n.lane, n.y, n.height]), [
    [0, p, single],
    [0, p + single + g, single],
    [0, p + 2 * (single + g), assistant],
    [1, p + 2 * (single + g) + h + l + g / 2, c],
    [1, p + 2 * (single + g) + h + l + g / 2 + c + g / 2, c],
    [2, p + 2 * (single + g) + assistant + g, single],
    [2, p + 3 * (single + g) + assistant + g, single],
    [2, p + 4 * (single + g) + assistant + g, single],
    [0, p + 5 * (single + g) + assistant + g, single],
  ]);
  assert.equal(graph.height, p + 6 * (single + g) + assistant + g - g + p);
  assert.equal(graph.format, 'trace');
  assert.equal(graph.limits.truncatedFrom, undefined);
});

test('text is cut at maxTextLength with the full length kept', () => {
  const long = `[{"role": "user", "content": "${'x'.repeat(500)}"}]`;
  const settings = { ...context().settings, preview: { maxNodes: 100, maxTextLength: 100 } };
  const graph = traceGraph(model(long), { toRange }, { settings });
  assert.equal(graph.nodes[0].text.length, 100);
  assert.equal(graph.nodes[0].textLength, 500);
});

test('the node cap keeps whole events and says how many nodes there are', () => {
  const settings = { ...context().settings, preview: { maxNodes: 4, maxTextLength: 100 } };
  const graph = traceGraph(model(text), { toRange }, { settings });
  assert.deepEqual(graph.nodes.map((n) => n.id), [0, 1]);
  assert.equal(graph.limits.truncatedFrom, 9);
  assert.equal(graph.limits.maxNodes, 4);
});

test('an event with more calls than the cap draws the calls that fit, and says how many nodes there are', () => {
  const calls = Array.from({ length: 50 }, (_, i) => `{"id": "c${i}", "type": "function", "function": {"name": "t", "arguments": {}}}`);
  const wide = `[{"role": "user", "content": "go"}, {"role": "assistant", "tool_calls": [${calls.join(', ')}]}]`;
  const settings = { ...context().settings, preview: { maxNodes: 10, maxTextLength: 100 } };
  const graph = traceGraph(model(wide), { toRange }, { settings });
  assert.deepEqual(graph.nodes.map((n) => n.kind), ['user', 'assistant', ...Array(8).fill('call')]);
  assert.deepEqual(graph.nodes.slice(2).map((n) => n.callId), calls.slice(0, 8).map((_, i) => `c${i}`));
  assert.equal(graph.limits.truncatedFrom, 52);
});

test('a document that is not a trace gets an error and no nodes', () => {
  const graph = traceGraph(model('{"a": 1}'), { toRange }, context());
  assert.equal(graph.nodes.length, 0);
  assert.match(graph.error!, /not a trace/);
});
