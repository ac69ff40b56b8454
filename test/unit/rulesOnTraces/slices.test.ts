import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetExceeded, type Budget } from '../../../server/src/common/budget';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRules, evaluateRulesStepwise } from '../../../server/src/guardrail/evaluate';
import { evaluateRulesOnTrace, evaluateRulesOnTraceInSlices, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';

function rules(text: string, uri = 'file:///w/rules/leak.gr'): RuleFile {
  return { uri, model: guardrailService.parse({ uri, version: 1, text }) as RuleModel };
}

const threeRules = [
  'raise "password" if:\n    (m: Message)\n    "hunter2" in m.content\n',
  'raise "mail" if:\n    (c: ToolCall)\n    c is tool:send_email\n',
  'raise "any user" if:\n    (m: Message)\n    m.role == "user"\n',
].join('\n');
const trace = JSON.stringify([
  { role: 'user', content: 'my hunter2' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'send_email', arguments: {} } }] },
  { role: 'user', content: 'thanks' },
]);
const dataset = [trace, '{"metadata": {}}', trace, trace].join('\n');

/** A budget cancelled once `pauses` pauses have passed. */
function cancelledAfter(pauses: { count: number }, limit: number): Budget {
  return { get isCancellationRequested() { return pauses.count >= limit; } };
}

describe('rules on a trace, in slices', () => {
  it('the stepwise evaluation pauses after checking the trace\'s depth and after each rule, with the same result', () => {
    const model = rules(threeRules).model;
    const steps = evaluateRulesStepwise(model, JSON.parse(trace));
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    assert.equal(pauses, 1 + 3, 'one pause before reading the trace into the evaluator, one after each of the three rules');
    assert.deepEqual(JSON.stringify(step.value), JSON.stringify(evaluateRules(model, JSON.parse(trace))));
    assert.deepEqual(step.value.errors.map((e) => e.message), ['password', 'mail', 'any user', 'any user']);
  });

  it('reading a long trace into the evaluator pauses every 256 events', () => {
    const events = Array.from({ length: 1000 }, (_, i) => ({ role: 'user', content: `message ${i}` }));
    const steps = evaluateRulesStepwise(rules('raise "ninth" if:\n    (m: Message)\n    m.content == "message 9"\n').model, events);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    assert.equal(pauses, 1 + 3 + 1, 'after the depth check, before events 255, 511 and 767, after the rule');
    assert.deepEqual(step.value.errors.map((e) => e.key), ['(0, (9,))']);
  });

  it('sliced at every step (a zero-millisecond slice), a dataset gives what the whole evaluation gives', async () => {
    const files = [rules(threeRules), rules('raise "thanks" if:\n    (m: Message)\n    "thanks" in m.content\n', 'file:///w/rules/other.gr')];
    const pauses = { count: 0 };
    const sliced = await evaluateRulesOnTraceInSlices(files, dataset, 'dataset', { workBudget: 1_000_000 }, async () => void pauses.count++, 0);
    const whole = evaluateRulesOnTrace(files, dataset, 'dataset', { workBudget: 1_000_000 });
    assert.deepEqual(sliced, whole);
    assert.equal(whole.violations.length, 15);
    // Per trace line: after parsing it; per rule file, before reading it into the evaluator and after each rule
    // ((1 + 3) + (1 + 1)); before and after locating the first violation's ranges; after the line. The metadata line,
    // which holds no trace, is skipped without a pause.
    assert.equal(pauses.count, 3 * (1 + 6 + 2 + 1));
  });

  it('a cancelled budget stops the evaluation at the next pause, with BudgetExceeded', async () => {
    const pauses = { count: 0 };
    const pause = async () => void pauses.count++;
    await assert.rejects(
      evaluateRulesOnTraceInSlices([rules(threeRules)], dataset, 'dataset', { workBudget: 1_000_000, budget: cancelledAfter(pauses, 2) }, pause, 0),
      (error) => error instanceof BudgetExceeded && error.reason === 'cancelled',
    );
    assert.equal(pauses.count, 2, 'no work after the pause that saw the cancellation');
  });

  it('a whole evaluation given a spent budget stops too: before a dataset line, or inside the rules (a past deadline)', () => {
    const cancelled: Budget = { isCancellationRequested: true };
    assert.throws(() => evaluateRulesOnTrace([rules(threeRules)], dataset, 'dataset', { workBudget: 1_000_000, budget: cancelled }),
      (error) => error instanceof BudgetExceeded && error.reason === 'cancelled');
    const late: Budget = { isCancellationRequested: false, deadline: Date.now() - 1 };
    assert.throws(() => evaluateRulesOnTrace([rules(threeRules)], trace, 'trace', { workBudget: 1_000_000, budget: late }),
      (error) => error instanceof BudgetExceeded && error.reason === 'time');
  });

  it('an evaluation that is never cancelled runs to the end', async () => {
    const result = await evaluateRulesOnTraceInSlices([rules(threeRules)], trace, 'trace', { workBudget: 1_000_000, budget: { isCancellationRequested: false } }, async () => undefined, 0);
    assert.equal(result.violations.length, 4);
  });
});
