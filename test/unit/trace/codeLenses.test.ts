import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, lines, model } from './helpers';
import { codeLenses } from '../../../server/src/trace/codeLenses';

const call = (id: string) => `{"id": "${id}", "type": "function", "function": {"name": "f", "arguments": {}}}`;

test('a lens on each event with calls: its outputs counted, revealing the event in the preview', () => {
  const text = lines('[',
    '  {"role": "user", "content": "hi"},',
    `  {"role": "assistant", "tool_calls": [${call('a')}, ${call('b')}]},`,
    '  {"role": "tool", "tool_call_id": "a", "content": "1"},',
    '  {"role": "tool", "tool_call_id": "b", "content": "2"},',
    `  {"role": "assistant", "tool_calls": [${call('c')}]}`,
    ']');
  const m = model(text);
  m.uri = 'file:///t.trace.json';
  const lenses = codeLenses(m, context());
  const second = text.indexOf('{"role": "assistant"');
  const last = text.lastIndexOf('{"role": "assistant"');
  assert.deepEqual(lenses, [
    { span: { start: second, end: second + 1 }, title: '2 outputs · open in preview', command: { id: 'agentTraces.revealInPreview', arguments: ['file:///t.trace.json', second] } },
    { span: { start: last, end: last + 1 }, title: '0 outputs · open in preview', command: { id: 'agentTraces.revealInPreview', arguments: ['file:///t.trace.json', last] } },
  ]);
});
