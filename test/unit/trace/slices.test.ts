import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context } from './helpers';
import { parseTrace, parseTraceInSlices, type TraceModel } from '../../../server/src/trace/model';
import { validate, validateInSlices } from '../../../server/src/trace/validate';
import { BudgetExceeded } from '../../../server/src/common/budget';

/** 3,000 events with faults of every layer: syntax, a missing role, a duplicate and an unanswered call. */
function faultyTrace(): string {
  const events: string[] = [];
  for (let i = 0; i < 1000; i++) {
    events.push(`{"role": "assistant", "tool_calls": [{"id": "c${i % 997}", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}`);
    events.push(i % 250 === 0 ? `{"tool_call_id": "c${i}", "content": "x" "y"}` : `{"role": "tool", "tool_call_id": "c${i}", "content": "out ${i}"}`);
    events.push(i % 400 === 0 ? '{"content": "no role", "extra": 1,}' : `{"role": "user", "content": "go on ${i}"}`);
  }
  events.push('{"role": "assistant", "tool_calls": [{"id": "never", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}');
  return `[\n${events.join(',\n')}\n]`;
}

/** What a feature sees of a model: its events, calls, links and problems. */
function summary(model: TraceModel) {
  return {
    events: model.events.map((e) => [e.index, e.kind, e.role, e.callId, e.answers?.id, e.implicit, e.calls.map((c) => c.id)]),
    calls: model.calls.map((c) => [c.id, c.outputs.map((o) => o.index)]),
    syntax: model.syntaxErrors,
    folds: model.folds,
    problems: validate(model, context()),
  };
}

test('a trace read and checked in slices equals one read at once, and pauses between slices', async () => {
  const text = faultyTrace();
  let pauses = 0;
  const pause = async () => void pauses++;
  const sliced = await parseTraceInSlices(text, undefined, pause, 0);
  const whole = parseTrace(text);
  assert.ok(pauses > 10, `only ${pauses} pauses`);
  assert.deepEqual(summary(sliced), summary(whole));
  const problems = await validateInSlices(sliced, context(), pause, 0);
  assert.deepEqual(problems, validate(whole, context()));
  assert.ok(problems.some((p) => p.code === 'json/syntax') && problems.some((p) => p.message.includes('"never"')));
});

test('a read in slices stops with BudgetExceeded once its budget says it was superseded', async () => {
  const budget = { isCancellationRequested: false };
  let pauses = 0;
  const reading = parseTraceInSlices(faultyTrace(), budget, async () => {
    if (++pauses === 2) budget.isCancellationRequested = true;
  }, 0);
  await assert.rejects(reading, (error) => error instanceof BudgetExceeded && error.reason === 'cancelled');
});
