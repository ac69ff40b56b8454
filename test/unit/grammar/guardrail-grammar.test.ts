import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { significantTokens, stackDepth, tokenize } from './tokenize';

const GR = 'source.guardrail';

async function lineTokens(line: string): Promise<Array<[string, string]>> {
  const lines = await tokenize(GR, line);
  return significantTokens(lines[0]);
}

test('guardrail: the grammar root scope is source.guardrail', async () => {
  const [line] = await tokenize(GR, 'x');
  assert.deepEqual(line.tokens[0].scopes, ['source.guardrail', 'variable.other.guardrail']);
});

test('guardrail: from … import … as …', async () => {
  assert.deepEqual(await lineTokens('from invariant.detectors import prompt_injection, pii as detect_pii'), [
    ['from', 'keyword.control.import.guardrail'],
    ['invariant.detectors', 'entity.name.namespace.guardrail'],
    ['import', 'keyword.control.import.guardrail'],
    ['prompt_injection', 'support.function.library.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['pii', 'support.function.library.guardrail'],
    ['as', 'keyword.control.import.guardrail'],
    ['detect_pii', 'variable.other.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('import invariant.files'), [
    ['import', 'keyword.control.import.guardrail'],
    ['invariant.files', 'entity.name.namespace.guardrail'],
  ]);
});

test('guardrail: raise with an error class, keyword arguments and if:', async () => {
  assert.deepEqual(await lineTokens('raise PolicyViolation("leak", call=c) if:'), [
    ['raise', 'keyword.control.flow.guardrail'],
    ['PolicyViolation', 'support.class.error.guardrail'],
    ['(', 'punctuation.parenthesis.begin.guardrail'],
    ['"', 'string.quoted.double.guardrail punctuation.definition.string.begin.guardrail'],
    ['leak', 'string.quoted.double.guardrail'],
    ['"', 'string.quoted.double.guardrail punctuation.definition.string.end.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['call', 'variable.parameter.function-call.guardrail'],
    ['=', 'keyword.operator.assignment.guardrail'],
    ['c', 'variable.other.guardrail'],
    [')', 'punctuation.parenthesis.end.guardrail'],
    ['if', 'keyword.control.flow.guardrail'],
    [':', 'punctuation.separator.colon.guardrail'],
  ]);
});

test('guardrail: error classes and types usable after raise', async () => {
  for (const name of ['PolicyViolation', 'Violation', 'UpdateMessage', 'UpdateMessageHandler', 'AccessDenied']) {
    assert.deepEqual(await lineTokens(`raise ${name}`), [
      ['raise', 'keyword.control.flow.guardrail'],
      [name, 'support.class.error.guardrail'],
    ]);
  }
  for (const name of ['Event', 'Message', 'ToolCall', 'Function', 'ToolOutput', 'TextChunk', 'Image', 'Tool', 'ToolParameter', 'LLM', 'Input']) {
    assert.deepEqual(await lineTokens(`import ${name}`).then((tokens) => tokens[1]), [name, 'entity.name.namespace.guardrail']);
    assert.deepEqual(await lineTokens(`x := ${name}`).then((tokens) => tokens[2]), [name, 'support.class.guardrail']);
  }
  assert.deepEqual(await lineTokens('x := str').then((tokens) => tokens[2]), ['str', 'support.type.guardrail']);
});

test('guardrail: typed variables scope the variable as a parameter and the type as entity.name.type', async () => {
  assert.deepEqual(await lineTokens('    (c: ToolCall) ~> (out : ToolOutput)'), [
    ['(', 'meta.typed-variable.guardrail punctuation.parenthesis.begin.guardrail'],
    ['c', 'meta.typed-variable.guardrail variable.parameter.guardrail'],
    [':', 'meta.typed-variable.guardrail punctuation.separator.annotation.guardrail'],
    ['ToolCall', 'meta.typed-variable.guardrail entity.name.type.guardrail'],
    [')', 'meta.typed-variable.guardrail punctuation.parenthesis.end.guardrail'],
    ['~>', 'keyword.operator.flow.guardrail'],
    ['(', 'meta.typed-variable.guardrail punctuation.parenthesis.begin.guardrail'],
    ['out', 'meta.typed-variable.guardrail variable.parameter.guardrail'],
    [':', 'meta.typed-variable.guardrail punctuation.separator.annotation.guardrail'],
    ['ToolOutput', 'meta.typed-variable.guardrail entity.name.type.guardrail'],
    [')', 'meta.typed-variable.guardrail punctuation.parenthesis.end.guardrail'],
  ]);
  // A variable may be called `tool`: with a space after the colon it is a typed variable, not a tool reference.
  assert.deepEqual((await lineTokens('(tool: Tool)')).slice(1, 4), [
    ['tool', 'meta.typed-variable.guardrail variable.parameter.guardrail'],
    [':', 'meta.typed-variable.guardrail punctuation.separator.annotation.guardrail'],
    ['Tool', 'meta.typed-variable.guardrail entity.name.type.guardrail'],
  ]);
  // Unknown types are still types in this position.
  assert.deepEqual((await lineTokens('(issue: CustomIssue) in res'))[3], ['CustomIssue', 'meta.typed-variable.guardrail entity.name.type.guardrail']);
});

test('guardrail: tool:name references', async () => {
  assert.deepEqual(await lineTokens('call is tool:get_inbox'), [
    ['call', 'variable.other.guardrail'],
    ['is', 'keyword.operator.wordlike.guardrail'],
    ['tool', 'meta.tool-reference.guardrail keyword.other.tool.guardrail'],
    [':', 'meta.tool-reference.guardrail punctuation.separator.tool.guardrail'],
    ['get_inbox', 'meta.tool-reference.guardrail entity.name.function.tool.guardrail'],
  ]);
});

test('guardrail: tool:name( patterns with value references and wildcards', async () => {
  assert.deepEqual(await lineTokens('c is tool:send_email({to: <EMAIL_ADDRESS>, "cc": *}, *)'), [
    ['c', 'variable.other.guardrail'],
    ['is', 'keyword.operator.wordlike.guardrail'],
    ['tool', 'meta.tool-pattern.guardrail keyword.other.tool.guardrail'],
    [':', 'meta.tool-pattern.guardrail punctuation.separator.tool.guardrail'],
    ['send_email', 'meta.tool-pattern.guardrail entity.name.function.tool.guardrail'],
    ['(', 'meta.tool-pattern.guardrail punctuation.definition.arguments.begin.guardrail'],
    ['{', 'meta.tool-pattern.guardrail punctuation.definition.dict.begin.guardrail'],
    ['to', 'meta.tool-pattern.guardrail support.type.property-name.guardrail'],
    [':', 'meta.tool-pattern.guardrail punctuation.separator.colon.guardrail'],
    ['<', 'meta.tool-pattern.guardrail constant.language.value-reference.guardrail punctuation.definition.value-reference.begin.guardrail'],
    ['EMAIL_ADDRESS', 'meta.tool-pattern.guardrail constant.language.value-reference.guardrail'],
    ['>', 'meta.tool-pattern.guardrail constant.language.value-reference.guardrail punctuation.definition.value-reference.end.guardrail'],
    [',', 'meta.tool-pattern.guardrail punctuation.separator.comma.guardrail'],
    ['"', 'meta.tool-pattern.guardrail string.quoted.double.guardrail punctuation.definition.string.begin.guardrail'],
    ['cc', 'meta.tool-pattern.guardrail string.quoted.double.guardrail'],
    ['"', 'meta.tool-pattern.guardrail string.quoted.double.guardrail punctuation.definition.string.end.guardrail'],
    [':', 'meta.tool-pattern.guardrail punctuation.separator.colon.guardrail'],
    ['*', 'meta.tool-pattern.guardrail constant.language.wildcard.guardrail'],
    ['}', 'meta.tool-pattern.guardrail punctuation.definition.dict.end.guardrail'],
    [',', 'meta.tool-pattern.guardrail punctuation.separator.comma.guardrail'],
    ['*', 'meta.tool-pattern.guardrail constant.language.wildcard.guardrail'],
    [')', 'meta.tool-pattern.guardrail punctuation.definition.arguments.end.guardrail'],
  ]);
});

test('guardrail: a multi-line tool pattern closes and the next line is back at the root', async () => {
  const lines = await tokenize(GR, ['    call is tool:search_web({', '        q: <PERSON>', '    })', '    x'].join('\n'));
  assert.deepEqual(significantTokens(lines[1]), [
    ['q', 'meta.tool-pattern.guardrail support.type.property-name.guardrail'],
    [':', 'meta.tool-pattern.guardrail punctuation.separator.colon.guardrail'],
    ['<', 'meta.tool-pattern.guardrail constant.language.value-reference.guardrail punctuation.definition.value-reference.begin.guardrail'],
    ['PERSON', 'meta.tool-pattern.guardrail constant.language.value-reference.guardrail'],
    ['>', 'meta.tool-pattern.guardrail constant.language.value-reference.guardrail punctuation.definition.value-reference.end.guardrail'],
  ]);
  assert.equal(stackDepth(lines[2].endState), 1);
  assert.deepEqual(significantTokens(lines[3]), [['x', 'variable.other.guardrail']]);
});

test('guardrail: outside a tool pattern * is multiplication and <X> is two comparisons', async () => {
  assert.deepEqual(await lineTokens('a * b < C > d'), [
    ['a', 'variable.other.guardrail'],
    ['*', 'keyword.operator.arithmetic.guardrail'],
    ['b', 'variable.other.guardrail'],
    ['<', 'keyword.operator.comparison.guardrail'],
    ['C', 'variable.other.constant.guardrail'],
    ['>', 'keyword.operator.comparison.guardrail'],
    ['d', 'variable.other.guardrail'],
  ]);
});

test('guardrail: operators', async () => {
  assert.deepEqual(await lineTokens('a -> b ~> c == d != e <= f >= g < h > i + j - k * l / m % n ** o'), [
    ['a', 'variable.other.guardrail'],
    ['->', 'keyword.operator.flow.guardrail'],
    ['b', 'variable.other.guardrail'],
    ['~>', 'keyword.operator.flow.guardrail'],
    ['c', 'variable.other.guardrail'],
    ['==', 'keyword.operator.comparison.guardrail'],
    ['d', 'variable.other.guardrail'],
    ['!=', 'keyword.operator.comparison.guardrail'],
    ['e', 'variable.other.guardrail'],
    ['<=', 'keyword.operator.comparison.guardrail'],
    ['f', 'variable.other.guardrail'],
    ['>=', 'keyword.operator.comparison.guardrail'],
    ['g', 'variable.other.guardrail'],
    ['<', 'keyword.operator.comparison.guardrail'],
    ['h', 'variable.other.guardrail'],
    ['>', 'keyword.operator.comparison.guardrail'],
    ['i', 'variable.other.guardrail'],
    ['+', 'keyword.operator.arithmetic.guardrail'],
    ['j', 'variable.other.guardrail'],
    ['-', 'keyword.operator.arithmetic.guardrail'],
    ['k', 'variable.other.guardrail'],
    ['*', 'keyword.operator.arithmetic.guardrail'],
    ['l', 'variable.other.guardrail'],
    ['/', 'keyword.operator.arithmetic.guardrail'],
    ['m', 'variable.other.guardrail'],
    ['%', 'keyword.operator.arithmetic.guardrail'],
    ['n', 'variable.other.guardrail'],
    ['**', 'keyword.operator.arithmetic.guardrail'],
    ['o', 'variable.other.guardrail'],
  ]);
});

test('guardrail: word operators, constants, comprehensions and the ternary', async () => {
  assert.deepEqual(await lineTokens('not a and b or c is None in d contains_only e'), [
    ['not', 'keyword.operator.wordlike.guardrail'],
    ['a', 'variable.other.guardrail'],
    ['and', 'keyword.operator.wordlike.guardrail'],
    ['b', 'variable.other.guardrail'],
    ['or', 'keyword.operator.wordlike.guardrail'],
    ['c', 'variable.other.guardrail'],
    ['is', 'keyword.operator.wordlike.guardrail'],
    ['None', 'constant.language.guardrail'],
    ['in', 'keyword.operator.wordlike.guardrail'],
    ['d', 'variable.other.guardrail'],
    ['contains_only', 'keyword.operator.wordlike.guardrail'],
    ['e', 'variable.other.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('any([w for w in ws if True]) if False else x'), [
    ['any', 'support.function.builtin.guardrail'],
    ['(', 'punctuation.parenthesis.begin.guardrail'],
    ['[', 'punctuation.definition.list.begin.guardrail'],
    ['w', 'variable.other.guardrail'],
    ['for', 'keyword.control.flow.guardrail'],
    ['w', 'variable.other.guardrail'],
    ['in', 'keyword.operator.wordlike.guardrail'],
    ['ws', 'variable.other.guardrail'],
    ['if', 'keyword.control.flow.guardrail'],
    ['True', 'constant.language.guardrail'],
    [']', 'punctuation.definition.list.end.guardrail'],
    [')', 'punctuation.parenthesis.end.guardrail'],
    ['if', 'keyword.control.flow.guardrail'],
    ['False', 'constant.language.guardrail'],
    ['else', 'keyword.control.flow.guardrail'],
    ['x', 'variable.other.guardrail'],
  ]);
  // Keywords are whole words only.
  assert.deepEqual(await lineTokens('android or_else'), [
    ['android', 'variable.other.guardrail'],
    ['or_else', 'variable.other.guardrail'],
  ]);
});

test('guardrail: declarations and predicate heads', async () => {
  assert.deepEqual(await lineTokens('THRESHOLD := 0.75'), [
    ['THRESHOLD', 'variable.other.declaration.guardrail'],
    [':=', 'keyword.operator.assignment.guardrail'],
    ['0.75', 'constant.numeric.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('    lines := msg.content.splitlines()'), [
    ['lines', 'variable.other.declaration.guardrail'],
    [':=', 'keyword.operator.assignment.guardrail'],
    ['msg', 'variable.other.guardrail'],
    ['.', 'punctuation.accessor.guardrail'],
    ['content', 'variable.other.property.guardrail'],
    ['.', 'punctuation.accessor.guardrail'],
    ['splitlines', 'entity.name.function.member.guardrail'],
    ['(', 'punctuation.parenthesis.begin.guardrail'],
    [')', 'punctuation.parenthesis.end.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('has_link(m: Message, limit: int) :=  # heads'), [
    ['has_link', 'meta.function.predicate.guardrail entity.name.function.guardrail'],
    ['(', 'meta.function.predicate.guardrail punctuation.definition.parameters.begin.guardrail'],
    ['m', 'meta.function.predicate.guardrail variable.parameter.guardrail'],
    [':', 'meta.function.predicate.guardrail punctuation.separator.annotation.guardrail'],
    ['Message', 'meta.function.predicate.guardrail entity.name.type.guardrail'],
    [',', 'meta.function.predicate.guardrail punctuation.separator.parameters.guardrail'],
    ['limit', 'meta.function.predicate.guardrail variable.parameter.guardrail'],
    [':', 'meta.function.predicate.guardrail punctuation.separator.annotation.guardrail'],
    ['int', 'meta.function.predicate.guardrail entity.name.type.guardrail'],
    [')', 'meta.function.predicate.guardrail punctuation.definition.parameters.end.guardrail'],
    [':=', 'keyword.operator.assignment.guardrail'],
    ['#', 'comment.line.number-sign.guardrail punctuation.definition.comment.guardrail'],
    [' heads', 'comment.line.number-sign.guardrail'],
  ]);
  // The block form `name(p: T):` at the start of a line.
  assert.deepEqual((await lineTokens('is_admin(u: dict):')).slice(0, 2), [
    ['is_admin', 'meta.function.predicate.guardrail entity.name.function.guardrail'],
    ['(', 'meta.function.predicate.guardrail punctuation.definition.parameters.begin.guardrail'],
  ]);
  // A call followed by a comparison is not a head.
  assert.deepEqual((await lineTokens('is_admin(u) == x'))[0], ['is_admin', 'entity.name.function.call.guardrail']);
  // A quantifier block in a rule body is a call, not a predicate head.
  assert.deepEqual(await lineTokens('    count(min=2, max=4):'), [
    ['count', 'support.function.library.guardrail'],
    ['(', 'punctuation.parenthesis.begin.guardrail'],
    ['min', 'variable.parameter.function-call.guardrail'],
    ['=', 'keyword.operator.assignment.guardrail'],
    ['2', 'constant.numeric.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['max', 'variable.parameter.function-call.guardrail'],
    ['=', 'keyword.operator.assignment.guardrail'],
    ['4', 'constant.numeric.guardrail'],
    [')', 'punctuation.parenthesis.end.guardrail'],
    [':', 'punctuation.separator.colon.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('def FilterPII():'), [
    ['def', 'storage.type.function.guardrail'],
    ['FilterPII', 'entity.name.function.guardrail'],
    ['(', 'punctuation.parenthesis.begin.guardrail'],
    [')', 'punctuation.parenthesis.end.guardrail'],
    [':', 'punctuation.separator.colon.guardrail'],
  ]);
});

test('guardrail: r and f prefixes, escapes, and # inside strings', async () => {
  assert.deepEqual(await lineTokens(`x := r"\\d{4}#no" + f'{y}\\'' + "a\\"b"`), [
    ['x', 'variable.other.declaration.guardrail'],
    [':=', 'keyword.operator.assignment.guardrail'],
    ['r', 'string.quoted.double.guardrail storage.type.string.guardrail'],
    ['"', 'string.quoted.double.guardrail punctuation.definition.string.begin.guardrail'],
    ['\\d', 'string.quoted.double.guardrail constant.character.escape.guardrail'],
    ['{4}#no', 'string.quoted.double.guardrail'],
    ['"', 'string.quoted.double.guardrail punctuation.definition.string.end.guardrail'],
    ['+', 'keyword.operator.arithmetic.guardrail'],
    ['f', 'string.quoted.single.guardrail storage.type.string.guardrail'],
    ["'", 'string.quoted.single.guardrail punctuation.definition.string.begin.guardrail'],
    ['{y}', 'string.quoted.single.guardrail'],
    ["\\'", 'string.quoted.single.guardrail constant.character.escape.guardrail'],
    ["'", 'string.quoted.single.guardrail punctuation.definition.string.end.guardrail'],
    ['+', 'keyword.operator.arithmetic.guardrail'],
    ['"', 'string.quoted.double.guardrail punctuation.definition.string.begin.guardrail'],
    ['a', 'string.quoted.double.guardrail'],
    ['\\"', 'string.quoted.double.guardrail constant.character.escape.guardrail'],
    ['b', 'string.quoted.double.guardrail'],
    ['"', 'string.quoted.double.guardrail punctuation.definition.string.end.guardrail'],
  ]);
  // An identifier ending in r or f before a quote is not a prefix.
  assert.deepEqual((await lineTokens('for"x"'))[0], ['for', 'keyword.control.flow.guardrail']);
});

test('guardrail: triple-quoted strings, double and single, span lines', async () => {
  for (const quote of ['"""', "'''"]) {
    const lines = await tokenize(GR, [`a := r${quote}`, `x "y" 'z' # not a comment \\${quote[0]}`, `${quote}  # comment`, 'b'].join('\n'));
    assert.deepEqual(significantTokens(lines[0]), [
      ['a', 'variable.other.declaration.guardrail'],
      [':=', 'keyword.operator.assignment.guardrail'],
      ['r', 'string.quoted.triple.guardrail storage.type.string.guardrail'],
      [quote, 'string.quoted.triple.guardrail punctuation.definition.string.begin.guardrail'],
    ]);
    assert.deepEqual(significantTokens(lines[1]), [
      [`x "y" 'z' # not a comment `, 'string.quoted.triple.guardrail'],
      [`\\${quote[0]}`, 'string.quoted.triple.guardrail constant.character.escape.guardrail'],
    ]);
    assert.deepEqual(significantTokens(lines[2]), [
      [quote, 'string.quoted.triple.guardrail punctuation.definition.string.end.guardrail'],
      ['#', 'comment.line.number-sign.guardrail punctuation.definition.comment.guardrail'],
      [' comment', 'comment.line.number-sign.guardrail'],
    ]);
    assert.equal(stackDepth(lines[2].endState), 1);
    assert.deepEqual(significantTokens(lines[3]), [['b', 'variable.other.guardrail']]);
  }
});

test('guardrail: an unclosed string ends at the end of its line', async () => {
  const lines = await tokenize(GR, ['x := "abc', 'raise "y" if:'].join('\n'));
  assert.equal(stackDepth(lines[0].endState), 1);
  assert.deepEqual(significantTokens(lines[1])[0], ['raise', 'keyword.control.flow.guardrail']);
});

test('guardrail: an unclosed bracket stops at the next raise, import, from or def', async () => {
  for (const next of ['raise "y" if:', 'from a import b', 'import a', 'def F():']) {
    const lines = await tokenize(GR, ['    foo(a, [b, {c', next].join('\n'));
    const first = significantTokens(lines[1])[0];
    assert.equal(first[1], next.startsWith('def') ? 'storage.type.function.guardrail' : next.startsWith('raise') ? 'keyword.control.flow.guardrail' : 'keyword.control.import.guardrail', next);
    assert.equal(stackDepth(lines[1].endState), 1, next);
  }
});

test('guardrail: comments', async () => {
  assert.deepEqual(await lineTokens('    x > 2 # cond "1"'), [
    ['x', 'variable.other.guardrail'],
    ['>', 'keyword.operator.comparison.guardrail'],
    ['2', 'constant.numeric.guardrail'],
    ['#', 'comment.line.number-sign.guardrail punctuation.definition.comment.guardrail'],
    [' cond "1"', 'comment.line.number-sign.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('# only a comment'), [
    ['#', 'comment.line.number-sign.guardrail punctuation.definition.comment.guardrail'],
    [' only a comment', 'comment.line.number-sign.guardrail'],
  ]);
});

test('guardrail: numbers', async () => {
  assert.deepEqual(await lineTokens('f(0, 42, 2.5, .5, 1e3, 1.5E-2) and x1'), [
    ['f', 'entity.name.function.call.guardrail'],
    ['(', 'punctuation.parenthesis.begin.guardrail'],
    ['0', 'constant.numeric.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['42', 'constant.numeric.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['2.5', 'constant.numeric.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['.5', 'constant.numeric.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['1e3', 'constant.numeric.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['1.5E-2', 'constant.numeric.guardrail'],
    [')', 'punctuation.parenthesis.end.guardrail'],
    ['and', 'keyword.operator.wordlike.guardrail'],
    ['x1', 'variable.other.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('ocr(d)[0]').then((tokens) => tokens[5]), ['0', 'constant.numeric.guardrail']);
});

test('guardrail: builtin functions', async () => {
  const builtins = ['any', 'empty', 'len', 'min', 'max', 'sum', 'tuple', 'print', 'match', 'find', 'json_loads', 'text', 'image', 'tool_call', 'server'];
  for (const name of builtins) {
    assert.deepEqual((await lineTokens(`${name}(x)`))[0], [name, 'support.function.builtin.guardrail'], name);
  }
  // As a member, a keyword argument name or part of a longer name, it is not the builtin.
  assert.deepEqual(await lineTokens('m.text(min=1) + texts'), [
    ['m', 'variable.other.guardrail'],
    ['.', 'punctuation.accessor.guardrail'],
    ['text', 'entity.name.function.member.guardrail'],
    ['(', 'punctuation.parenthesis.begin.guardrail'],
    ['min', 'variable.parameter.function-call.guardrail'],
    ['=', 'keyword.operator.assignment.guardrail'],
    ['1', 'constant.numeric.guardrail'],
    [')', 'punctuation.parenthesis.end.guardrail'],
    ['+', 'keyword.operator.arithmetic.guardrail'],
    ['texts', 'variable.other.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('input.username'), [
    ['input', 'variable.language.input.guardrail'],
    ['.', 'punctuation.accessor.guardrail'],
    ['username', 'variable.other.property.guardrail'],
  ]);
});

test('guardrail: standard-library functions', async () => {
  const library = [
    'count', 'forall', 'llm', 'llm_confirm', 'pii', 'secrets', 'moderated', 'prompt_injection', 'unicode', 'copyright',
    'is_similar', 'embedding_similarity', 'fuzzy_contains', 'python_code', 'ipython_code', 'semgrep', 'html_code', 'links',
    'ocr', 'should_allow_rbac', 'get_files', 'get_tree_files', 'get_file_content', 'get_file_contents', 'is_sensitive', 'is_sensitive_dir',
  ];
  for (const name of library) {
    assert.deepEqual((await lineTokens(`${name}(x)`))[0], [name, 'support.function.library.guardrail'], name);
  }
  assert.deepEqual((await lineTokens('contains_hello(msg)'))[0], ['contains_hello', 'entity.name.function.call.guardrail']);
});

test('guardrail: object literal keys', async () => {
  assert.deepEqual(await lineTokens('v := {"key": 1, name: True}'), [
    ['v', 'variable.other.declaration.guardrail'],
    [':=', 'keyword.operator.assignment.guardrail'],
    ['{', 'punctuation.definition.dict.begin.guardrail'],
    ['"', 'string.quoted.double.guardrail punctuation.definition.string.begin.guardrail'],
    ['key', 'string.quoted.double.guardrail'],
    ['"', 'string.quoted.double.guardrail punctuation.definition.string.end.guardrail'],
    [':', 'punctuation.separator.colon.guardrail'],
    ['1', 'constant.numeric.guardrail'],
    [',', 'punctuation.separator.comma.guardrail'],
    ['name', 'support.type.property-name.guardrail'],
    [':', 'punctuation.separator.colon.guardrail'],
    ['True', 'constant.language.guardrail'],
    ['}', 'punctuation.definition.dict.end.guardrail'],
  ]);
});

test('guardrail: template placeholders and the REQUIRES header', async () => {
  assert.deepEqual(await lineTokens('    {{ BLACKLIST_WHITELIST }}'), [
    ['{{', 'meta.template.placeholder.guardrail punctuation.definition.template-expression.begin.guardrail'],
    ['BLACKLIST_WHITELIST', 'meta.template.placeholder.guardrail variable.other.placeholder.guardrail'],
    ['}}', 'meta.template.placeholder.guardrail punctuation.definition.template-expression.end.guardrail'],
  ]);
  assert.deepEqual(await lineTokens('# {{ REQUIRES: [openai_extra]}}'), [
    ['#', 'comment.line.number-sign.guardrail punctuation.definition.comment.guardrail'],
    ['{{', 'comment.line.number-sign.guardrail meta.template.directive.guardrail punctuation.definition.template-expression.begin.guardrail'],
    ['REQUIRES', 'comment.line.number-sign.guardrail meta.template.directive.guardrail keyword.other.directive.guardrail'],
    [':', 'comment.line.number-sign.guardrail meta.template.directive.guardrail punctuation.separator.colon.guardrail'],
    [' [openai_extra]', 'comment.line.number-sign.guardrail meta.template.directive.guardrail'],
    ['}}', 'comment.line.number-sign.guardrail meta.template.directive.guardrail punctuation.definition.template-expression.end.guardrail'],
  ]);
  // A placeholder inside a string is part of the string.
  assert.deepEqual((await lineTokens('"{{ X }}"'))[1], ['{{ X }}', 'string.quoted.double.guardrail']);
});
