import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Expr, Statement } from '../../../server/src/guardrail/ast';
import { lex } from '../../../server/src/guardrail/lexer';
import { describe, model, problems } from './helpers';

function firstRule(text: string): Extract<Statement, { kind: 'rule' }> {
  const rule = model(text).program.statements.find((s) => s.kind === 'rule');
  assert.ok(rule && rule.kind === 'rule');
  return rule;
}

/** A compact rendering of an expression tree, to check precedence. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'name': return e.name;
    case 'string': return JSON.stringify(e.value);
    case 'number': return String(e.value);
    case 'bool': return String(e.value);
    case 'none': return 'None';
    case 'binary': return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'unary': return `(${e.op} ${show(e.operand)})`;
    case 'ternary': return `(${show(e.then)} if ${show(e.condition)} else ${show(e.otherwise)})`;
    case 'member': return `${show(e.object)}.${e.member.name}`;
    case 'index': return `${show(e.object)}[${show(e.index)}]`;
    case 'call': return `${show(e.callee)}(${[...e.args.map(show), ...e.kwargs.map((k) => `${k.name.name}=${show(k.value)}`)].join(', ')})`;
    case 'typed': return `(${e.variable.name}: ${e.type.name})`;
    case 'tool': return `tool:${e.toolName.name}${e.args ? `(${e.args.map(show).join(', ')})` : ''}`;
    case 'assign': return `${e.target.name} := ${show(e.value)}`;
    case 'list': return `[${e.items.map(show).join(', ')}]`;
    case 'tuple': return `tuple(${e.items.map(show).join(', ')})`;
    case 'object': return `{${e.entries.map((x) => `${x.key}: ${show(x.value)}`).join(', ')}}`;
    case 'comprehension': return `[${show(e.element)} for ${e.variable.name} in ${show(e.iterable)}${e.condition ? ` if ${show(e.condition)}` : ''}]`;
    case 'quantifier': return `${e.negated ? 'not ' : ''}${show(e.head)}: {${e.body.map(show).join('; ')}}`;
    case 'wildcard': return '*';
    case 'valueRef': return `<${e.name}>`;
    default: return e.kind;
  }
}

function body(text: string): string[] {
  return firstRule(text).body.map(show);
}

test('precedence: unary not binds tightest, then ** * + comparisons, and/or lowest; ternary below all', () => {
  assert.deepEqual(body('raise "x" if:\n    not "a" in x\n    a or b and c == d + e * f ** g\n    -a ** 2\n    x is not None\n    1 if a and b else 2\n'), [
    '((not "a") in x)',
    '((a or b) and (c == (d + (e * (f ** g)))))',
    '((- a) ** 2)',
    '(x is (not None))',
    '(1 if (a and b) else 2)',
  ]);
});

test('typed variables, flows, iteration, assignments, calls with keyword arguments, member and key access', () => {
  assert.deepEqual(body('raise "x" if:\n    (call: ToolCall) -> (out: ToolOutput)\n    (a: Message) ~> (b: Message)\n    (l: str) in m.content.splitlines()\n    v := f(1, "s", k=True)["key"].attr\n    x contains_only [1, 2]\n'), [
    '((call: ToolCall) -> (out: ToolOutput))',
    '((a: Message) ~> (b: Message))',
    '((l: str) in m.content.splitlines())',
    'v := f(1, "s", k=true)["key"].attr',
    '(x contains_only [1, 2])',
  ]);
});

test('literals: tuples, lists, comprehensions, objects, numbers, None, strings with prefixes and triple quotes', () => {
  assert.deepEqual(body('raise "x" if:\n    t := (1, 2.5, None)\n    c := [w for w in ws if w]\n    o := {key: 1, "quoted key": [True, False]}\n    s := r"\\d+" + f\'a\\\'b\' + """x\ny"""\n'), [
    't := tuple(1, 2.5, None)',
    'c := [w for w in ws if w]',
    'o := {key: 1, quoted key: [true, false]}',
    's := (("\\\\d+" + "a\'b") + "x\\ny")',
  ]);
});

test('tool references and semantic patterns', () => {
  assert.deepEqual(body('raise "x" if:\n    c is tool:send_email\n    c is tool:search({q: <EMAIL_ADDRESS>, n: *}, *)\n    c is tool:sql_query()\n'), [
    '(c is tool:send_email)',
    '(c is tool:search({q: <EMAIL_ADDRESS>, n: *}, *))',
    '(c is tool:sql_query())',
  ]);
  // `tool` is also an ordinary variable name.
  assert.deepEqual(describe('raise "x" if:\n    (tool: Tool)\n    "a" in tool.description\n'), []);
  assert.deepEqual(describe('raise "x" if:\n    (c: ToolCall)\n    c is tool:send.*\n'), [
    'error gr/syntax 3:20-3:21 A tool pattern names one tool (tool:name); to match several tools compare call.function.name with match(...)',
  ]);
});

test('quantifier blocks, negated or not, nest their bodies', () => {
  assert.deepEqual(body('from invariant import count, forall\nraise "x" if:\n    count(min=2, max=4):\n        (c: ToolCall)\n        c is tool:a\n    not forall:\n        (m: Message)\n'), [
    'count(min=2, max=4): {(c: ToolCall); (c is tool:a)}',
    'not forall: {(m: Message)}',
  ]);
});

test('expressions continue on the next line after an operator, or before one', () => {
  // (a continuation line shallower than the block puts a DEDENT inside the brackets: see indentation.test.ts)
  assert.deepEqual(body('raise "x" if:\n    a or\n    b\n    c\n        and d\n    f(1,\n        2)\n'), ['(a or b)', '(c and d)', 'f(1, 2)']);
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)\n    "a" in m.content or\n    (p: ToolParameter) in m.content\n'), []);
});

test('indentation: common indentation removed, unit is the smallest indent, tabs count as one character', () => {
  assert.deepEqual(describe('    raise "x" if:\n        (m: Message)\n        m.role == "a"\n'), []);
  assert.deepEqual(describe('raise "x" if:\n\t(m: Message)\n\tm.role == "a"\n'), []);
  assert.equal(lex('a := 1\nraise "x" if:\n   (m: Message)\n      m\n').indentUnit, 3);
  // Blocks open only after ':' or ':=': a deeper line after anything else is tolerated.
  assert.deepEqual(describe('x := 1\n    y := 2\n'), []);
  assert.deepEqual(model('x := 1\n    y := 2\n').program.statements.map((s) => s.kind), ['constant', 'constant']);
  // Declarations take a one-line value or an indented block after ':=' or ':'.
  assert.deepEqual(describe('a :=\n    1 + 2\nb:\n    True\np(m: Message):\n    m.role == "user"\n'), []);
});

test('syntax errors: one-line body, comment after if:, not in, lambda, dict comprehension, semicolon, keyword order', () => {
  assert.deepEqual(describe("raise 'custom error' if: (msg: Message)\n"), [
    "error gr/syntax 1:24-1:25 A rule's conditions go on the lines after 'if:', indented (a one-line rule body is not allowed)",
  ]);
  assert.deepEqual(describe('raise "x" if: # why\n    (m: Message)\n'), [
    "error gr/syntax 1:13-1:14 A comment after ':' hides it from the parser, so the indented block below does not open: move the comment to its own line",
  ]);
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)\n    "a" not in m.content\n    f := lambda x: x\n    {k: v for k in m}\n    a == 1; b == 2\n    print(a=1, m)\n    illegal statement\n'), [
    "error gr/syntax 3:9-3:15 'not in' is not part of the rule language: write not (a in b)",
    'error gr/syntax 4:10-4:16 Lambdas are not part of the rule language: declare a predicate instead',
    'error gr/syntax 5:11-5:14 Dictionary comprehensions are not part of the rule language',
    "error gr/syntax 6:11-6:12 ';' is not part of the rule language: put each condition on its own line",
    "error gr/syntax 6:13-6:14 Unexpected 'b': expected an operator or the end of the line",
    'error gr/syntax 7:16-7:17 A positional argument cannot follow a keyword argument',
    "error gr/syntax 8:13-8:22 Unexpected 'statement': expected an operator or the end of the line",
  ]);
});

test("'not' needs a space before a bracket, as the official parser reads 'not(' as a function call", () => {
  assert.deepEqual(describe('raise "x" if:\n    (m: Message)\n    not(m.role == "a")\n    not ("b" in m.content)\n'), [
    "error gr/syntax 3:5-3:9 Write a space after 'not': the official parser reads 'not(' as a call of a function named 'not'",
  ]);
});

test('recovery: several independent errors in one file are all reported, names after them still resolve', () => {
  const text = [
    'raise "first" if:',
    '    (m: Message)',
    '    m.role ==',
    '',
    'raise "second" if:',
    '    (c: ToolCall)',
    '    foo(c.function.name,',
    '    (o: ToolOutput)',
    '    o.content == undefined_name',
    '',
    'what is this',
    '',
    'raise "third" if:',
    '    (x: Message)',
    '    x.role == "user" )',
    '    x.content == "a"',
  ].join('\n');
  assert.deepEqual(describe(text), [
    "error gr/syntax 3:14-3:14 Expected an expression after '==' but found the end of the line",
    "error gr/syntax 7:8-7:9 '(' is never closed: add ')'",
    'error gr/unknown-identifier 9:18-9:32 Failed to resolve identifier undefined_name',
    "error gr/syntax 11:1-11:5 Unexpected 'what': expected a rule (raise \"…\" if:), a declaration (name := …) or an import",
    "error gr/syntax 15:22-15:23 Unexpected ')': expected an operator or the end of the line",
  ]);
});

test('half-typed rules never throw, whatever the cut', () => {
  const full = 'from invariant.detectors import pii\n\nraise PolicyViolation("leak", call=call) if:\n    (out: ToolOutput) -> (call: ToolCall)\n    call is tool:send_email({to: "x", body: *})\n    any([p in out.content for p in pii(out)]) or not (call.function.name in ["a"])\n    count(min=2):\n        (m: Message)\n';
  for (let i = 0; i <= full.length; i++) {
    const text = full.slice(0, i);
    assert.doesNotThrow(() => problems(text), `cut at ${i}`);
  }
});

test('huge, deeply nested and binary input neither throws nor hangs', () => {
  const binary = Array.from({ length: 200_000 }, (_, i) => String.fromCharCode((i * 7919) % 256)).join('');
  const list = problems(binary);
  assert.ok(list.length > 0 && list.length <= 1001);
  const nested = 'x := ' + '('.repeat(50_000) + '1' + ')'.repeat(50_000) + '\n';
  assert.deepEqual(describe(nested).map((d) => d.split(' ').slice(0, 3).join(' ')), ['error gr/too-deep 1:126-1:127']);
  const long = 'raise "x" if:\n    (m: Message)\n' + '    m.role == "user" and "a" in m.content\n'.repeat(20_000);
  assert.deepEqual(problems(long), []);
  const unclosed = 'raise "x" if:\n    (m: Message)\n    f(' + '\n    m,'.repeat(5_000) + '\n';
  assert.deepEqual(describe(unclosed), ["error gr/syntax 3:6-3:7 '(' is never closed: add ')'"]);
});

test('pathological input gets one clear problem instead of exhausting the stack', () => {
  const first = (text: string) => problems(text)[0]?.message;
  assert.equal(first(Array.from({ length: 3000 }, (_, i) => ' '.repeat(i) + 'x:').join('\n')), 'Blocks are nested too deeply to check');
  assert.equal(first(Array.from({ length: 3000 }, (_, i) => ' '.repeat(i) + 'def x():').join('\n')), 'Blocks are nested too deeply to check');
  assert.equal(first('x := ' + '1 + '.repeat(50_000) + '1\n'), 'This line has too many operators to check');
  assert.equal(first('x := ' + 'not '.repeat(50_000) + 'True\n'), 'Expression nested deeper than 120 levels: the rest of this line is not checked');
  assert.equal(first('x := (\n'.repeat(5_000)), "'(' is never closed: add ')'");
  assert.equal(problems('{{ A }}\n'.repeat(2_000)).length, 1001);
});

test('a missing comma inside a multi-line literal is not mistaken for an unclosed bracket', () => {
  assert.deepEqual(describe('x := {\n    "a": 1\n    "b": 2\n}\n'), ['error gr/syntax 3:5-3:8 Expected \',\' or \'}\' but found string "b"']);
});

test('strings: unterminated strings are reported on their line, escaped quotes stay inside', () => {
  assert.deepEqual(describe('a := "abc\nb := \'it\\\'s\'\nc := """never closed\n'), [
    'error gr/syntax 1:6-1:10 Unterminated string: add the closing " on the same line',
    'error gr/syntax 3:6-3:9 Unterminated triple-quoted string: add the closing """',
  ]);
});

test('Windows line endings and a byte-order mark are accepted', () => {
  // (the comment is not on the block's last line: there the official parser loses the end of the block, see indentation.test.ts)
  assert.deepEqual(describe('\ufeffraise "x" if:\r\n    (m: Message) # note\r\n    m.role == "a"\r\n\r\nA := 1\r\n'), []);
  assert.deepEqual(describe('raise "x" if:\r\n    (m: Message)\r\n    m.role ==\r\n'), ["error gr/syntax 3:14-3:14 Expected an expression after '==' but found the end of the line"]);
});

test('an empty file or a file of comments is valid', () => {
  assert.deepEqual(problems(''), []);
  assert.deepEqual(problems('# only\n\n   # comments\n'), []);
});
