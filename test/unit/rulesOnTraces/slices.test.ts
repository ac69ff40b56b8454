import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetExceeded, type Budget } from '../../../server/src/common/budget';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRules, evaluateRulesStepwise } from '../../../server/src/guardrail/evaluate';
import { evaluateRulesOnTrace, type RuleFile, type RulesOnTraceResult } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { addPart } from '../../../server/src/rulesOnTraces/results';
import type { ResumePoint } from '../../../server/src/rulesOnTraces/tracesInText';

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

describe('rules on a trace, step by step and in parts', () => {
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

  it('handed over in parts (one per trace), a dataset gives what the whole evaluation gives, and goes on from any part', () => {
    const files = [rules(threeRules), rules('raise "thanks" if:\n    (m: Message)\n    "thanks" in m.content\n', 'file:///w/rules/other.gr')];
    const whole = evaluateRulesOnTrace(files, dataset, 'dataset', { workBudget: 1_000_000 });
    assert.equal(whole.violations.length, 15);
    const total: RulesOnTraceResult = { violations: [], notices: [], outcomes: new Map(), traces: 0 };
    const resumePoints: ResumePoint[] = [];
    const last = evaluateRulesOnTrace(files, dataset, 'dataset', {
      workBudget: 1_000_000, flush: { everyMs: 0, part: (part, next) => (addPart(total, part), resumePoints.push(next)) },
    });
    addPart(total, last);
    assert.deepEqual(total, whole);
    const lineStarts = [0, ...[...dataset.matchAll(/\n/g)].map((m) => m.index! + 1)];
    assert.deepEqual(resumePoints, [{ offset: lineStarts[1], line: 2, traces: 1 }, { offset: lineStarts[3], line: 4, traces: 2 }, { offset: dataset.length + 1, line: 5, traces: 3 }]);
    // From after the first trace: the two others, numbered as in the whole evaluation.
    const rest = evaluateRulesOnTrace(files, dataset, 'dataset', { workBudget: 1_000_000, from: resumePoints[0] });
    assert.deepEqual(rest.violations, whole.violations.filter((v) => v.trace > 0));
  });

  it('a whole evaluation given a spent budget stops too: before a dataset line, or inside the rules (a past deadline)', () => {
    const cancelled: Budget = { isCancellationRequested: true };
    assert.throws(() => evaluateRulesOnTrace([rules(threeRules)], dataset, 'dataset', { workBudget: 1_000_000, budget: cancelled }),
      (error) => error instanceof BudgetExceeded && error.reason === 'cancelled');
    const late: Budget = { isCancellationRequested: false, deadline: Date.now() - 1 };
    assert.throws(() => evaluateRulesOnTrace([rules(threeRules)], trace, 'trace', { workBudget: 1_000_000, budget: late }),
      (error) => error instanceof BudgetExceeded && error.reason === 'time');
  });
});
