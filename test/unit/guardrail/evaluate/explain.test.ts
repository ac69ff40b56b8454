import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluateRules } from '../../../../server/src/guardrail/evaluate';
import { buildInput, explainRule, freeVariables, rulesOf, type Explanation } from '../../../../server/src/guardrail/evaluate/explain';
import { model, repoRoot } from '../helpers';

const refunds = [
  'raise PolicyViolation("refund needs approval", call) if:',
  '    (call: ToolCall)',
  '    call is tool:issue_refund',
  '    call.function.arguments.amount > input.limit',
  '',
  'raise PolicyViolation("secret after a call", call, m) if:',
  '    (call: ToolCall) -> (m: Message)',
  '    m.role == "assistant" and "secret" in m.content',
  '',
].join('\n');

const trace = [
  { role: 'user', content: 'refund please' },
  { role: 'assistant', content: null, tool_calls: [
    { id: '1', type: 'function', function: { name: 'lookup', arguments: { order: 7 } } },
    { id: '2', type: 'function', function: { name: 'issue_refund', arguments: { amount: 50 } } },
  ] },
  { role: 'tool', tool_call_id: '2', content: 'ok' },
  { role: 'assistant', content: 'nothing to hide' },
];

function explain(policy: string, address: string, ruleIndex = 0, parameters: Record<string, unknown> = { limit: 100 }, on: unknown[] = trace): Explanation {
  return explainRule(model(policy), on, ruleIndex, address, { parameters });
}

/** The explanation's false condition as [the part's source, [each value's source, value, address]]. */
function compared(e: Explanation) {
  const f = e.falseCondition;
  return f && [f.part.source, f.values.map((v) => [v.source, v.value, v.address])];
}

describe('"Why not here?": a rule explained on one trace element', () => {
  it('binds the element to the first free variable of its type and names the first false condition with the values it compared', () => {
    const e = explain(refunds, 'messages.1.tool_calls.1');
    assert.equal(e.wouldFire, false);
    assert.deepEqual(e.variable && [e.variable.name, e.variable.type], ['call', 'ToolCall']);
    assert.equal(e.held, 2, 'the declaration and the tool check held');
    assert.deepEqual(compared(e), ['call.function.arguments.amount > input.limit', [
      ['call.function.arguments.amount', '50', undefined],
      ['input.limit', '100', undefined],
    ]]);
    assert.deepEqual(e.bindings, [{ variable: 'call', address: 'messages.1.tool_calls.1' }]);
  });

  it('says the rule would fire where it fires, with the assignment that fires', () => {
    const e = explain(refunds, 'messages.1.tool_calls.1', 0, { limit: 10 });
    assert.equal(e.wouldFire, true);
    assert.equal(e.falseCondition, undefined);
    assert.deepEqual(e.bindings, [{ variable: 'call', address: 'messages.1.tool_calls.1' }]);
  });

  it('stops at the tool check for another tool', () => {
    const e = explain(refunds, 'messages.1.tool_calls.0');
    assert.equal(e.held, 1);
    assert.deepEqual(compared(e), ['call is tool:issue_refund', [
      ['call', "<ToolCall lookup({'order': 7})>", 'messages.1.tool_calls.0'],
      ['tool:issue_refund', 'a call of that tool (by its name, as a regex)', undefined],
    ]]);
  });

  it('enumerates the other variables and reports the assignment that got furthest, inside an `and` the side that was false', () => {
    const e = explain(refunds, 'messages.1.tool_calls.1', 1);
    assert.equal(e.wouldFire, false);
    assert.deepEqual(e.bindings, [{ variable: 'call', address: 'messages.1.tool_calls.1' }, { variable: 'm', address: 'messages.3' }]);
    assert.deepEqual(compared(e), ['"secret" in m.content', [
      ['"secret"', "'secret'", undefined],
      ['m.content', "'nothing to hide'", 'messages.3.content'],
    ]]);
    assert.equal(e.assignments, 3, 'each message with the call bound; the one after the call gets furthest');
  });

  it('binds a message to the first Message variable, and says when no variable has the element\'s type', () => {
    const e = explain(refunds, 'messages.3', 1);
    assert.deepEqual(e.variable && e.variable.name, 'm');
    // Its content alone decides (as the evaluator decides it, before binding any call).
    assert.deepEqual(e.bindings, [{ variable: 'm', address: 'messages.3' }]);
    assert.equal(e.falseCondition?.part.source, '"secret" in m.content');
    const none = explain(refunds, 'messages.2', 0);
    assert.equal(none.problem, 'no variable of rule 1 is a ToolOutput');
    assert.equal(explain(refunds, 'messages.9', 0).problem, 'messages.9 is not an event or a tool call of the trace');
  });

  it('reports a rule that raises on the element as the analyzer would', () => {
    const e = explain('raise "x" if:\n    (m: Message)\n    len(m.content) > input.missing\n', 'messages.0');
    assert.equal(
      e.problem,
      "the rule raises MissingPolicyParameter: Missing Policy Parameter: 'missing' (policy relies on `input.missing`), " +
        'which is required for evaluation of a rule, as the analyzer would (its whole evaluation on this trace fails)',
    );
  });

  it('lists a rule\'s free variables in the order declared, leaving out those that range over a value', () => {
    const m = model('raise "x" if:\n    (a: Message)\n    (c: ToolCall) in a.tool_calls\n    (o: ToolOutput) -> (b: Message)\n');
    assert.deepEqual(freeVariables(rulesOf(m)[0]).map((v) => `${v.name}: ${v.type}`), ['a: Message', 'o: ToolOutput', 'b: Message']);
  });
});

const corpus = path.resolve(repoRoot(), '../shared/corpus/evaluation/cases');

interface Case {
  id: string;
  policy: string;
  parameters: Record<string, unknown>;
  trace: unknown[];
  api: 'analyze' | 'analyze_pending';
}

if (!existsSync(corpus)) {
  test('"would fire" agrees with the evaluation on every event of the corpus traces', (t) => {
    if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
    t.skip(`corpus not found at ${corpus}`);
  });
} else {
  test('"would fire" agrees with the evaluation on every event of the corpus traces', () => {
    const cases = readdirSync(corpus).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(path.join(corpus, f), 'utf8')) as Case);
    assert.ok(cases.length >= 1000);
    let checked = 0;
    let firing = 0;
    const disagreements: string[] = [];
    for (const c of cases) {
      if (c.api !== 'analyze') continue;
      const rules = model(c.policy);
      const real = evaluateRules(rules, c.trace, { parameters: c.parameters });
      if (real.failure || real.notices.length > 0) continue; // no verdict to agree with
      let input;
      try {
        input = buildInput(c.trace);
      } catch {
        continue;
      }
      const addresses: string[] = [];
      input.events.forEach((event, i) => {
        addresses.push(`messages.${i}`);
        const calls = (event as { toolCalls?: unknown[] | null }).toolCalls;
        calls?.forEach((_, j) => addresses.push(`messages.${i}.tool_calls.${j}`));
      });
      rulesOf(rules).forEach((rule, ruleIndex) => {
        const errors = real.errors.filter((e) => e.ruleIndex === ruleIndex);
        for (const address of addresses) {
          const e = explainRule(rules, c.trace, ruleIndex, address, { parameters: c.parameters });
          if (!e.variable || e.problem) continue;
          const name = e.variable.name;
          // It fires here when an error binds the variable to this element, or fires without binding it at all.
          const fires = errors.some((error) => {
            const bound = error.bindings.find((b) => b.variable === name);
            return bound ? bound.address === address : true;
          });
          checked++;
          if (fires) firing++;
          if (fires !== e.wouldFire) disagreements.push(`${c.id} rule ${ruleIndex + 1} at ${address}: evaluation ${fires ? 'fires' : 'does not fire'}, explanation says ${e.wouldFire ? 'would fire' : 'would not'}`);
        }
      });
    }
    assert.deepEqual(disagreements, []);
    assert.ok(checked > 1900 && firing > 300 && checked - firing > 300, `${checked} elements checked, ${firing} where the rule fires`);
  });
}
