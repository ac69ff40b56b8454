import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BudgetExceeded, spend, type Budget } from '../../../server/src/common/budget';
import { defaultSettings } from '../../../server/src/common/languageService';
import { guardrailService } from '../../../server/src/guardrail';
import { traceService } from '../../../server/src/trace';
import { readSettings } from '../../../server/src/settings';

/** A budget cancelled once it has been looked at `after` times: it proves the work looks inside its loops. */
function cancelledAfter(after: number): Budget & { looks: number } {
  return {
    looks: 0,
    get isCancellationRequested() {
      return ++this.looks > after;
    },
  };
}

const expired: Budget = { isCancellationRequested: false, deadline: 0 };
const reason = (expected: BudgetExceeded['reason']) => (error: unknown) => error instanceof BudgetExceeded && error.reason === expected;

const rules = Array.from({ length: 20_000 }, (_, i) => `raise "r${i}" if:\n    (m${i}: Message)\n    m${i}.role == "user"\n`).join('');
const trace = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ role: 'user', content: `message ${i}` })));

test('spend looks at the budget every 256 steps and says why it stopped', () => {
  const budget = cancelledAfter(1);
  let steps = 0;
  for (let i = 0; i < 256; i++) steps = spend(budget, steps);
  assert.equal(budget.looks, 1);
  assert.throws(() => spend(budget, steps), reason('cancelled'));
  assert.throws(() => spend(expired, 0), reason('time'));
  assert.equal(spend(undefined, 0), 1);
  assert.equal(spend({ isCancellationRequested: false, deadline: Number.MAX_SAFE_INTEGER }, 0), 1);
});

test('rule files: parsing, the outline and completion stop inside their loops when cancelled or out of time', () => {
  const parse = (budget?: Budget) => guardrailService.parse({ uri: 'file:///r.gr', version: 1, text: rules, budget });
  const budget = cancelledAfter(3);
  assert.throws(() => parse(budget), reason('cancelled'));
  assert.equal(budget.looks, 4);
  assert.throws(() => parse(expired), reason('time'));
  const model = parse();
  assert.equal(guardrailService.symbols(model, undefined, { ...defaultSettings, maxRuleOutlineEntries: 20_000 }).length, 20_000);
  const outline = cancelledAfter(10);
  assert.throws(() => guardrailService.symbols(model, outline), reason('cancelled'));
  assert.equal(outline.looks, 11);
  assert.throws(() => guardrailService.completion(model, rules.length - 1, { settings: defaultSettings, budget: cancelledAfter(5) }), reason('cancelled'));
  assert.ok(guardrailService.completion(model, rules.length - 1, { settings: defaultSettings, budget: cancelledAfter(1_000) }).length > 0);
});

test('traces: parsing and the outline stop inside their loops when cancelled or out of time', () => {
  const parse = (budget?: Budget) => traceService.parse({ uri: 'file:///t.trace.json', version: 1, text: trace, budget });
  const budget = cancelledAfter(5);
  assert.throws(() => parse(budget), reason('cancelled'));
  assert.equal(budget.looks, 6);
  assert.throws(() => parse(expired), reason('time'));
  const model = parse(cancelledAfter(1_000));
  assert.throws(() => traceService.symbols(model, cancelledAfter(2)), reason('cancelled'));
  assert.equal(traceService.symbols(model).length, 20_000);
});

test('agentTraces.requestTimeBudget: 5000 ms unless set; 0 turns the limit off', () => {
  assert.equal(readSettings({}).requestTimeBudget, 5000);
  assert.equal(readSettings({ requestTimeBudget: 0 }).requestTimeBudget, 0);
  assert.equal(readSettings({ requestTimeBudget: 250 }).requestTimeBudget, 250);
  assert.equal(readSettings({ requestTimeBudget: -1 }).requestTimeBudget, 5000);
});
