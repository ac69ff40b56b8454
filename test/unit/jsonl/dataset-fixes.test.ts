import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonlService } from '../../../server/src/jsonl';
import { applyEdits, fixAllEdits } from '../../../server/src/common/codeActions';
import { context, offsetOf, parse } from './helpers';

const call = (id: string) => `{"id": "${id}", "type": "function", "function": {"name": "f", "arguments": {}}}`;
const text = [
  `{"messages": [{"role": "assistant", "tool_calls": [${call('a')}]}, {"role": "tool", "tool_call_id": "a", "content": "x"}]}`,
  `{"messages": [{"rol": "assistant", "tool_calls": [${call('a')}]}, {"role": "tool", "tool_call_id": "a", "content": "y"}]}`,
].join('\n');

test('dataset rename stays within the line\'s trace', () => {
  const model = parse(text);
  const at = offsetOf(text, '"tool_call_id": "a"', 17, 1);
  const renamed = jsonlService.rename!(model, at, 'b');
  assert.ok(renamed && 'edits' in renamed, JSON.stringify(renamed));
  assert.deepEqual(applyEdits(text, renamed.edits).split('\n').map((line) => (line.match(/"(id|tool_call_id)": "\w+"/g) ?? []).join(' ')), [
    '"id": "a" "tool_call_id": "a"',
    '"id": "b" "tool_call_id": "b"',
  ]);
});

test('dataset fix-all: the trace fixes, line by line', () => {
  const model = parse(text);
  const problems = jsonlService.validate(model, context);
  const fixed = applyEdits(text, fixAllEdits(jsonlService, model, problems).edits);
  assert.equal(fixed.split('\n')[1], `{"messages": [{"role": "assistant", "rol": "assistant", "tool_calls": [${call('a')}]}, {"role": "tool", "tool_call_id": "a", "content": "y"}]}`);
  assert.equal(fixed.split('\n')[0], text.split('\n')[0]);
});

test('dataset lines get trace/unknown-role and its fix, each line on its own', () => {
  const dataset = [
    '{"messages": [{"role": "user", "content": "a"}]}',
    '{"messages": [{"role": "assitant", "content": "b"}]}',
    '[{"role": "usr", "content": "c"}]',
  ].join('\n');
  const model = parse(dataset);
  const problems = jsonlService.validate(model, context).filter((p) => p.code === 'trace/unknown-role');
  assert.deepEqual(problems.map((p) => [p.severity, dataset.slice(p.span.start, p.span.end)]), [['warning', '"assitant"'], ['warning', '"usr"']]);
  const fixed = applyEdits(dataset, fixAllEdits(jsonlService, model, problems).edits);
  assert.equal(fixed, dataset.replace('assitant', 'assistant').replace('usr', 'user'));
});
