// Hostile rules and traces against `agent-traces eval`: a rule's time limit stops even one regular expression, a
// detector does not backtrack exponentially on a trace, comprehensions count as work, a rule that asks for too much
// memory raises MemoryError, and an exception inside the evaluation fails only that trace. Each run is killed after
// GIVE_UP_MS, so a run that hangs fails its case instead of the suite.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');
const GIVE_UP_MS = 60_000;

function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', timeout: GIVE_UP_MS });
  assert.equal(result.signal, null, `agent-traces ${args.join(' ')} was still running after ${GIVE_UP_MS} ms`);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

const trace = (...contents: string[]) => JSON.stringify(contents.map((content) => ({ role: 'user', content })));

describe('agent-traces eval: rules bounded in time and memory', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-eval-limits-'));
    writeFileSync(join(dir, 'backtracks.trace.json'), trace('a'.repeat(30) + '!'));
    writeFileSync(join(dir, 'hello.trace.json'), trace('hello'));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stops a regular expression that backtracks for minutes at the time limit, and goes on with the other rules and files', () => {
    writeFileSync(join(dir, 'regex.gr'), 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n\nraise "hello" if:\n    (m: Message)\n    "hello" in m.content\n');
    const result = run(dir, 'eval', 'regex.gr', 'backtracks.trace.json', 'hello.trace.json', '--timeout', '1000');
    assert.deepEqual(result.lines, [
      'regex.gr:1:1 information guardrails Rule 1 stopped after running 1 s on this trace (the time limit); its violations are not reported (--timeout)',
      'hello.trace.json:1:28 warning guardrails hello',
      '  bound: m = messages.0 at hello.trace.json:1:2',
      '2 traces in 2 files evaluated: 1 violation, 0 failed, 1 with a rule not evaluated',
    ]);
    assert.equal(result.code, 4, 'a violation, and a trace not evaluated in full');
  });

  it('eval --compare stops a version\'s rule at the time limit: that trace is not evaluated, the other trace is compared', () => {
    writeFileSync(join(dir, 'old.gr'), 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n\nraise "hello" if:\n    (m: Message)\n    "hello" in m.content\n');
    writeFileSync(join(dir, 'new.gr'), 'raise "hi" if:\n    (m: Message)\n    "hello" in m.content\n');
    const result = run(dir, 'eval', '--compare', 'old.gr', 'new.gr', 'backtracks.trace.json', 'hello.trace.json', '--timeout', '1000');
    assert.deepEqual(result.lines, [
      'backtracks.trace.json: error: the old rules could not be evaluated: Rule 1 stopped after running 1 s on this trace (the time limit); its violations are not reported',
      'hello.trace.json:1:28 removed hello (old.gr:5)',
      'hello.trace.json:1:28 added hi (new.gr:1)',
      '1 of 2 traces in 2 files flip: 1 violation added, 1 removed, 1 not evaluated',
    ]);
    assert.equal(result.code, 4, 'a flip, and a trace not evaluated');
  });

  it('has a time limit of 5 s by default, said in --help', () => {
    writeFileSync(join(dir, 'regex-only.gr'), 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n');
    const result = run(dir, 'eval', 'regex-only.gr', 'backtracks.trace.json');
    assert.match(result.stdout, /Rule 1 stopped after running 5 s on this trace \(the time limit\)/);
    assert.equal(result.code, 3);
    assert.match(run(dir, 'eval', '--help').stdout, /--timeout MS\s+milliseconds a rule may run on one trace before it is stopped \(default 5000\)/);
    assert.equal(run(dir, 'eval', 'regex-only.gr', 'hello.trace.json', '--timeout', '0').code, 2);
  });

  it('reads an HTML start tag that never closes in linear time: html_code on `<a b=x/x/x…`', () => {
    writeFileSync(join(dir, 'html.gr'), 'from invariant.parsers.html import html_code\nraise "link" if:\n    (m: Message)\n    "https://ok.example" in html_code(m).links\n');
    writeFileSync(join(dir, 'html.trace.json'), trace('<a b=x' + '/x'.repeat(40), '<a href="https://ok.example">ok</a>'));
    const result = run(dir, 'eval', 'html.gr', 'html.trace.json');
    assert.deepEqual(result.lines.slice(-1), ['1 trace in 1 file evaluated: 1 violation, 0 failed']);
    assert.equal(result.code, 1);
  });

  it('counts comprehension iterations as work: a loop inside one rule-body evaluation stops at the budget or the time limit', () => {
    writeFileSync(join(dir, 'loops.gr'), 'l := [0] * 20000\nraise "loops" if:\n    (m: Message)\n    len([len([y for y in l]) for x in l]) > 0\n');
    const budget = run(dir, 'eval', 'loops.gr', 'hello.trace.json');
    assert.deepEqual(budget.lines, [
      'loops.gr:2:1 information guardrails Rule 1 stopped after 1,000,000 steps (the work budget); its violations are not reported (--budget)',
      '1 trace in 1 file evaluated: 0 violations, 0 failed, 1 with a rule not evaluated',
    ]);
    assert.equal(budget.code, 3);
    const time = run(dir, 'eval', 'loops.gr', 'hello.trace.json', '--budget', '1000000000', '--timeout', '500');
    assert.match(time.lines[0], /Rule 1 stopped after running 500 ms on this trace \(the time limit\)/);
    assert.equal(time.code, 3);
  });

  it('raises MemoryError for a list or a string too large, and evaluates the other files', () => {
    writeFileSync(join(dir, 'memory.gr'), 'raise "list" if:\n    (m: Message)\n    len([0] * 300000000) > 0\n\nraise "text" if:\n    (m: Message)\n    len("ab" * 10**9) > 0\n');
    writeFileSync(join(dir, 'text-only.gr'), 'raise "text" if:\n    (m: Message)\n    len("ab" * 10**9) > 0 or "hello" in m.content\n');
    const list = run(dir, 'eval', 'memory.gr', 'hello.trace.json', 'backtracks.trace.json');
    assert.deepEqual(list.lines, [
      'hello.trace.json: error guardrails evaluation failed: memory.gr:3:5: Evaluation failed at line 3 (rule 1): MemoryError: a list of 300,000,000 items is more than the evaluator holds (10,000,000)',
      'backtracks.trace.json: error guardrails evaluation failed: memory.gr:3:5: Evaluation failed at line 3 (rule 1): MemoryError: a list of 300,000,000 items is more than the evaluator holds (10,000,000)',
      '2 traces in 2 files evaluated: 0 violations, 2 failed',
    ]);
    assert.equal(list.code, 3);
    const text = run(dir, 'eval', 'text-only.gr', 'hello.trace.json');
    assert.match(text.stdout, /MemoryError: a string of 2,000,000,000 characters is more than the evaluator holds \(268,435,456\)/);
  });

  it('turns an exception inside the evaluation into that trace\'s failure: the other files still print', () => {
    // The predicate calls itself only on a trace that says "loop": the engine's stack overflows (a RangeError), which
    // must fail that trace as Python's RecursionError, not the run.
    writeFileSync(join(dir, 'recursion.gr'), 'nested(x: Message) :=\n    x.content == "loop"\n    nested(x)\n\nraise "nested" if:\n    (m: Message)\n    nested(m)\n\n'
      + 'raise "hello" if:\n    (m: Message)\n    "hello" in m.content\n');
    writeFileSync(join(dir, 'loop.trace.json'), trace('loop'));
    const result = run(dir, 'eval', 'recursion.gr', 'loop.trace.json', 'hello.trace.json');
    assert.deepEqual(result.lines, [
      'loop.trace.json: error guardrails evaluation failed: recursion.gr:5:1: Evaluation failed (rule 1): RecursionError: maximum recursion depth exceeded (a predicate or constant refers to itself)',
      'hello.trace.json:1:28 warning guardrails hello',
      '  bound: m = messages.0 at hello.trace.json:1:2',
      '2 traces in 2 files evaluated: 1 violation, 1 failed',
    ]);
    assert.equal(result.code, 4);
  });
});

describe('agent-traces test: rule tests bounded in time', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-test-limits-'));
    writeFileSync(join(dir, 'backtracks.trace.json'), trace('a'.repeat(30) + '!'));
    writeFileSync(join(dir, 'hello.trace.json'), trace('hello'));
    writeFileSync(join(dir, 'regex.gr'), 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n\nraise "hello" if:\n    (m: Message)\n    "hello" in m.content\n');
    writeFileSync(join(dir, 'regex.tests.json'), JSON.stringify({
      rules: 'regex.gr',
      cases: [
        { name: 'backtracking input', trace: 'backtracks.trace.json', expect: [] },
        { name: 'hello is caught', trace: 'hello.trace.json', expect: [{ message: 'hello' }] },
      ],
    }));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fails the case whose rule backtracks past the time limit, and runs the next case', () => {
    const result = run(dir, 'test', '.', '--timeout', '1000');
    assert.deepEqual(result.lines, [
      'backtracks.trace.json:1:1 FAIL regex.tests.json › backtracking input: regex.gr:1: Rule 1 stopped after running 1 s on this trace (the time limit); its violations are not reported',
      '1 passed, 1 failed',
    ]);
    assert.equal(result.code, 3, 'the rule was not evaluated in full, and no case failed on its violations');
  });
});
