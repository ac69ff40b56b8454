import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, lines, model } from './helpers';
import { traceService } from '../../../server/src/trace';

const { codeLenses } = traceService;

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

test('agentTraces.codeLens.maxEvents caps the lenses, saying so where they start and where they stop; 0 turns them off', () => {
  const events = [0, 1, 2].map((i) => `  {"role": "assistant", "tool_calls": [${call(`c${i}`)}]}`);
  const text = lines('[', events.join(',\n'), ']');
  const m = model(text);
  const starts = [0, 1, 2].map((i) => text.indexOf(`{"role"`, text.indexOf(`"c${i}"`) - 60));
  const spanOf = (start: number) => ({ start, end: start + 1 });
  const notice = 'code lenses on the first 2 of 3 events with calls (agentTraces.codeLens.maxEvents)';
  assert.deepEqual(codeLenses(m, context({ maxCodeLenses: 2 })).map((l) => [l.span, l.title]), [
    [spanOf(starts[0]), notice],
    [spanOf(starts[0]), '0 outputs · open in preview'],
    [spanOf(starts[1]), '0 outputs · open in preview'],
    [spanOf(starts[1]), notice],
  ]);
  assert.equal(codeLenses(m, context({ maxCodeLenses: 3 })).length, 3);
  assert.deepEqual(codeLenses(m, context({ maxCodeLenses: 0 })), []);
});
