import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { evaluateRules } from '../../../../server/src/guardrail/evaluate/evaluator';
import { describe as problemsOf, model, repoRoot } from '../helpers';

/**
 * Rules that import Python modules: json, re, math and string are evaluated as Python evaluates them; any other
 * module is never run (the rule is reported as not evaluated, naming what it uses), also when reached through
 * Python's internals; the editor says so on the import.
 */

function ev(policy: string, trace: unknown[]) {
  const r = evaluateRules(model(policy), trace);
  return {
    errors: r.errors.map((e) => [e.message, e.key, e.ranges]),
    notices: r.notices.map((n) => n.message),
    failure: r.failure?.message ?? null,
  };
}

const user = (content: unknown) => ({ role: 'user', content });
const call = (id: string, name: string, args: unknown) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });

describe('rules that use json, re, math and string', () => {
  it('json.loads of a tool call argument, compared with a threshold (the issue\'s example)', () => {
    const policy = 'import json\n\nraise PolicyViolation("large payment", c) if:\n    (c: ToolCall)\n    json.loads(c.function.arguments.payload)["amount"] > 100\n';
    const trace = [user('pay'), call('1', 'pay', { payload: '{"amount": 150}' }), call('2', 'pay', { payload: '{"amount": 50}' })];
    assert.deepEqual(ev(policy, trace).errors.map((e) => e.slice(0, 2)), [['large payment', '(0, (1,))']]);
  });

  it('re.search and its match object; from-imports and aliases bind the same functions', () => {
    const policy = 'from re import search\nimport re as r\n\nraise PolicyViolation(m.group("n")) if:\n    (u: Message)\n    m := search("order #(?P<n>\\d+)", u.content)\n    m is not None\n    r.fullmatch("\\d+", m.group(1)) is not None\n';
    assert.deepEqual(ev(policy, [user('see order #123 now'), user('no order')]).errors.map((e) => e.slice(0, 2)), [['123', '(0, (-1, 0))']]);
    // A line that gives a match object rather than a bool does not make the rule fire (the analyzer's eval_all).
    assert.deepEqual(ev('import re\nraise "x" if:\n    (u: Message)\n    re.search("o", u.content)\n', [user('no')]).errors, []);
  });

  it('from-imports of json, math and string bind what the modules give', () => {
    const policy = 'from json import loads, dumps as write\nfrom math import sqrt\nfrom string import digits\n\nraise PolicyViolation(write(v, sort_keys=True)) if:\n    (u: Message)\n    v := loads(u.content)\n    sqrt(v["n"]) == 3\n    v["code"][0] in digits\n';
    assert.deepEqual(ev(policy, [user('{"n": 9, "code": "7x"}'), user('{"n": 9, "code": "x7"}'), user('{"n": 4, "code": "1"}')]).errors.map((e) => e.slice(0, 2)),
      [['{"code": "7x", "n": 9}', '(0, (0, -1))']]);
  });

  it('a Python error in a module call fails the evaluation with Python\'s exception and message', () => {
    assert.match(ev('import json\nraise "x" if:\n    (u: Message)\n    json.loads(u.content)\n', [user('{"a": }')]).failure!,
      /JSONDecodeError: Expecting value: line 1 column 7 \(char 6\)$/);
    assert.match(ev('import re\nraise "x" if:\n    (u: Message)\n    re.search("(?<x>a)", u.content)\n', [user('a')]).failure!,
      /re\.error: unknown extension \?<x at position 1$/);
    assert.match(ev('import math\nraise "x" if:\n    math.sqrt(-1) > 0\n', []).failure!, /ValueError: math domain error$/);
    assert.match(ev('import math\nraise "x" if:\n    math.nope\n', []).failure!, /AttributeError: module 'math' has no attribute 'nope'$/);
  });
});

describe('modules that can act on the machine are never run', () => {
  it('names the call or the value the rule uses, and why', () => {
    const notice = (policy: string) => ev(policy, [user('hi')]).notices;
    const why = 'could act on the machine or the network (module os): the local evaluator never runs it, where the official analyzer would';
    assert.deepEqual(notice('import os\nraise "x" if:\n    (m: Message)\n    os.system("uname -a")\n'), [`Rule 1 is not evaluated: it calls os.system, which ${why}`]);
    assert.deepEqual(notice('import os.path\nraise "x" if:\n    (m: Message)\n    os.path.exists("/")\n'), [`Rule 1 is not evaluated: it calls os.path.exists, which ${why}`]);
    assert.deepEqual(notice('import os\nraise "x" if:\n    (m: Message)\n    os.environ["HOME"] == "/root"\n'), [`Rule 1 is not evaluated: it uses os.environ, which ${why}`]);
    assert.deepEqual(notice('import os\nraise "x" if:\n    (m: Message)\n    os.sep == "/"\n'), [`Rule 1 is not evaluated: it uses os.sep, which ${why}`]);
    assert.deepEqual(notice('from subprocess import run as go\nraise "x" if:\n    (m: Message)\n    go(["ls"])\n'),
      ['Rule 1 is not evaluated: it calls subprocess.run, which could act on the machine or the network (module subprocess): the local evaluator never runs it, where the official analyzer would']);
    assert.deepEqual(notice('import builtins\nraise "x" if:\n    (m: Message)\n    builtins.eval("1")\n'),
      ['Rule 1 is not evaluated: it calls builtins.eval, which could act on the machine or the network (module builtins): the local evaluator never runs it, where the official analyzer would']);
    assert.deepEqual(notice('import datetime\nraise "x" if:\n    (m: Message)\n    datetime.date.today()\n'),
      ["Rule 1 is not evaluated: it calls datetime.date.today, which needs the Python module datetime, which the local evaluator does not run (of Python's own modules it evaluates json, re, math, string)"]);
  });

  it("refuses Python's internals reached through an evaluated module or its objects", () => {
    const internals = "reaches Python's interpreter internals (a way to run any code): the local evaluator never does that, where the official analyzer would";
    assert.deepEqual(ev('import json\nraise "x" if:\n    (m: Message)\n    json.__builtins__["eval"]("1")\n', [user('hi')]).notices, [`Rule 1 is not evaluated: it uses json.__builtins__, which ${internals}`]);
    assert.deepEqual(ev('import re\nraise "x" if:\n    (m: Message)\n    re.compile("a").__class__\n', [user('hi')]).notices, [`Rule 1 is not evaluated: it uses re.Pattern.__class__, which ${internals}`]);
    assert.deepEqual(ev('import re\nraise "x" if:\n    (m: Message)\n    re.search("h", m.content).__init__\n', [user('hi')]).notices, [`Rule 1 is not evaluated: it uses re.Match.__init__, which ${internals}`]);
    assert.deepEqual(ev('import json\nraise "x" if:\n    (m: Message)\n    json.loads.__globals__["os"]\n', [user('hi')]).notices, [`Rule 1 is not evaluated: it uses loads.__globals__, which ${internals}`]);
    assert.deepEqual(ev('raise "x" if:\n    (m: Message)\n    len.__self__\n', [user('hi')]).notices, [`Rule 1 is not evaluated: it uses len.__self__, which ${internals}`]);
    assert.match(ev('import json\nraise "x" if:\n    (m: Message)\n    json.loads.nope\n', [user('hi')]).failure!, /AttributeError: Attribute nope not found in function\.$/);
    assert.deepEqual(ev('import json\nraise "x" if:\n    (m: Message)\n    json.JSONEncoder().encode(1)\n', [user('hi')]).notices,
      ['Rule 1 is not evaluated: it calls json.JSONEncoder, which is not provided by the local evaluator (of json it evaluates loads, dumps)']);
  });

  it('runs nothing: a rule that would write a file leaves none, and the other rules still run', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'never-run-'));
    try {
      const target = path.join(dir, 'written').replace(/\\/g, '/');
      const policy = `import os\nimport subprocess\nraise "os" if:\n    (m: Message)\n    os.system("touch ${target}") or subprocess.run(["touch", "${target}"])\n\nraise "hello" if:\n    (m: Message)\n    "hi" in m.content\n`;
      const r = ev(policy, [user('hi')]);
      assert.deepEqual(r.errors.map((e) => e[0]), ['hello']);
      assert.equal(r.notices.length, 1);
      assert.equal(existsSync(target), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the editor says what the evaluator does with an import', () => {
  it("Python's eval, exec, open and __import__ are not names of the rule language: the error says why", () => {
    const text = 'raise "x" if:\n    (m: Message)\n    eval(m.content) or exec("1") or open("/etc/passwd") or __import__("os") or getattr(m, "x") or len(m.content) > 1\n';
    assert.deepEqual(problemsOf(text), [
      "error gr/unknown-identifier 3:5-3:9 Failed to resolve identifier eval (Python's eval is not part of the rule language: it runs any Python code, which rules never do)",
      "error gr/unknown-identifier 3:24-3:28 Failed to resolve identifier exec (Python's exec is not part of the rule language: it runs any Python code, which rules never do)",
      "error gr/unknown-identifier 3:37-3:41 Failed to resolve identifier open (Python's open is not part of the rule language: it reads and writes files, which rules never do)",
      "error gr/unknown-identifier 3:60-3:70 Failed to resolve identifier __import__ (Python's __import__ is not part of the rule language: it loads any module, which rules never do)",
      "error gr/unknown-identifier 3:80-3:87 Failed to resolve identifier getattr (Python's getattr is not part of the rule language: it reaches Python's interpreter internals, which rules never do)",
    ]);
  });

  it('never-run modules, modules not evaluated, names json lacks or does not provide', () => {
    const text = 'import os\nimport subprocess as sp\nfrom datetime import date\nimport json\nfrom json import loads, JSONEncoder, nope\nimport re\n';
    assert.deepEqual(problemsOf(text).filter((p) => !p.includes('gr/unused-import')), [
      'information gr/module-never-run 1:8-1:10 os can act on the machine or the network: the local evaluator never runs it and reports the rules that use it as not evaluated (the official analyzer runs it as Python)',
      'information gr/module-never-run 2:8-2:18 subprocess can act on the machine or the network: the local evaluator never runs it and reports the rules that use it as not evaluated (the official analyzer runs it as Python)',
      "information gr/module-not-evaluated 3:6-3:14 Of Python's own modules the local evaluator runs json, re, math, string, not datetime: it reports the rules that use it as not evaluated",
      'information gr/module-not-evaluated 5:25-5:36 json.JSONEncoder is not provided by the local evaluator: it reports the rules that use it as not evaluated',
      "error gr/unknown-import 5:38-5:42 module 'json' has no attribute 'nope'",
    ]);
  });
});

const corpus = path.resolve(repoRoot(), '../shared/corpus');

if (!existsSync(corpus)) {
  test('corpus rules that import Python modules', (t) => {
    if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
    t.skip(`corpus not found at ${corpus}`);
  });
} else {
  test('every corpus rule that imports a Python module evaluates as the official analyzer does, or is refused', () => {
    const valid = path.join(corpus, 'guardrails/valid');
    const files = readdirSync(valid).filter((f) => f.endsWith('.gr')).sort();
    const importing = files.filter((f) => /^(?:import|from)\s+(?!invariant\b)(json|re|math|string|os|sys|subprocess)\b/m.test(readFileSync(path.join(valid, f), 'utf8')));
    assert.deepEqual(importing, ['038.gr', '039.gr']);
    // The traces the official verdicts were recorded on (held-back pairs cover these two rules: the issue gives the
    // official result of 039, an error on every trace; 038 runs a shell command there).
    const traces = new Map<string, unknown>();
    for (const f of readdirSync(path.join(corpus, 'evaluation/cases'))) {
      const c = JSON.parse(readFileSync(path.join(corpus, 'evaluation/cases', f), 'utf8')) as { source?: { trace?: string }; trace: unknown };
      if (c.source?.trace) traces.set(c.source.trace, c.trace);
    }
    assert.ok(traces.size >= 40, `${traces.size} corpus traces`);
    const json = model(readFileSync(path.join(valid, '039.gr'), 'utf8'));
    const os = model(readFileSync(path.join(valid, '038.gr'), 'utf8'));
    for (const [name, trace] of traces) {
      const r = evaluateRules(json, trace);
      assert.deepEqual([r.failure, r.notices, r.errors.map((e) => [e.message, e.key])], [null, [], [['some error', '(0, ())']]], name);
      const refused = evaluateRules(os, trace);
      assert.equal(refused.failure, null, name);
      assert.deepEqual(refused.errors, [], name);
      if ((trace as unknown[]).some((e) => (e as { role?: string }).role !== undefined && (e as { role?: string }).role !== 'tool')) {
        assert.deepEqual(refused.notices.map((n) => n.message), ['Rule 1 is not evaluated: it calls os.path.exists, which could act on the machine or the network (module os): the local evaluator never runs it, where the official analyzer would'], name);
      }
    }
  });
}
