import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lines, model, where } from './helpers';
import { symbols as traceSymbols } from '../../../server/src/trace/symbols';
import { folding as traceFolding } from '../../../server/src/trace/folding';
import type { OutlineItem } from '../../../server/src/common/types';

const text = lines(
  '[',
  '  {"role": "system", "content": "You are a mail assistant."},',
  '  {"role": "user", "content": [{"type": "text", "text": "What is in\\nmy inbox?"}]},',
  '  {',
  '    "role": "assistant",',
  '    "content": "Checking your inbox",',
  '    "tool_calls": [',
  '      {"id": "1", "type": "function", "function": {"name": "get_inbox", "arguments": {"n": 10, "folder": "work"}}}',
  '    ]',
  '  },',
  '  {"role": "tool", "tool_call_id": "1", "content": "1. Subject: Hello, From: Alice"},',
  '  {"id": "2", "type": "function", "function": {"name": "send_email", "arguments": "{\\"to\\": \\"bob\\"}"}},',
  '  {"tools": [{"name": "get_inbox"}]},',
  '  5',
  ']',
);

function render(items: OutlineItem[], indent = ''): string[] {
  return items.flatMap((item) => [
    `${indent}${item.kind} ${item.name}${item.detail ? ` [${item.detail}]` : ''} ${where(text, item.span)} sel ${where(text, item.selection)}`,
    ...render(item.children ?? [], `${indent}  `),
  ]);
}

test('one outline item per event with index, role, calls as name(args) and outputs with the tool they answer', () => {
  assert.deepEqual(render(traceSymbols(model(text))), [
    'message #0 system: You are a mail assistant. 1:2-1:60 sel 1:11-1:19',
    'message #1 user: What is in 2:2-2:82 sel 2:11-2:17',
    'message #2 assistant → get_inbox(n=10, folder="work") [Checking your inbox] 3:2-9:3 sel 4:12-4:23',
    '  call get_inbox(n=10, folder="work") [id 1] 7:6-7:114 sel 7:13-7:16',
    'output #3 tool ← get_inbox: 1. Subject: Hello, From: Alice 10:2-10:84 sel 10:11-10:17',
    'call #4 call send_email(to="bob") [id 2] 11:2-11:103 sel 11:9-11:12',
    'tools #5 tools 12:2-12:36 sel 12:2-12:3',
    'event #6 (not an object) 13:2-13:3 sel 13:2-13:3',
  ]);
});

test('a 100,000-event trace gets its whole outline', () => {
  const events = [];
  for (let i = 0; i < 50_000; i++) {
    events.push(`{"role": "assistant", "tool_calls": [{"id": "c${i}", "type": "function", "function": {"name": "f", "arguments": {}}}]}`);
    events.push(`{"role": "tool", "tool_call_id": "c${i}", "content": "ok ${i}"}`);
  }
  const big = `[${events.join(',\n')}]`;
  const items = traceSymbols(model(big));
  assert.equal(items.length, 100_000);
  assert.equal(items[99_999].name, '#99999 tool ← f: ok 49999');
});

test('folding: one range per multi-line event and nested object or array, none for single-line ones', () => {
  const ranges = traceFolding(model(text)).map((f) => where(text, f));
  assert.deepEqual(ranges, ['0:0-14:1', '3:2-9:3', '6:18-8:5']);
});
