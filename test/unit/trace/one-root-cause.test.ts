import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, lines, model, offsetOf, problems, where } from './helpers';
import { graph as traceGraph } from '../../../server/src/trace/graph';
import { LineIndex } from '../../../server/src/common/lineIndex';
import type { Span } from '../../../server/src/common/types';
import { codes, problemsOf } from '../jsonl/helpers';
import { traceService } from '../../../server/src/trace';

const { definition: traceDefinition } = traceService;

/** A clean trace (no problem at all); each case below seeds one fault into it by replacing one piece. */
const callObject = '{"id": "c1", "type": "function", "function": {"name": "get_inbox", "arguments": "{\\"n\\": 10}"}}';
const clean = lines(
  '[',
  '  {"role": "user", "content": "Inbox?"},',
  `  {"role": "assistant", "content": null, "tool_calls": [${callObject}]},`,
  '  {"role": "tool", "tool_call_id": "c1", "content": "3 mails"},',
  '  {"role": "assistant", "content": "You have 3 mails."}',
  ']',
);

function seeded(from: string, to: string): string {
  assert.ok(clean.includes(from), from);
  return clean.replace(from, to);
}

test('the clean trace has no problem at all', () => {
  assert.deepEqual(problems(clean), []);
});

// Every case counts every problem of every severity: the seeded fault must be the only one reported.
const cases: [string, string, string, string][] = [
  ['tool_calls is the call object instead of a list', `[${callObject}]`, callObject,
    'error trace/tool-calls-type 2:55-2:150 "{\\"id\\": \\"c1\\", \\"type\\": \\"function\\", \\"function\\": {\\"name\\": \\"get_inbox\\", \\"arguments\\": \\"{\\\\\\"n\\\\\\": 10}\\"}}": "tool_calls" must be a list of tool calls (or null), not an object'],
  ['a call whose function is a string', '"function": {"name": "get_inbox", "arguments": "{\\"n\\": 10}"}', '"function": "get_inbox"',
    'error trace/call-missing-function 2:101-2:112 "\\"get_inbox\\"": "function" must be an object {"name": "…", "arguments": {…}}, not a string'],
  ['a call whose function has no name', '"name": "get_inbox", ', '',
    'error trace/function-name 2:89-2:99 "\\"function\\"": "function" has no "name": add the name of the tool called'],
  ['an event that is not an object', '  {"role": "user", "content": "Inbox?"},', '  "Inbox?",',
    'error trace/event-not-object 1:2-1:10 "\\"Inbox?\\"": Event #0 is a string; every event must be a JSON object such as {"role": "user", "content": "…"}'],
  ['arguments whose JSON is cut short', '"{\\"n\\": 10}"', '"{\\"n\\": 10"',
    `error trace/arguments-json 2:147-2:148 "\\"": arguments: the JSON in this string breaks here: Unexpected end of string: expected '}'`],
  ['arguments of the wrong type', '"{\\"n\\": 10}"', '10',
    'error trace/arguments-type 2:136-2:138 "10": "arguments" must be an object or a JSON string encoding one, not a number'],
  ['a calling message without a role', '{"role": "assistant", "content": null, "tool_calls"', '{"content": null, "tool_calls"',
    'error trace/missing-role 2:2-2:3 "{": Event #1 has no "role": add "role": "user", "assistant", "system" or "tool" (or "type": "function" for a tool call)'],
  ['a tool output without a role', '{"role": "tool", "tool_call_id"', '{"tool_call_id"',
    'error trace/missing-role 3:2-3:3 "{": Event #2 has no "role": add "role": "user", "assistant", "system" or "tool" (or "type": "function" for a tool call)'],
  ['a tool output whose role is not a string', '{"role": "tool", "tool_call_id"', '{"role": 4, "tool_call_id"',
    'error trace/role-type 3:11-3:12 "4": "role" must be a string such as "user", "assistant", "system" or "tool", not a number'],
  ['a call without a type', '"type": "function", "function": {"name"', '"function": {"name"',
    'error trace/call-missing-type 2:56-2:57 "{": This tool call has no "type": add "type": "function"'],
  ['a tool_calls entry that is not an object, beside a good call', `[${callObject}]`, `[${callObject}, 7]`,
    'error trace/tool-calls-type 2:153-2:154 "7": tool_calls[1] is a number; each tool call must be an object {"id", "type": "function", "function": {…}}'],
  ['content of the wrong type', '"content": "3 mails"', '"content": 3',
    'error trace/content-type 3:52-3:53 "3": A tool output\'s "content" must be a string, a list of chunks or an object, not a number'],
];

for (const [name, from, to, expected] of cases) {
  test(`one fault, one problem: ${name}`, () => {
    assert.deepEqual(problems(seeded(from, to)), [expected]);
  });
}

test('a top-level call without a type is still the call its output answers', () => {
  const text = lines(
    '[',
    '  {"id": "t1", "function": {"name": "send", "arguments": {}}},',
    '  {"role": "tool", "tool_call_id": "t1", "content": "sent"}',
    ']',
  );
  assert.deepEqual(problems(text), ['error trace/call-missing-type 1:2-1:3 "{": This tool call has no "type": add "type": "function"']);
});

test('the call inside an object tool_calls is navigable and drawn, linked to its output', () => {
  const text = seeded(`[${callObject}]`, callObject);
  const m = model(text);
  assert.equal(m.calls.length, 1);
  const output = offsetOf(text, '"c1"', 2, 2);
  assert.deepEqual(traceDefinition(m, output).map((t) => where(text, t.selection!)), ['2:62-2:66']);
  assert.deepEqual(traceDefinition(m, offsetOf(text, '"c1"', 2, 1)).map((t) => where(text, t.selection!)), ['3:35-3:39']);
  const index = new LineIndex(text);
  const toRange = (span: Span) => ({ start: index.positionAt(span.start), end: index.positionAt(span.end) });
  const graph = traceGraph(m, { toRange }, context());
  assert.deepEqual(graph.nodes.filter((n) => n.kind === 'call').map((n) => `${n.title} ${n.callId}`), ['get_inbox(n=10) c1']);
  assert.deepEqual(graph.edges.filter((e) => e.kind === 'output').length, 1);
});

test('dataset trace lines get the same single error for the same fault', () => {
  const line = (calls: string) => JSON.stringify({ index: 0, messages: [
    { role: 'assistant', content: null, tool_calls: calls },
    { role: 'tool', tool_call_id: 'c1', content: 'ok' },
  ] });
  const call = { id: 'c1', type: 'function', function: { name: 'ls', arguments: {} } };
  assert.deepEqual(codes(problemsOf(`${line([call] as unknown as string)}\n`)), []);
  assert.deepEqual(codes(problemsOf(`${line(call as unknown as string)}\n`)), ['trace/tool-calls-type']);
  const noRole = JSON.stringify({ index: 0, messages: [
    { content: null, tool_calls: [call] },
    { role: 'tool', tool_call_id: 'c1', content: 'ok' },
  ] });
  assert.deepEqual(codes(problemsOf(`${noRole}\n`)), ['trace/missing-role']);
});

test('a string cut at the end of its line is one error, not also the closer it swallowed', () => {
  assert.deepEqual(problems(seeded('"You have 3 mails."}', '"You have 3 mails.}')), [
    `error json/syntax 4:35-4:54 "\\"You have 3 mails.}": Unterminated string: expected a closing '"' before the end of the line`,
  ]);
  // a closer that is wrong for another reason is still reported
  assert.ok(problems('[{"role": "user", "content": "x"]]').some((p) => p.includes("Expected ',' or '}', found ']'")));
});
