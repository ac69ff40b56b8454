import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, lines, model, where } from './helpers';
import { completion as traceCompletion } from '../../../server/src/trace/completion';

/** Completes at the `|` in the text (removed before parsing). */
function complete(withCursor: string) {
  const offset = withCursor.indexOf('|');
  const text = withCursor.slice(0, offset) + withCursor.slice(offset + 1);
  const entries = traceCompletion(model(text), offset, context());
  return { text, entries, render: entries.map((e) => `${e.label} ${e.replace ? where(text, e.replace) : ''}`) };
}

const calls = lines(
  '[',
  '  {"role": "assistant", "tool_calls": [',
  '    {"id": "call_a", "type": "function", "function": {"name": "get_inbox", "arguments": {"n": 10}}},',
  '    {"id": "call_b", "type": "function", "function": {"name": "send_email", "arguments": {"to": "bob"}}}',
  '  ]},',
  '  {"role": "tool", "tool_call_id": "call_a", "content": "inbox"},',
);

test('after { in a new event: the event keys, as snippets inserted at the cursor', () => {
  const { render, entries } = complete(lines('[', '  {"role": "user", "content": "hi"},', '  {|', ']'));
  assert.deepEqual(render, ['role 2:3-2:3', 'content 2:3-2:3', 'tool_calls 2:3-2:3', 'tool_call_id 2:3-2:3', 'name 2:3-2:3', 'metadata 2:3-2:3']);
  assert.equal(entries[0].insertText, '"role": "${1|user,assistant,system,tool,developer|}"');
  assert.equal(entries[0].snippet, true);
  assert.equal(entries[0].detail, 'string');
});

test('keys depend on the role and skip keys already present', () => {
  const { render } = complete(lines('[', '  {"role": "tool", |}', ']'));
  assert.deepEqual(render, ['tool_call_id 1:19-1:19', 'content 1:19-1:19', 'name 1:19-1:19', 'metadata 1:19-1:19']);
});

test('a half-typed key is replaced with its quotes; only the key is inserted when a colon follows', () => {
  const typed = complete(lines('[', '  {"role": "assistant", "tool_c|', ']'));
  assert.deepEqual(typed.render.slice(0, 2), ['content 1:24-1:31', 'tool_calls 1:24-1:31']);
  const withColon = complete(lines('[', '  {"role": "assistant", "tool_c|": []}', ']'));
  const toolCalls = withColon.entries.find((e) => e.label === 'tool_calls')!;
  assert.equal(where(withColon.text, toolCalls.replace!), '1:24-1:32');
  assert.equal(toolCalls.insertText, '"tool_calls"');
  assert.equal(toolCalls.snippet, false);
});

test('keys of tool calls, functions and chunks', () => {
  assert.deepEqual(complete('[{"role": "assistant", "tool_calls": [{|}]}]').render, ['id 0:39-0:39', 'type 0:39-0:39', 'function 0:39-0:39']);
  assert.deepEqual(complete('[{"role": "assistant", "tool_calls": [{"function": {"name": "f", |}}]}]').render, ['arguments 0:65-0:65']);
  assert.deepEqual(complete('[{"role": "user", "content": [{|}]}]').render, ['type 0:31-0:31', 'text 0:31-0:31', 'image_url 0:31-0:31']);
});

test('role values after the colon and inside a half-typed string', () => {
  const after = complete('[{"role": |}]');
  assert.deepEqual(after.render, ['user 0:10-0:10', 'assistant 0:10-0:10', 'system 0:10-0:10', 'tool 0:10-0:10', 'developer 0:10-0:10']);
  assert.equal(after.entries[1].insertText, '"assistant"');
  const inside = complete('[{"role": "as|"}]');
  assert.equal(inside.render[1], 'assistant 0:10-0:14');
  assert.equal(inside.entries[1].filterText, '"assistant"');
});

test('"function" for a call type', () => {
  assert.deepEqual(complete('[{"role": "assistant", "tool_calls": [{"id": "1", "type": |}]}]').render, ['function 0:58-0:58']);
  assert.deepEqual(complete('[{"type": "|"}]').render, ['function 0:10-0:12']);
});

test('tool_call_id offers earlier calls, unanswered first, labelled with the tool', () => {
  const { entries, render } = complete(`${calls}\n  {"role": "tool", "tool_call_id": |}\n]`);
  assert.deepEqual(render, ['call_b 6:35-6:35', 'call_a 6:35-6:35']);
  assert.equal(entries[0].detail, 'send_email(to="bob") — #0, unanswered');
  assert.equal(entries[1].detail, 'get_inbox(n=10) — #0, answered in #1');
  assert.equal(entries[0].insertText, '"call_b"');
});

test('tool_call_id completion inside a half-typed string replaces the partial string, quotes included', () => {
  const open = complete(`${calls}\n  {"role": "tool", "tool_call_id": "ca|\n]`);
  assert.deepEqual(open.render, ['call_b 6:35-6:38', 'call_a 6:35-6:38']);
  const closed = complete(`${calls}\n  {"role": "tool", "tool_call_id": "ca|ll"}\n]`);
  assert.deepEqual(closed.render, ['call_b 6:35-6:41', 'call_a 6:35-6:41']);
});

test('calls made later are not offered', () => {
  const text = lines(
    '[',
    '  {"role": "tool", "tool_call_id": |},',
    '  {"id": "later", "type": "function", "function": {"name": "f", "arguments": {}}}',
    ']',
  );
  assert.deepEqual(complete(text).render, []);
});

test('nothing after a finished value, inside content text, or in arguments', () => {
  assert.deepEqual(complete('[{"role": "user" |}]').render, []);
  assert.deepEqual(complete('[{"role": "user", "content": "hel|lo"}]').render, []);
  assert.deepEqual(complete('[{"id": "1", "type": "function", "function": {"name": "f", "arguments": {|}}}]').render, []);
});

test('between events: event snippets', () => {
  const { render, entries } = complete(lines('[', '  {"role": "user", "content": "hi"},', '  |', ']'));
  assert.deepEqual(render, ['user message 2:2-2:2', 'assistant message 2:2-2:2', 'assistant tool call 2:2-2:2', 'tool output 2:2-2:2']);
  assert.equal(entries[0].snippet, true);
});

test('completion works in the events of the object form', () => {
  const { render } = complete('{"messages": [{"role": "user", "content": "a"}, {|}]}');
  assert.deepEqual(render.slice(0, 2), ['role 0:49-0:49', 'content 0:49-0:49']);
  assert.deepEqual(complete('{|}').render, ['messages 0:1-0:1', 'metadata 0:1-0:1', 'annotations 0:1-0:1']);
});
