import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, lines, model } from './helpers';
import { defaultSettings } from '../../../server/src/common/languageService';
import { traceService } from '../../../server/src/trace';

const { inlayHints } = traceService;

const call = (id: string, name: string) => `{"id": "${id}", "type": "function", "function": {"name": "${name}", "arguments": {}}}`;
const text = lines('[',
  '  {"role": "user", "content": "hi"},',
  `  {"role": "assistant", "tool_calls": [${call('a', 'get_inbox')}, ${call('b', 'send_email')}]},`,
  '  {"role": "tool", "tool_call_id": "a", "content": "1"},',
  '  {"role": "tool", "content": "implicit"}',
  ']');

test('after each call id where it is answered (an implicit output too), after each tool_call_id its tool and event', () => {
  const labels = inlayHints(model(text), { start: 0, end: text.length }, context());
  assert.deepEqual(labels.map((l) => [text.slice(l.offset - 3, l.offset), l.label]), [['"a"', '→ #2'], ['"b"', '→ #3'], ['"a"', '← get_inbox #1']]);
});

test('a call no output answers says so', () => {
  const lone = `[{"role": "assistant", "tool_calls": [${call('z', 'f')}]}]`;
  assert.deepEqual(inlayHints(model(lone), { start: 0, end: lone.length }, context()).map((l) => [lone.slice(l.offset - 3, l.offset), l.label]), [['"z"', 'unanswered']]);
});

test('only the requested range, and each kind can be turned off', () => {
  const start = text.indexOf('{"role": "tool"');
  const labels = inlayHints(model(text), { start, end: text.length }, context());
  assert.deepEqual(labels.map((l) => l.label), ['← get_inbox #1']);
  const noTargets = inlayHints(model(text), { start: 0, end: text.length }, context({ inlayHints: { ...defaultSettings.inlayHints, callTargets: false } }));
  assert.deepEqual(noTargets.map((l) => l.label), ['→ #2', '→ #3']);
  const none = inlayHints(model(text), { start: 0, end: text.length }, context({ inlayHints: { callTargets: false, callAnswers: false } }));
  assert.deepEqual(none, []);
});
