import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultSettings } from '../../../server/src/common/languageService';
import { LineIndex } from '../../../server/src/common/lineIndex';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRulesOnTrace, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { TraceResults } from '../../../server/src/rulesOnTraces/results';

function rules(text: string, uri = 'file:///w/rules/leak.gr'): RuleFile {
  return { uri, model: guardrailService.parse({ uri, version: 1, text }) as RuleModel };
}

const options = { workBudget: 1_000_000 };
const passwordRule = 'raise "password in a message" if:\n    (m: Message)\n    "hunter2" in m.content\n';

describe('rules on a trace document', () => {
  it('says once that a trace nested past the depth limit is not evaluated, and still evaluates a shallow line', () => {
    const deep = '{"a":'.repeat(5_000) + '[1]' + '}'.repeat(5_000);
    const lines = [
      `{"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": ${deep}}}]}]}`,
      '[{"role": "user", "content": "hunter2"}]',
    ];
    const text = lines.join('\n');
    const result = evaluateRulesOnTrace([rules(passwordRule)], text, 'dataset', options);
    assert.deepEqual(result.notices.map((n) => [n.kind, n.message, n.span]), [[
      'failed',
      'Guardrails from leak.gr not evaluated on line 1: The trace nests values more than 500 levels deep; guardrails are evaluated on traces nested up to 500 levels',
      { start: 0, end: lines[0].length },
    ]]);
    assert.deepEqual(result.violations.map((v) => text.slice(v.span.start, v.span.end)), ['hunter2']);
  });

  it('marks the exact characters of a substring range, through escapes and astral characters before it', () => {
    // \u00e9 is 6 source characters for one code point, \" 2 for one, 😀 two UTF-16 units for one code point.
    const text = '[\n  {"role": "user", "content": "caf\\u00e9 😀 \\"pw\\": hunter2!"}\n]';
    const result = evaluateRulesOnTrace([rules(passwordRule)], text, 'trace', options);
    assert.equal(result.violations.length, 1);
    const v = result.violations[0];
    assert.equal(text.slice(v.span.start, v.span.end), 'hunter2');
    assert.equal(v.span.start, text.indexOf('hunter2'));
    assert.equal(v.message, 'password in a message');
    assert.equal(v.code, 'guardrails/leak.gr:1');
    assert.deepEqual(v.raise, { start: 0, end: 'raise "password in a message" if:'.length });
    assert.deepEqual(result.notices, []);
    assert.equal(result.traces, 1);
  });

  it('evaluates each trace line of a dataset on its own, ranges inside that line, metadata lines skipped', () => {
    const lines = [
      '{"metadata": {"name": "evals"}}',
      '{"messages": [{"role": "user", "content": "fine"}]}',
      '{"messages": [{"role": "user", "content": "my hunter2"}], "metadata": {}}',
      '[{"role": "user", "content": "hunter2 again"}]',
    ];
    const text = lines.join('\r\n');
    const result = evaluateRulesOnTrace([rules(passwordRule)], text, 'dataset', options);
    assert.equal(result.traces, 3);
    const found = result.violations.map((v) => ({ trace: v.trace, line: new LineIndex(text).positionAt(v.span.start).line, text: text.slice(v.span.start, v.span.end) }));
    assert.deepEqual(found, [
      { trace: 1, line: 2, text: 'hunter2' },
      { trace: 2, line: 3, text: 'hunter2' },
    ]);
    assert.equal(found[0] && result.violations[0].span.start, text.indexOf('hunter2'));
  });

  it('says once per document that a rule needing a model-based detector was not evaluated, and still runs the others', () => {
    const policy = 'from invariant.detectors import pii\n\nraise "pii" if:\n    (m: Message)\n    any(pii(m.content))\n\n' + passwordRule;
    const text = ['[{"role": "user", "content": "hunter2"}]', '[{"role": "user", "content": "x"}]'].join('\n');
    const result = evaluateRulesOnTrace([rules(policy)], text, 'dataset', options);
    assert.deepEqual(result.violations.map((v) => [v.ruleIndex, v.code, text.slice(v.span.start, v.span.end)]), [[1, 'guardrails/leak.gr:7', 'hunter2']]);
    assert.equal(result.notices.length, 1);
    assert.equal(result.notices[0].kind, 'not-evaluated');
    assert.match(result.notices[0].message, /^leak\.gr: Rule 1 is not evaluated: it calls .*pii/);
    assert.deepEqual(result.notices[0].span, { start: 0, end: text.indexOf('\n') });
    assert.equal(result.outcomes.get('file:///w/rules/leak.gr')?.get(0)?.reason, result.notices[0].message);
  });

  it('does not evaluate a trace that is not valid JSON, and says so on its first line', () => {
    const text = '[\n  {"role": "user", "content": "hunter2"\n]';
    const result = evaluateRulesOnTrace([rules(passwordRule)], text, 'trace', options);
    assert.deepEqual(result.violations, []);
    assert.deepEqual(result.notices.map((n) => [n.kind, n.span, n.message]), [
      ['not-json', { start: 0, end: 1 }, 'Guardrails from leak.gr not evaluated on the trace: it is not valid JSON (fix the syntax errors first)'],
    ]);
  });

  it('reads values that hold no trace as agent-traces eval does: a trace file says so, a dataset skips the line, a messages that is no list fails', () => {
    const file = evaluateRulesOnTrace([rules(passwordRule)], '{"metadata": {"name": "x"}}', 'trace', options);
    assert.deepEqual([file.traces, file.notices.map((n) => [n.kind, n.span, n.message])], [0, [
      ['failed', { start: 0, end: 27 }, 'Guardrails from leak.gr not evaluated on the trace: it holds no trace (a list of events, or an object with messages)'],
    ]]);
    const text = ['{"metadata": {}}', '{"messages": 5}', '[{"role": "user", "content": "hunter2"}]'].join('\n');
    const dataset = evaluateRulesOnTrace([rules(passwordRule)], text, 'dataset', options);
    assert.equal(dataset.traces, 2);
    assert.deepEqual(dataset.notices.map((n) => [n.kind, text.slice(n.span.start, n.span.end), n.message]), [[
      'failed', '{"messages": 5}',
      "Guardrails from leak.gr not evaluated on line 2: The trace cannot be read as the analyzer reads it: the trace does not fit the analyzer's input schema: a trace is a list of events",
    ]]);
    assert.deepEqual(dataset.violations.map((v) => [v.trace, text.slice(v.span.start, v.span.end)]), [[1, 'hunter2']]);
  });

  it('places a violation without ranges on the trace\'s first line', () => {
    const text = '[\n  {"role": "user", "content": "x"}\n]';
    const result = evaluateRulesOnTrace([rules('raise "always" if:\n    (m: Message)\n')], text, 'trace', options);
    assert.deepEqual(result.violations.map((v) => v.span), [{ start: 0, end: 1 }]);
  });

  it('reports a failed evaluation with the rule line that raised it', () => {
    const policy = 'raise "p" if:\n    (m: Message)\n    m.content == input.expected\n';
    const result = evaluateRulesOnTrace([rules(policy)], '[{"role": "user", "content": "x"}]', 'trace', options);
    assert.equal(result.notices.length, 1);
    assert.equal(result.notices[0].kind, 'failed');
    assert.match(result.notices[0].message, /^Guardrails from leak\.gr could not be evaluated: .*expected.* \(leak\.gr:3\); give it in the setting agentTraces\.guardrails\.parameters$/);
  });

  it('says when a rule hit the work budget, naming the setting', () => {
    const policy = 'raise "pair" if:\n    (a: Message)\n    (b: Message)\n    a.content + b.content == "never"\n';
    const text = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ role: 'user', content: `m${i}` })));
    const result = evaluateRulesOnTrace([rules(policy)], text, 'trace', { workBudget: 10 });
    assert.deepEqual(result.notices.map((n) => n.kind), ['work-budget']);
    assert.match(result.notices[0].message, /stopped after 10 steps .*agentTraces\.guardrails\.workBudget/);
  });
});

describe('rule file code lenses', () => {
  const policy = 'from invariant.detectors import pii\n\nraise "pii" if:\n    (m: Message)\n    any(pii(m.content))\n\n' + passwordRule;
  const rule = rules(policy);

  function lenses(results: TraceResults) {
    return guardrailService.codeLenses!(rule.model, { settings: defaultSettings, guardrailResults: results })
      .map((lens) => [policy.slice(lens.span.start, lens.span.end), lens.title, (lens.targets ?? []).map((t) => `${t.uri}@${t.span.start}`)]);
  }

  it('counts violations and traces over the open trace documents, and says why a rule was not evaluated', () => {
    const results = new TraceResults();
    const a = '[{"role": "user", "content": "hunter2 hunter2"}]';
    const b = ['[{"role": "user", "content": "hunter2"}]', '[{"role": "user", "content": "no"}]'].join('\n');
    results.set('file:///w/a.trace.json', evaluateRulesOnTrace([rule], a, 'trace', options), new LineIndex(a));
    results.set('file:///w/b.trace.jsonl', evaluateRulesOnTrace([rule], b, 'dataset', options), new LineIndex(b));
    const [pii, password] = lenses(results);
    assert.equal(pii[0], 'raise "pii" if:');
    assert.match(pii[1] as string, /^Not evaluated: leak\.gr: Rule 1 is not evaluated: it calls .*pii/);
    assert.deepEqual(password, [
      'raise "password in a message" if:',
      '2 violations in 2 traces (of 2 open trace files)',
      [`file:///w/a.trace.json@${a.indexOf('hunter2')}`, `file:///w/b.trace.jsonl@${b.indexOf('hunter2')}`],
    ]);
  });

  it('counts a rule that failed on some traces only over the others, and says on how many it was not evaluated', () => {
    // Reading an argument the call does not have fails the evaluation, as the analyzer's KeyError does: only on a
    // trace with such a call.
    const failing = rules('raise "p" if:\n    (c: ToolCall)\n    c.function.arguments["to"] == "x"\n');
    const results = new TraceResults();
    const empty = '[]';
    const withMessage = '[{"role": "assistant", "content": null, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "send", "arguments": {}}}]}]';
    results.set('file:///w/empty.trace.json', evaluateRulesOnTrace([failing], empty, 'trace', options), new LineIndex(empty));
    const titles = () => guardrailService.codeLenses!(failing.model, { settings: defaultSettings, guardrailResults: results }).map((lens) => lens.title);
    assert.deepEqual(titles(), ['0 violations in 0 traces (of 1 open trace file)']);
    results.set('file:///w/message.trace.json', evaluateRulesOnTrace([failing], withMessage, 'trace', options), new LineIndex(withMessage));
    assert.match(titles()[0], /^0 violations in 0 traces \(of 2 open trace files\) · not evaluated on 1 trace file: .*KeyError/);
    // Beside violations found elsewhere, only the count: the traces that failed say why on themselves.
    const sent = '[{"role": "assistant", "content": null, "tool_calls": [{"id": "2", "type": "function", "function": {"name": "send", "arguments": {"to": "x"}}}]}]';
    results.set('file:///w/sent.trace.json', evaluateRulesOnTrace([failing], sent, 'trace', options), new LineIndex(sent));
    assert.equal(titles()[0], '1 violation in 1 trace (of 3 open trace files) · not evaluated on 1 trace file');
    results.delete('file:///w/sent.trace.json');
    results.delete('file:///w/empty.trace.json');
    assert.match(titles()[0], /^Not evaluated: .*KeyError/);
  });

  it('stops a rule at agentTraces.maxProblems violations per trace, says so on the trace, and counts "N+" in the lens', () => {
    const text = JSON.stringify(Array.from({ length: 5 }, () => ({ role: 'user', content: 'hunter2' })));
    const result = evaluateRulesOnTrace([rule], text, 'trace', { workBudget: 1_000_000, maxViolations: 2 });
    assert.equal(result.violations.length, 2);
    assert.deepEqual(result.notices.filter((n) => n.kind === 'violation-limit').map((n) => n.message), [
      'leak.gr: Rule 2 found more than 2 violations (the limit): it stopped there and reports those (setting agentTraces.maxProblems)',
    ]);
    const results = new TraceResults();
    results.set('file:///w/many.trace.json', result, new LineIndex(text));
    assert.deepEqual(lenses(results)[1].slice(0, 2), ['raise "password in a message" if:', '2+ violations in 1 trace (of 1 open trace file)']);
  });

  it('says there is nothing to check when no trace is open', () => {
    assert.deepEqual(lenses(new TraceResults()).map((l) => l[1]), [
      'No open trace to check (open a trace, or bind rule files with agentTraces.guardrails.policies)',
      'No open trace to check (open a trace, or bind rule files with agentTraces.guardrails.policies)',
    ]);
  });
});

describe('rule files that cannot be loaded', () => {
  it('leave the trace alone (the rule file shows its errors) and give the reason to the code lenses', () => {
    const rule = rules('raise "x" if:\n    (out: Outputt)\n');
    const result = evaluateRulesOnTrace([rule], '[{"role": "user", "content": "x"}]', 'trace', options);
    assert.deepEqual([result.violations, result.notices], [[], []]);
    const results = new TraceResults();
    results.set('file:///w/t.trace.json', result, new LineIndex(''));
    const titles = guardrailService.codeLenses!(rule.model, { settings: defaultSettings, guardrailResults: results }).map((lens) => lens.title);
    assert.equal(titles.length, 1);
    assert.match(titles[0], /^Not evaluated: The rules cannot be loaded: .*Outputt/);
  });

  it('say so once for a dataset of several traces, and still let a loadable rule file run on each of them', () => {
    const broken = rules('raise "x" if:\n    (out: Outputt)\n', 'file:///w/rules/typo.gr');
    const text = ['[{"role": "user", "content": "hunter2"}]', '{"messages": [{"role": "user", "content": "hunter2"}]}', '[{"role": "user", "content": "x"}]'].join('\n');
    const result = evaluateRulesOnTrace([broken, rules(passwordRule)], text, 'dataset', options);
    assert.deepEqual(result.notices, []);
    assert.equal(result.traces, 3);
    assert.deepEqual(result.violations.map((v) => [v.ruleUri, v.trace]), [['file:///w/rules/leak.gr', 0], ['file:///w/rules/leak.gr', 1]]);
    assert.deepEqual([...result.outcomes.get('file:///w/rules/typo.gr')!], [[-1, { violations: 0, reason: 'The rules cannot be loaded: Failed to resolve type Outputt' }]]);
  });
});
