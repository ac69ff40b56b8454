import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lines, model, offsetOf, problems, where } from './helpers';
import { validate as validateTrace } from '../../../server/src/trace/validate';
import { context } from './helpers';
import { traceService } from '../../../server/src/trace';

const { definition: traceDefinition, references: traceReferences } = traceService;

const call = (id: string, name: string) =>
  `  {"role": "assistant", "content": null, "tool_calls": [{"id": "${id}", "type": "function", "function": {"name": "${name}", "arguments": {}}}]},`;
const output = (id: string, content: string, last = false) =>
  `  {"role": "tool", "tool_call_id": "${id}", "content": "${content}"}${last ? '' : ','}`;

/** The shape of benchmark trajectories: an id reused for a later call, each output right after its own call. */
const reused = lines(
  '[',
  '  {"role": "user", "content": "look around"},',
  call('toolu_1', 'ls'),
  output('toolu_1', 'a b'),
  call('toolu_1', 'cat'),
  output('toolu_1', 'text', true),
  ']',
);

test('a reused id whose outputs each follow their own call is a warning saying what is true', () => {
  assert.deepEqual(problems(reused), [
    'warning trace/duplicate-call-id 4:63-4:72 "\\"toolu_1\\"": Duplicate tool call id "toolu_1": already used in event #1; model providers reject repeated ids (the analyzer links each output to the latest call with its id, so every link here is clear)',
  ]);
  const [problem] = validateTrace(model(reused), context());
  assert.deepEqual(problem.related?.map((r) => `${where(reused, r.span)} ${r.message}`), ['2:63-2:72 first use of "toolu_1"']);
});

test('navigation follows the same rule: each output goes to the latest call with its id, each call to its own output', () => {
  const m = model(reused);
  const spans = (targets: { span: { start: number; end: number }; selection?: { start: number; end: number } }[]) =>
    targets.map((t) => where(reused, t.selection ?? t.span));
  assert.deepEqual(spans(traceDefinition(m, offsetOf(reused, '"toolu_1"', 2, 2))), ['2:63-2:72']);
  assert.deepEqual(spans(traceDefinition(m, offsetOf(reused, '"toolu_1"', 2, 4))), ['4:63-4:72']);
  assert.deepEqual(spans(traceDefinition(m, offsetOf(reused, '"toolu_1"', 2, 1))), ['3:35-3:44']);
  assert.deepEqual(spans(traceDefinition(m, offsetOf(reused, '"toolu_1"', 2, 3))), ['5:35-5:44']);
  assert.deepEqual(spans(traceReferences(m, offsetOf(reused, '"toolu_1"', 2, 1), true)), ['2:63-2:72', '3:35-3:44']);
  assert.deepEqual(spans(traceReferences(m, offsetOf(reused, '"toolu_1"', 2, 4), true)), ['4:63-4:72', '5:35-5:44']);
});

/** Two calls with one id, both unanswered, then an output naming it: the trace cannot say which it answers. */
const ambiguous = lines(
  '[',
  call('c', 'ls'),
  call('c', 'cat'),
  output('c', 'which?', true),
  ']',
);

test('an output after two unanswered calls with its id makes the repeat an error naming both calls', () => {
  assert.deepEqual(problems(ambiguous), [
    'information trace/unanswered-call 1:63-1:66 "\\"c\\"": No tool output answers this call to "ls" (id "c")',
    'error trace/duplicate-call-id 2:63-2:66 "\\"c\\"": Duplicate tool call id "c": the output in event #2 comes after 2 unanswered calls with this id (events #0, #1), so which one it answers is ambiguous (the analyzer links it to the latest, in event #1)',
  ]);
  const error = validateTrace(model(ambiguous), context()).find((p) => p.severity === 'error')!;
  assert.deepEqual(error.related?.map((r) => `${where(ambiguous, r.span)} ${r.message}`), [
    '1:63-1:66 first use of "c"',
    '3:35-3:38 the output naming "c"',
  ]);
  // definition still lands where the analyzer links it: the latest call
  const m = model(ambiguous);
  assert.deepEqual(traceDefinition(m, offsetOf(ambiguous, '"c"', 1, 3)).map((t) => where(ambiguous, t.selection!)), ['2:63-2:66']);
});

test('a call answered before the id is reused does not count as unanswered', () => {
  // implicit output answers the first call, so the named output has one candidate: a warning
  const text = lines(
    '[',
    call('c', 'ls'),
    '  {"role": "tool", "content": "x"},',
    call('c', 'cat'),
    output('c', 'y', true),
    ']',
  );
  assert.deepEqual(problems(text).filter((p) => p.includes('duplicate-call-id')).map((p) => p.split(' ')[0]), ['warning']);
  // with the first call still pending, the same output is ambiguous: an error
  const pending = text.replace('  {"role": "tool", "content": "x"},\n', '');
  assert.deepEqual(problems(pending).filter((p) => p.includes('duplicate-call-id')).map((p) => p.split(' ')[0]), ['error']);
});
