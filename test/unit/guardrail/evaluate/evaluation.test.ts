import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateRules, type EvaluationOptions } from '../../../../server/src/guardrail/evaluate';
import { traceSpans } from '../../../../server/src/guardrail/evaluate/traceSpans';
import { model } from '../helpers';

/** Errors as [message, key, ranges]; failure and notices as their messages. */
function ev(policy: string, trace: unknown[], options: EvaluationOptions = {}) {
  const r = evaluateRules(model(policy), trace, options);
  return {
    errors: r.errors.map((e) => [e.message, e.key, e.ranges]),
    failure: r.failure ? `${r.failure.pyType} @${r.failure.start}-${r.failure.end}: ${r.failure.message}` : null,
    notices: r.notices.map((n) => n.message),
    work: r.work,
  };
}

const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown, calls: unknown[] = []) => ({ role: 'assistant', content, tool_calls: calls });
const call = (id: string | null, name: string, args: unknown = {}) => ({ ...(id === null ? {} : { id }), type: 'function', function: { name, arguments: args } });
const output = (id: string | undefined, content: unknown) => (id === undefined ? { role: 'tool', content } : { role: 'tool', tool_call_id: id, content });

describe('evaluation: assignments and keys', () => {
  it('reports one error per satisfying assignment, rules in order, candidates in trace order, keys by variable name', () => {
    const policy = 'raise "b" if:\n    (m: Message)\n    m.role == "user"\n\nraise PolicyViolation("pair", x, a) if:\n    (x: Message)\n    (a: ToolCall)\n    x.role == "assistant"\n';
    const r = ev(policy, [user('u'), assistant('a', [call('1', 'f'), call('2', 'g')]), user('v')]);
    assert.deepEqual(r.errors, [
      ['b', '(0, (0,))', ['messages.0']],
      ['b', '(0, (2,))', ['messages.2']],
      ['pair', '(1, (1, 1))', ['messages.1', 'messages.1.tool_calls.0']],
      ['pair', '(1, (1, 1))', ['messages.1', 'messages.1.tool_calls.1']],
    ]);
  });

  it('binds a variable only when the body or the raise needs it (partial enumeration)', () => {
    assert.deepEqual(ev('raise "x" if:\n    (o: ToolOutput)\n', [user('hi')]).errors, [['x', '(0, ())', []]]);
    assert.deepEqual(ev('raise PolicyViolation("x", o) if:\n    (o: ToolOutput)\n', [user('hi')]).errors, []);
    assert.deepEqual(ev('raise PolicyViolation("x", o) if:\n    (o: ToolOutput)\n', [output('1', 'a'), output('2', 'b')]).errors.map((e) => e[1]), ['(0, (0,))', '(0, (1,))']);
  });

  it('puts assignments, comprehension variables and dict "key" values in the key, as the analyzer does', () => {
    assert.deepEqual(ev('raise "x" if:\n    v := {"key": "value"}\n    v.get("key") == "value"\n', []).errors, [['x', "(0, ('value',))", []]]);
    const comprehension = 'raise "x" if:\n    (m: Message)\n    any([w in m.content for w in ["a", "b"]])\n';
    assert.deepEqual(ev(comprehension, [user('xb')]).errors, [['x', '(0, (0, -1))', ['messages.0', 'messages.0.content:1-2']]]);
    // CPython shares one-character strings: the comprehension's last "b" is the very object of a content "b".
    assert.deepEqual(ev(comprehension, [user('b')]).errors, [['x', '(0, (0, -1))', ['messages.0', 'messages.0.content:0-1', 'messages.0.content']]]);
  });
});

describe('evaluation: strings and ranges', () => {
  it('"lit" in s is a substring test whose ranges come from the literal read as a regex', () => {
    assert.deepEqual(ev('raise "x" if:\n    (m: Message)\n    "a.c" in m.content\n', [user('a.c abc')]).errors, [['x', '(0, (0,))', ['messages.0', 'messages.0.content:0-3', 'messages.0.content:4-7']]]);
    assert.deepEqual(ev('raise "x" if:\n    (m: Message)\n    "a.c" in m.content\n', [user('abc')]).errors, []);
    assert.deepEqual(ev('raise "x" if:\n    (m: Message)\n    "a" in m.content\n', [user(null)]).errors, []);
  });

  it('counts offsets in code points', () => {
    assert.deepEqual(ev('raise "x" if:\n    (m: Message)\n    "b" in m.content\n', [user('😀ab')]).errors[0][2], ['messages.0', 'messages.0.content:2-3']);
  });

  it('finds a derived string at the trace path it came from when split/splitlines/strip changed nothing', () => {
    const policy = 'raise "x" if:\n    (m: Message)\n    (line: str) in m.content.splitlines()\n    "q" in line\n';
    assert.deepEqual(ev(policy, [user('qq'), user('aqq\nqq')]).errors, [
      ['x', '(0, (-1, 0))', ['messages.0', 'messages.0.content:0-1', 'messages.0.content:1-2', 'messages.0.content']],
      ['x', '(0, (-1, 1))', ['messages.1']],
      ['x', '(0, (-1, 1))', ['messages.1']],
    ]);
  });

  it('marks find() matches and reads string literals as the analyzer does (only the own quote unescaped, f-strings not interpolated)', () => {
    assert.deepEqual(ev('raise "x" if:\n    (m: Message)\n    len(find("\\d+", m.content)) == 2\n', [user('a1 b22')]).errors[0][2], ['messages.0', 'messages.0.content:1-2', 'messages.0.content:4-6']);
    assert.deepEqual(ev('raise "x" if:\n    (m: Message)\n    m.content == f"{m.role}"\n', [user('{m.role}')]).errors.length, 1);
  });
});

describe('evaluation: tools, patterns and flow', () => {
  const trace = [user('go'), assistant(null, [call('1', 'send_email', { to: 'a@x.com', n: 3, ok: true, body: 'line1\nline2' }), call('2', 'read')]), output('2', 'r'), output(undefined, 'later')];

  it('matches tool:name as a full regex, and an output through its call (by id, or the last call before it)', () => {
    assert.deepEqual(ev('raise "x" if:\n    (c: ToolCall)\n    c is tool:send_e.*\n', trace).errors.length, 0, 'tool names are identifiers only; a regex needs a pattern string');
    assert.deepEqual(ev('raise "x" if:\n    (o: ToolOutput)\n    o is tool:read\n', trace).errors.map((e) => e[1]), ['(0, (2,))', '(0, (3,))']);
    assert.deepEqual(ev('raise "x" if:\n    (m: Message)\n    m is tool:read\n', trace).errors, []);
  });

  it('matches semantic patterns: regex values (DOTALL), numbers, bools as ints, wildcards', () => {
    const r = (pattern: string) => ev(`raise "x" if:\n    (c: ToolCall)\n    c is tool:send_email(${pattern})\n`, trace).errors.length;
    assert.equal(r('{to: ".*@x\\.com"}'), 1);
    assert.equal(r('{to: "a"}'), 0);
    assert.equal(r('{body: "line1.*"}'), 1);
    assert.equal(r('{n: 3, ok: 1}'), 1);
    assert.equal(r('{n: 4}'), 0);
    assert.equal(r('{to: *, missing: *}'), 0);
  });

  it('orders -> over the linearised trace (a message, then its calls) and ~> by immediate succession', () => {
    const flow = 'raise PolicyViolation("x", a, b) if:\n    (a: Message) -> (b: ToolCall)\n';
    assert.deepEqual(ev(flow, trace).errors.map((e) => e[1]), ['(0, (0, 1))', '(0, (0, 1))', '(0, (1, 1))', '(0, (1, 1))']);
    const next = 'raise PolicyViolation("x", a, b) if:\n    (a: ToolCall) ~> (b: ToolCall)\n';
    assert.deepEqual(ev(next, trace).errors.map((e) => e[2]), [['messages.1.tool_calls.0', 'messages.1.tool_calls.1']]);
  });
});

describe('evaluation: quantifiers, predicates, constants', () => {
  const trace = [user('a'), user('b'), user('c')];

  it('forall, not forall, count with min only (stops at min), count with max', () => {
    assert.equal(ev('from invariant import forall\nraise "x" if:\n    forall:\n        (m: Message)\n        m.role == "user"\n', trace).errors.length, 1);
    assert.equal(ev('from invariant import forall\nraise "x" if:\n    not forall:\n        (m: Message)\n        m.content == "a"\n', trace).errors.length, 1);
    assert.deepEqual(ev('from invariant import count\nraise "x" if:\n    count(min=2):\n        (m: Message)\n        "b" in m.content or "a" in m.content\n', trace).errors, [['x', '(0, ())', ['messages.0', 'messages.0.content:0-1', 'messages.0.content:0-1', 'messages.1', 'messages.1.content:0-1', 'messages.1.content:0-1']]]);
    assert.equal(ev('from invariant import count\nraise "x" if:\n    count(min=1, max=2):\n        (m: Message)\n        m.role == "user"\n', trace).errors.length, 0);
  });

  it('evaluates predicates (true when any assignment of their body holds) and constants where they are used', () => {
    const policy = 'WORD := "b"\nhas(m: Message) := WORD in m.content\nraise "x" if:\n    (m: Message)\n    has(m)\n';
    assert.deepEqual(ev(policy, trace).errors, [['x', '(0, (1,))', ['messages.1', 'messages.1.content:0-1']]]);
  });

  it('evaluates ternaries and reads policy parameters', () => {
    const policy = 'raise "x" if:\n    (m: Message)\n    m.content == (input.word if input.on else "zzz")\n';
    assert.equal(ev(policy, trace, { parameters: { word: 'c', on: true } }).errors.length, 1);
    assert.equal(ev(policy, trace, { parameters: { word: 'c', on: false } }).errors.length, 0);
  });

  it('reports in monitor mode (analyze_pending) only errors that bind a pending event', () => {
    const policy = 'raise PolicyViolation("x", m) if:\n    (m: Message)\n';
    assert.deepEqual(ev(policy, trace, { pendingStart: 2 }).errors.map((e) => e[1]), ['(0, (2,))']);
  });
});

describe('evaluation: builtins and detectors', () => {
  it('text, server, tool_call, json_loads, len, any, empty, match', () => {
    const trace = [
      { role: 'user', content: [{ type: 'text', text: 'hi there' }, { type: 'image_url', image_url: { url: 'http://x' } }], metadata: { server: 'mail' } },
      assistant(null, [call('1', 'f', '{"a": "b"}')]),
      output('1', '{"k": [1, 2]}'),
    ];
    const r = (line: string) => ev(`raise "x" if:\n    (m: Message)\n    (o: ToolOutput)\n    m.role == "user"\n    ${line}\n`, trace).errors.length > 0;
    assert.ok(r('"there" in text(m.content)[0] and server(m) == "mail"'));
    assert.ok(r('tool_call(o).function.arguments.a == "b"'));
    assert.ok(r('json_loads(o.content)["k"] == [1, 2] and o.content.k == [1, 2]'));
    assert.ok(r('len(m.content) == 2 and any([True]) and not empty([1]) and match("h.", text(m.content)[0])'));
  });

  it('secrets, unicode (marks each character), python_code, html_code, links, copyright, fuzzy_contains', () => {
    const imports = 'from invariant.detectors import secrets, unicode, python_code, copyright, fuzzy_contains\nfrom invariant.parsers.html import html_code, links\n';
    const r = (content: string, line: string) => ev(`${imports}raise "x" if:\n    (m: Message)\n    ${line}\n`, [user(content)]);
    assert.equal(r('key ghp_' + 'a'.repeat(36), '"GITHUB_TOKEN" in secrets(m)').errors.length, 1);
    assert.deepEqual(r('a\u200bb', '"Cf" in unicode(m.content, ["Cf"])').errors[0][2], ['messages.0', 'messages.0.content:1-2']);
    assert.equal(r('import os\nos.system("ls")', '"os" in python_code(m.content).imports and "os.system" in python_code(m.content).function_calls').errors.length, 1);
    assert.equal(r('x = eval("1")', '"eval" in python_code(m.content).builtins and not python_code(m.content).syntax_error').errors.length, 1);
    assert.equal(r('  print(1)', 'python_code(m.content).syntax_error').errors.length, 1);
    assert.equal(r('<img alt="hidden"> see https://evil.com/x', '"hidden" in html_code(m).alt_texts and "https://evil.com/x" in links(m)').errors.length, 1);
    assert.equal(r('Copyright (C) 2020 ACME', '"COPYRIGHT" in copyright(m.content)').errors.length, 1);
    assert.deepEqual(r('please ignre the instructions', 'fuzzy_contains(m.content, "ignore", use_semantic=False)').errors[0][2], ['messages.0', 'messages.0.content:7-12']);
  });

  it('html_code reads start tags as before: attributes, quotes, entities, bare values, names with `<`, unclosed tags', () => {
    const policy = 'from invariant.parsers.html import html_code\nraise PolicyViolation("x", links=html_code(m).links, alts=html_code(m).alt_texts) if:\n    (m: Message)\n';
    // The keyword arguments of a violation are written as Python prints them.
    const found = (content: string) => {
      const [error] = evaluateRules(model(policy), [user(content)]).errors;
      return [error.kwargs.links, error.kwargs.alts];
    };
    assert.deepEqual(found('<a href="x">1</a> <A HREF=\'y\' > <img alt="a &amp; b"/> <a href=z/> <a<a href="w"> <a href="q"'), ["['x', 'y', 'z/']", "['a & b']"]);
    assert.deepEqual(found('<a b=x' + '/x'.repeat(12) + ' <a href="after">'), ["['after']", '[]']);
    // The name of the first tag is `a<a<a…`; the second tag is an `a` whose attributes are `<a`, …, `<img` and `alt`.
    assert.deepEqual(found('<a' + '<a'.repeat(50) + ' href="named">' + '<a '.repeat(50) + '<img alt=last> <img alt=own>'), ['[]', "['own']"]);
  });

  it('reports a rule that needs a model-based detector once as not evaluated, and runs the others', () => {
    const policy = 'from invariant.detectors import pii, prompt_injection\nraise "a" if:\n    (m: Message)\n    prompt_injection(m.content)\n\nraise "b" if:\n    (m: Message)\n';
    const r = ev(policy, [user('x'), user('y')]);
    assert.deepEqual(r.notices, ['Rule 1 is not evaluated: it calls prompt_injection, which needs a prompt-injection classifier, which the local evaluator does not run']);
    // Rule 2 needs no variable bound (its message is a plain string), so it fires once.
    assert.deepEqual(r.errors, [['b', '(1, ())', []]]);
  });
});

describe('evaluation: failures and limits', () => {
  it('fails where the analyzer raises, with its cause, located on the rule line', () => {
    const p1 = 'raise "x" if:\n    v := "abc"\n    len(v.replace()) > 0\n';
    assert.equal(ev(p1, []).failure, 'ExcessivePolicyError @33-53: Evaluation failed at line 3 (rule 1): ExcessivePolicyError: Excessive Policy: Unavailable attribute replace for str values.');
    const p2 = 'raise "x" if:\n    (c: ToolCall)\n    c.function.arguments["x"] == 1\n';
    assert.match(ev(p2, [call('1', 'f', {})]).failure!, /KeyError: "Object \{\} has no key x \(type: <class 'dict'>\)"/);
    const p2b = 'raise "x" if:\n    (c: ToolCall)\n    c.function.arguments.x == 1\n';
    assert.match(ev(p2b, [call('1', 'f', {})]).failure!, /Excessive Policy: Unavailable attribute x for dict values/);
    const p3 = 'raise "x" if:\n    (m: Message)\n    match("a", m.content)\n';
    assert.match(ev(p3, [user(null)]).failure!, /TypeError: expected string or bytes-like object, got 'NoneType'/);
    const p4 = 'raise "x" if:\n    (m: Message)\n    m.content == input.missing\n';
    assert.match(ev(p4, [user('a')]).failure!, /^MissingPolicyParameter @35-61: .*'missing' \(policy relies on `input.missing`\)/);
    const p5 = 'raise "x" if:\n    (m: Message)\n    m.secret == 1\n';
    assert.match(ev(p5, [user('a')]).failure!, /Invariant Attribute Error: Attribute secret not found in Message/);
  });

  it('refuses rules the official loader rejects, and reads detectors through module imports', () => {
    assert.match(ev('raise "x" if:\n    (m: Mesage)\n', [user('a')]).failure!, /^PolicyLoadingError @19-28: The rules cannot be loaded: Failed to resolve type Mesage/);
    const policy = 'import invariant.detectors as d\nraise "x" if:\n    (m: Message)\n    "GITHUB_TOKEN" in d.secrets(m.content)\n';
    assert.equal(ev(policy, [user('ghp_' + 'b'.repeat(36))]).errors.length, 1);
  });

  it('has no 100-evaluation cap, but stops a rule at the work budget with a notice', () => {
    const policy = 'raise "x" if:\n    (a: Message)\n    (b: Message)\n    a.content == b.content\n';
    const trace = Array.from({ length: 20 }, (_, i) => user(String(i)));
    assert.equal(ev(policy, trace).errors.length, 20);
    const limited = ev(policy, trace, { budget: 50 });
    assert.deepEqual(limited.errors, []);
    assert.deepEqual(limited.notices, ['Rule 1 stopped after 50 steps (the work budget); its violations are not reported']);
  });

  it('stops a rule at the error limit when asked, keeping the errors found before it, and says so only when some were left out', () => {
    const policy = 'raise "x" if:\n    (a: Message)\n    (b: Message)\n    a.content == b.content\n\nraise "y" if:\n    (m: Message)\n';
    const trace = Array.from({ length: 5 }, (_, i) => user(String(i)));
    const limited = ev(policy, trace, { maxErrors: 3 });
    assert.deepEqual(limited.errors.map((e) => `${e[0]} ${e[1]}`), ['x (0, (0, 0))', 'x (0, (1, 1))', 'x (0, (2, 2))', 'y (1, ())']);
    assert.deepEqual(limited.notices, ['Rule 1 found more than 3 violations (the limit): it stopped there and reports those']);
    assert.ok(limited.work < 25, `stopped early: ${limited.work} evaluations`);
    const exact = ev(policy, trace, { maxErrors: 5 });
    assert.deepEqual([exact.errors.length, exact.notices], [6, []]);
  });

  it('marks each character the unicode detector reports as a range of its own, code points counted', () => {
    const policy = 'from invariant.detectors import unicode\n\nraise PolicyViolation("odd", m) if:\n    (m: Message)\n    "So" in unicode(m.content, ["So", "Sm"])\n';
    const r = ev(policy, [user('a😀b+😀')]);
    assert.deepEqual(r.errors, [['odd', '(0, (0,))', ['messages.0', 'messages.0.content:1-2', 'messages.0.content:3-4', 'messages.0.content:4-5']]]);
    const placed = evaluateRules(model(policy), [user('a😀b+😀')]).errors[0].placeRanges();
    assert.deepEqual(placed, ['messages.0', 'messages.0.content:1-2', 'messages.0.content:3-4'], 'a run of characters is placed by its first');
  });

  it('does not enumerate every pair when the leading conditions relate the variables by flow, tool name or a one-variable test', () => {
    const trace: unknown[] = [];
    for (let i = 0; i < 600; i++) {
      trace.push(assistant(null, [call(`c${i}`, i % 2 ? 'get_inbox' : 'send_email', { to: `u${i}` })]));
      trace.push(output(`c${i}`, i === 301 ? 'SECRET' : 'ok'));
    }
    const policy = 'raise PolicyViolation("x", out, c) if:\n    (out: ToolOutput) -> (c: ToolCall)\n    out is tool:get_inbox\n    c is tool:send_email\n    "SECRET" in out.content\n';
    const r = ev(policy, trace);
    // The inbox output with the secret (call 301) comes before the send_email calls 302, 304, ..., 598.
    assert.equal(r.errors.length, 149);
    assert.ok(r.work < 200, `work ${r.work}`);
    const policy2 = policy.replace('"SECRET" in out.content', '"ok" in out.content and c.function.arguments.to == "u598"');
    const r2 = ev(policy2, trace);
    assert.equal(r2.errors.length, 298);
    // 300 inbox outputs x 300 send_email calls would be 90,000 assignments; the ordered pairs of those are 45,000.
    assert.ok(r2.work < 46_000, `work ${r2.work}`);
    const next = ev('raise PolicyViolation("x", c, out) if:\n    (c: ToolCall) ~> (out: ToolOutput)\n    c is tool:get_inbox\n', trace);
    assert.equal(next.errors.length, 300);
    assert.ok(next.work <= 301, `work ${next.work}`);
  });

  it('translates Python regex rules: $ before a final newline, \\Z, named groups', () => {
    const r = (pattern: string, text: string) => ev(`raise "x" if:\n    (m: Message)\n    match("${pattern}", m.content)\n`, [user(text)]).errors.length;
    assert.equal(r('ab$', 'ab\n'), 1);
    assert.equal(r('ab\\\\Z', 'ab\n'), 0);
    assert.equal(r('(?P<w>a)(?P=w)', 'aa'), 1);
    assert.equal(r('(?i)AB', 'ab'), 1);
  });
});

describe('evaluation: ranges in the trace file', () => {
  it('maps official addresses to source spans through escapes, code points and JSON encoded in arguments strings', () => {
    const text = '[{"role": "user", "content": "\\u00e9\\"😀 evil"},\n {"role": "assistant", "content": null, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "send", "arguments": "{\\"to\\": \\"x@evil.com\\"}"}}]}]';
    const trace = JSON.parse(text);
    const policy = 'raise "x" if:\n    (m: Message)\n    "evil" in m.content\n\nraise PolicyViolation("y", c) if:\n    (c: ToolCall)\n    "evil" in c.function.arguments.to\n';
    const result = evaluateRules(model(policy), trace);
    const spanOf = traceSpans(text, 0, text.length);
    const shown = result.errors.map((e) => e.ranges.map((r) => `${r} => ${JSON.stringify(text.slice(spanOf(r).start, spanOf(r).end))}`));
    assert.deepEqual(shown, [
      ['messages.0 => "{\\"role\\": \\"user\\", \\"content\\": \\"\\\\u00e9\\\\\\"😀 evil\\"}"', 'messages.0.content:4-8 => "evil"'],
      ['messages.1.tool_calls.0 => ' + JSON.stringify(text.slice(text.indexOf('{"id"'), text.indexOf('}}]') + 2)), 'messages.1.tool_calls.0.function.arguments.to:2-6 => "evil"'],
    ]);
    // A field the analyzer adds (metadata.trace_idx) is not in the file: its nearest enclosing value stands for it.
    assert.equal(text.slice(spanOf('messages.0.metadata.trace_idx').start, spanOf('messages.0.metadata.trace_idx').end), text.slice(1, text.indexOf('},') + 1));
  });
});
