import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lines, model, offsetOf } from './helpers';
import { applyEdits } from '../../../server/src/common/codeActions';
import { traceService } from '../../../server/src/trace';

const { prepareRename, rename, renameRefusal } = traceService;

function edits(renamed: ReturnType<typeof rename>) {
  assert.ok(renamed && 'edits' in renamed, JSON.stringify(renamed));
  return renamed.edits;
}

const call = (id: string, name = 'get_inbox') => `{"id": "${id}", "type": "function", "function": {"name": "${name}", "arguments": {}}}`;

const text = lines('[',
  `  {"role": "assistant", "tool_calls": [${call('a')}]},`,
  '  {"role": "tool", "tool_call_id": "a", "content": "1"},',
  `  {"role": "assistant", "tool_calls": [${call('a')}, ${call('b')}]},`,
  '  {"role": "tool", "tool_call_id": "a", "content": "2"},',
  '  {"role": "tool", "tool_call_id": "a", "content": "3"},',
  '  {"role": "tool", "tool_call_id": "nope", "content": "4"}',
  ']');

test('rename from a tool_call_id: the call and the outputs answering it, not the earlier call reusing the id', () => {
  const at = offsetOf(text, '"tool_call_id": "a"', 17, 2);
  const span = prepareRename(model(text), at)!;
  assert.equal(text.slice(span.start, span.end), 'a');
  assert.equal(applyEdits(text, edits(rename(model(text), at, 'x"1'))), lines('[',
    `  {"role": "assistant", "tool_calls": [${call('a')}]},`,
    '  {"role": "tool", "tool_call_id": "a", "content": "1"},',
    `  {"role": "assistant", "tool_calls": [${call('x\\"1')}, ${call('b')}]},`,
    '  {"role": "tool", "tool_call_id": "x\\"1", "content": "2"},',
    '  {"role": "tool", "tool_call_id": "x\\"1", "content": "3"},',
    '  {"role": "tool", "tool_call_id": "nope", "content": "4"}',
    ']'));
});

test('rename from a call id: the first call with a reused id keeps the later call\'s outputs', () => {
  const at = offsetOf(text, '"id": "a"', 7);
  assert.equal(applyEdits(text, edits(rename(model(text), at, 'first'))).split('\n').slice(1, 3).join('\n'), lines(
    `  {"role": "assistant", "tool_calls": [${call('first')}]},`,
    '  {"role": "tool", "tool_call_id": "first", "content": "1"},'));
});

test('prepareRename refuses with a reason on an unknown id and elsewhere in an event', () => {
  const m = model(text);
  const unknown = offsetOf(text, '"nope"', 2);
  assert.equal(prepareRename(m, unknown), null);
  assert.equal(renameRefusal(m, unknown), 'This tool_call_id names no earlier tool call, so there is nothing to rename with it: change the id itself (a quick fix offers the calls it may answer)');
  const content = offsetOf(text, '"content": "1"', 2);
  assert.equal(prepareRename(m, content), null);
  assert.equal(renameRefusal(m, content), 'Only a tool call id can be renamed in a trace: place the cursor on a call\'s "id" or on a "tool_call_id"');
  assert.equal(renameRefusal(m, 0), undefined);
});

test('rename refuses, with the reason, an id another call of the trace already has', () => {
  const at = offsetOf(text, `${call('b')}`, 8);
  const refused = rename(model(text), at, 'a');
  assert.deepEqual(refused, { refusal: 'Another tool call of this trace already has the id "a" (get_inbox, in event #0): two calls with one id would make their outputs ambiguous' });
  assert.deepEqual(rename(model(text), at, ''), { refusal: 'A tool call id cannot be empty' });
  assert.ok('edits' in rename(model(text), at, 'c')!);
});

test('rename edits exactly the id\'s characters in an unclosed id string, and nothing after it', () => {
  const unclosed = lines('[',
    `  {"role": "assistant", "tool_calls": [${call('a')}]},`,
    '  {"role": "tool", "tool_call_id": "a',
    ']');
  const at = offsetOf(unclosed, '"id": "a"', 7);
  const output = offsetOf(unclosed, '"tool_call_id": "a', 17);
  const span = prepareRename(model(unclosed), output)!;
  assert.deepEqual([span.start, span.end], [output, output + 1]);
  const renamed = rename(model(unclosed), at, 'inbox')!;
  assert.ok('edits' in renamed, JSON.stringify(renamed));
  assert.equal(applyEdits(unclosed, renamed.edits), lines('[',
    `  {"role": "assistant", "tool_calls": [${call('inbox')}]},`,
    '  {"role": "tool", "tool_call_id": "inbox',
    ']'));
});
