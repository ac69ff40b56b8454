import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateRules, type EvaluationOptions } from '../../../../server/src/guardrail/evaluate';
import { installHeapGauge } from '../../../../server/src/guardrail/evaluate/limits';
import { model } from '../helpers';

/** How the evaluation of one rule file on one trace ended: errors, notices and failure, in words. */
function ev(policy: string, trace: unknown[], options: EvaluationOptions = {}) {
  const r = evaluateRules(model(policy), trace, options);
  return {
    errors: r.errors.map((e) => [e.message, e.ranges]),
    failure: r.failure ? `${r.failure.pyType} @${r.failure.start}-${r.failure.end}: ${r.failure.message}` : null,
    notices: r.notices.map((n) => `${n.kind}: ${n.message}`),
    work: r.work,
  };
}

const user = (content: unknown) => ({ role: 'user', content });

describe('evaluation: memory limits', () => {
  it('raises MemoryError for a list or a string past the limits, at once, on the rule line', () => {
    const list = ev('raise "x" if:\n    (m: Message)\n    len([0] * 300000000) > 0\n', [user('a')]);
    assert.equal(list.failure, 'MemoryError @35-59: Evaluation failed at line 3 (rule 1): MemoryError: a list of 300,000,000 items is more than the evaluator holds (10,000,000)');
    const text = ev('raise "x" if:\n    (m: Message)\n    len("ab" * 10**9) > 0\n', [user('a')]);
    assert.equal(text.failure, 'MemoryError @35-56: Evaluation failed at line 3 (rule 1): MemoryError: a string of 2,000,000,000 characters is more than the evaluator holds (268,435,456)');
  });

  it('checks concatenation, join and list() too, and still makes what fits', () => {
    const failure = (line: string) => ev(`l := [0] * 6000000\ns := "a" * 200000000\nraise "x" if:\n    (m: Message)\n    ${line}\n`, [user('a')]).failure;
    assert.match(failure('len(l + l) > 0')!, /MemoryError: a list of 12,000,000 items/);
    assert.match(failure('len(s + s) > 0')!, /MemoryError: a string of 400,000,000 characters/);
    assert.match(failure('len(",".join([s, s])) > 0')!, /MemoryError: a string of 400,000,001 characters/);
    assert.equal(failure('len(l + [1]) == 6000001 and len(s) == 200000000'), null);
    assert.match(failure('len(("a," * 10000001).split(",")) > 0')!, /MemoryError: a list of 10,000,002 items/);
    const lines = ev('raise "x" if:\n    (m: Message)\n    len((m.content * 10000001).splitlines()) > 0\n', [user('a\n')]);
    assert.match(lines.failure!, /MemoryError: a list of 10,000,002 items/);
    assert.equal(failure('len(("a," * 6000000).split(",")) == 6000001'), null);
    assert.equal(ev('raise "x" if:\n    (m: Message)\n    len([1, 2] * 3) == 6 and len("ab" * -1) == 0\n', [user('a')]).errors.length, 1);
  });

  it('raises MemoryError when the heap gauge says the heap is full, for large values and while a loop runs', () => {
    installHeapGauge({ exceeds: () => true, limitBytes: 512 * 2 ** 20 });
    try {
      const big = ev('raise "x" if:\n    (m: Message)\n    len([0] * 200000) > 0\n', [user('a')]);
      assert.match(big.failure!, /MemoryError: the evaluation's values fill the memory allowed for rules \(512 MB\)$/);
      const small = ev('raise "x" if:\n    (m: Message)\n    len([0] * 10) > 0\n', [user('a')]);
      assert.equal(small.failure, null, 'small values are not measured');
      const loop = ev('l := [0] * 100\nraise "x" if:\n    (m: Message)\n    len([x for x in l]) > 0\n', [user('a')]);
      assert.match(loop.failure!, /MemoryError: the evaluation's values fill/);
    } finally {
      installHeapGauge(undefined);
    }
  });

  it('counts the characters of a long text without listing them, and indexes it by characters', () => {
    const long = '😀' + 'a'.repeat(3_000_000);
    assert.equal(ev('raise "x" if:\n    (m: Message)\n    len(m.content) == 3000001 and m.content[0] == "😀" and m.content[-1] == "a"\n', [user(long)]).errors.length, 1);
    assert.match(ev('raise "x" if:\n    (m: Message)\n    m.content[5] == "a"\n', [user('😀a')]).failure!, /IndexError: str index out of range/);
  });
});

describe('evaluation: JavaScript exceptions', () => {
  it('finds a 100 KB text from the trace in another without a pattern, marking where it occurs', () => {
    const needle = 'x'.repeat(100_000);
    const r = ev('raise PolicyViolation("in", b) if:\n    (a: Message)\n    (b: Message)\n    len(a.content) == 100000\n    a.content in b.content\n', [user(needle), user(`y${needle}z${needle}`)]);
    assert.deepEqual(r.errors.map((e) => e[1]), [
      ['messages.0', 'messages.0', 'messages.0.content:0-100000'],
      ['messages.0', 'messages.1', 'messages.1.content:1-100001', 'messages.1.content:100002-200002'],
    ]);
    assert.equal(r.failure, null);
  });

  it('matches a pattern too large for JavaScript\'s engine on the backtracking matcher, as Python matches it', () => {
    const needle = 'x'.repeat(100_000) + '.';
    const r = ev('raise PolicyViolation("in", b) if:\n    (a: Message)\n    (b: Message)\n    a.content in b.content\n', [user(needle), user('y')]);
    assert.equal(r.failure, null);
    assert.deepEqual(r.errors.map((e) => e[1]), [
      ['messages.0', 'messages.0', 'messages.0.content:0-100001'],
      ['messages.1', 'messages.1', 'messages.1.content:0-1'],
    ]);
  });
});

describe('evaluation: JavaScript exceptions become the trace\'s failure', () => {
  it('a fault inside the evaluator fails that rule file on that trace with its name, the line and a cut message', () => {
    installHeapGauge({ exceeds: () => { throw new TypeError(`a fault ${'x'.repeat(1000)}`); }, limitBytes: 1 });
    try {
      const r = ev('raise "x" if:\n    (m: Message)\n    len([0] * 200000) > 0\n', [user('a')]);
      assert.equal(r.failure, `TypeError @35-56: Evaluation failed at line 3 (rule 1): TypeError: the evaluator could not run this line: a fault ${'x'.repeat(291)}…`);
    } finally {
      installHeapGauge(undefined);
    }
  });

  it('the engine\'s stack overflowing in a predicate that calls itself is RecursionError on that trace only', () => {
    const policy = 'nested(x: Message) :=\n    x.content == "loop"\n    nested(x)\n\nraise "nested" if:\n    (m: Message)\n    nested(m)\n';
    assert.match(ev(policy, [user('loop')]).failure!, /^RecursionError @\d+-\d+: Evaluation failed \(rule 1\): RecursionError: maximum recursion depth exceeded/);
    assert.equal(ev(policy, [user('fine')]).failure, null);
  });
});

describe('evaluation: the work budget and the time limit', () => {
  it('counts comprehension iterations as steps of the work budget', () => {
    const policy = 'l := [0] * 1000\nraise "x" if:\n    (m: Message)\n    len([x for x in l]) > 0\n';
    assert.deepEqual(ev(policy, [user('a')], { budget: 500 }).notices, ['budget: Rule 1 stopped after 500 steps (the work budget); its violations are not reported']);
    const r = ev(policy, [user('a')]);
    assert.deepEqual([r.errors.length, r.work], [1, 1001]);
  });

  it('stops a rule at its time limit with a notice, and goes on with the next rule', () => {
    const slow = 'l := [0] * 3000\nraise "slow" if:\n    (m: Message)\n    len([len([y for y in l]) for x in l]) > 0\n\nraise "fast" if:\n    (m: Message)\n';
    const r = ev(slow, [user('a')], { timeLimitMs: 50 });
    assert.deepEqual(r.notices, ['timeout: Rule 1 stopped after running 50 ms on this trace (the time limit); its violations are not reported']);
    assert.deepEqual(r.errors, [['fast', []]]);
  });

  it('reports rules stopped by an earlier attempt without running them: a timeout as a notice, memory as the failure', () => {
    const policy = 'raise "a" if:\n    (m: Message)\n\nraise "b" if:\n    (m: Message)\n';
    const timedOut = ev(policy, [user('x')], { timeLimitMs: 5000, stopped: new Map([[0, 'timeout']]) });
    assert.deepEqual(timedOut.notices, ['timeout: Rule 1 stopped after running 5 s on this trace (the time limit); its violations are not reported']);
    assert.deepEqual(timedOut.errors, [['b', []]]);
    const outOfMemory = ev(policy, [user('x')], { stopped: new Map([[1, 'memory']]) });
    assert.equal(outOfMemory.failure, 'MemoryError @32-45: Evaluation failed (rule 2): MemoryError: the rule ran out of the memory allowed for rules');
    assert.deepEqual(outOfMemory.errors, []);
  });
});
