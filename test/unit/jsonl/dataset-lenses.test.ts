import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonlService } from '../../../server/src/jsonl';
import { defaultSettings } from '../../../server/src/common/languageService';
import { parse } from './helpers';

const call = (id: string) => `{"id": "${id}", "type": "function", "function": {"name": "f", "arguments": {}}}`;
const text = [
  '{"metadata": {"name": "evals"}}',
  `{"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "tool_calls": [${call('a')}, ${call('b')}]}, {"role": "tool", "tool_call_id": "a", "content": "x"}]}`,
  '[{"role": "user", "content": "no calls"}]',
  `[{"role": "assistant", "tool_calls": [${call('a')}]}, {"role": "tool", "tool_call_id": "a", "content": "y"}, {"role": "assistant", "tool_calls": [${call('c')}]}]`,
  '{"messages": [{"role": "assistant", "tool_calls": [',
].join('\n');

const lenses = (maxCodeLenses: number) => {
  const model = parse(text, 'file:///d.trace.jsonl');
  return jsonlService.codeLenses!(model, { settings: { ...defaultSettings, maxCodeLenses } });
};

/** The n-th `{"role": "assistant"` of the file. */
const assistant = (n: number) => {
  let at = -1;
  for (let i = 0; i <= n; i++) at = text.indexOf('{"role": "assistant"', at + 1);
  return at;
};

test('dataset: a lens on each event with calls of each trace line, revealing that event (and so its trace) in the preview', () => {
  assert.deepEqual(lenses(2000), [
    { span: { start: assistant(0), end: assistant(0) + 1 }, title: '1 output · open in preview', command: { id: 'agentTraces.revealInPreview', arguments: ['file:///d.trace.jsonl', assistant(0)] } },
    { span: { start: assistant(1), end: assistant(1) + 1 }, title: '1 output · open in preview', command: { id: 'agentTraces.revealInPreview', arguments: ['file:///d.trace.jsonl', assistant(1)] } },
    { span: { start: assistant(2), end: assistant(2) + 1 }, title: '0 outputs · open in preview', command: { id: 'agentTraces.revealInPreview', arguments: ['file:///d.trace.jsonl', assistant(2)] } },
  ]);
});

test('dataset: the cap counts over the file, and says on which line the lenses stop', () => {
  const lineStart = text.indexOf('[{"role": "assistant"');
  const notice = 'code lenses stop on line 4: agentTraces.codeLens.maxEvents is 2';
  assert.deepEqual(lenses(2).map((l) => [l.span.start, l.title]), [
    [assistant(0), notice],
    [assistant(0), '1 output · open in preview'],
    [assistant(1), '1 output · open in preview'],
    [lineStart, notice],
  ]);
  // exactly as many as the cap: no notice
  assert.equal(lenses(3).length, 3);
  assert.deepEqual(lenses(0), []);
});
