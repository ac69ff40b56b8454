// The injection is loaded the way VS Code loads it: package.json says it is injected into text.html.markdown, and the
// registry asks for the injections of that scope. The markdown grammar is our own small fixture.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { grammarContributions, significantTokens, stackDepth, tokenize } from './tokenize';

const MD = 'text.html.markdown';
const FENCE = 'markup.fenced_code.block.markdown';
const EMBEDDED = `${FENCE} meta.embedded.block.guardrail`;

test('markdown injection: package.json injects markdown.guardrail.codeblock into markdown and maps the embedded scope', () => {
  const injection = grammarContributions().find((grammar) => grammar.scopeName === 'markdown.guardrail.codeblock');
  assert.ok(injection);
  assert.deepEqual(injection.injectTo, ['text.html.markdown']);
  assert.deepEqual(injection.embeddedLanguages, { 'meta.embedded.block.guardrail': 'guardrail' });
});

test('markdown injection: a ```guardrail fence is highlighted as guardrail rules', async () => {
  const lines = await tokenize(MD, ['# Rules', '', '```guardrail', 'raise "x" if:', '    (m: Message)', '```', 'after'].join('\n'));
  assert.deepEqual(significantTokens(lines[2]), [
    ['```', `${FENCE} punctuation.definition.markdown`],
    ['guardrail', `${FENCE} fenced_code.block.language.markdown`],
  ]);
  assert.deepEqual(significantTokens(lines[3]), [
    ['raise', `${EMBEDDED} keyword.control.flow.guardrail`],
    ['"', `${EMBEDDED} string.quoted.double.guardrail punctuation.definition.string.begin.guardrail`],
    ['x', `${EMBEDDED} string.quoted.double.guardrail`],
    ['"', `${EMBEDDED} string.quoted.double.guardrail punctuation.definition.string.end.guardrail`],
    ['if', `${EMBEDDED} keyword.control.flow.guardrail`],
    [':', `${EMBEDDED} punctuation.separator.colon.guardrail`],
  ]);
  assert.deepEqual(significantTokens(lines[4])[1], ['m', `${EMBEDDED} meta.typed-variable.guardrail variable.parameter.guardrail`]);
  assert.deepEqual(significantTokens(lines[4])[3], ['Message', `${EMBEDDED} meta.typed-variable.guardrail entity.name.type.guardrail`]);
  assert.deepEqual(significantTokens(lines[5]), [['```', `${FENCE} punctuation.definition.markdown`]]);
  assert.equal(stackDepth(lines[5].endState), 1);
  assert.deepEqual(significantTokens(lines[6]), [['after', 'meta.paragraph.markdown']]);
});

test('markdown injection: ~~~ fences, indentation, attributes and case', async () => {
  const lines = await tokenize(MD, ['  ~~~~ Guardrail {.rules}', '  x := "a # b" # c', '  ~~~~', 'after'].join('\n'));
  assert.deepEqual(significantTokens(lines[0]), [
    ['~~~~', `${FENCE} punctuation.definition.markdown`],
    ['Guardrail', `${FENCE} fenced_code.block.language.markdown`],
    [' {.rules}', `${FENCE} fenced_code.block.language.attributes.markdown`],
  ]);
  assert.deepEqual(significantTokens(lines[1]), [
    ['x', `${EMBEDDED} variable.other.declaration.guardrail`],
    [':=', `${EMBEDDED} keyword.operator.assignment.guardrail`],
    ['"', `${EMBEDDED} string.quoted.double.guardrail punctuation.definition.string.begin.guardrail`],
    ['a # b', `${EMBEDDED} string.quoted.double.guardrail`],
    ['"', `${EMBEDDED} string.quoted.double.guardrail punctuation.definition.string.end.guardrail`],
    ['#', `${EMBEDDED} comment.line.number-sign.guardrail punctuation.definition.comment.guardrail`],
    [' c', `${EMBEDDED} comment.line.number-sign.guardrail`],
  ]);
  assert.deepEqual(significantTokens(lines[2]), [['~~~~', `${FENCE} punctuation.definition.markdown`]]);
  assert.deepEqual(significantTokens(lines[3]), [['after', 'meta.paragraph.markdown']]);
});

test('markdown injection: an unclosed guardrail string or bracket ends with the fence', async () => {
  const lines = await tokenize(MD, ['```guardrail', 'x := foo("abc', '```', 'after'].join('\n'));
  assert.deepEqual(significantTokens(lines[2]), [['```', `${FENCE} punctuation.definition.markdown`]]);
  assert.equal(stackDepth(lines[2].endState), 1);
  assert.deepEqual(significantTokens(lines[3]), [['after', 'meta.paragraph.markdown']]);
});

test('markdown injection: other fences and look-alike info strings stay plain code', async () => {
  for (const fence of ['```python', '```guardrails', '```', '```gr']) {
    const lines = await tokenize(MD, [fence, 'raise "x" if:', '```'].join('\n'));
    assert.deepEqual(significantTokens(lines[1]), [['raise "x" if:', `${FENCE} markup.raw.block.markdown`]], fence);
  }
  // A ```guardrail line inside another fence is content of that fence.
  const nested = await tokenize(MD, ['~~~', '```guardrail', 'raise', '~~~'].join('\n'));
  assert.deepEqual(significantTokens(nested[2]), [['raise', `${FENCE} markup.raw.block.markdown`]]);
});
