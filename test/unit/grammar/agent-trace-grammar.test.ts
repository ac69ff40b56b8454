// VS Code's JSON grammar is not in node_modules; fixtures/json.tmLanguage.json stands in for source.json with the
// same rule names and scopes. These tests check that our trace grammars hand everything to source.json and only add
// scopes for message roles and tool call ids.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { grammarContributions, repoRoot, scopesOf, stackDepth, tokenize, TokenizedLine } from './tokenize';

const TRACE = 'source.agent-trace';
const LINES = 'source.agent-trace-jsonl';
const ROLE = 'entity.name.tag.role.agent-trace';
const CALL_ID = 'variable.other.constant.call-id.agent-trace';
const OUR_SCOPES = new Set([ROLE, CALL_ID, 'meta.tool-calls.agent-trace']);

/** For every character of every line, its scopes without the root scope and without the scopes our grammars add. */
function jsonScopesPerCharacter(lines: TokenizedLine[]): string[] {
  return lines.flatMap(({ tokens }) =>
    tokens.flatMap((token) => Array.from(token.text, () => token.scopes.slice(1).filter((scope) => !OUR_SCOPES.has(scope)).join(' '))),
  );
}

async function assertSameAsJson(scopeName: string, text: string, jsonLines: string[] = [text]): Promise<TokenizedLine[]> {
  const ours = await tokenize(scopeName, text);
  const json: TokenizedLine[] = [];
  for (const part of jsonLines) json.push(...(await tokenize('source.json', part)));
  assert.deepEqual(jsonScopesPerCharacter(ours), jsonScopesPerCharacter(json));
  return ours;
}

const TRACE_TEXT = [
  '[',
  '  {"role": "system", "content": "You are \\"helpful\\" \\u00e9", "metadata": {"id": "m1", "n": -1.5e3, "ok": true, "x": null}},',
  '  {"role": "assistant", "content": null, "tool_calls": [',
  '    {"id": "call_1", "type": "function", "function": {"name": "send", "arguments": {"id": 7, "to": ["a", "b"]}}}',
  '  ]},',
  '  {"role"  :  "tool", "tool_call_id": "call_1", "content": "{\\"role\\": \\"user\\"}"},',
  '  {"role":',
  '    "user"  ,  "content": "hi"}',
  ']',
].join('\n');

test('agent-trace: package.json names our grammar files and scopes', () => {
  const byScope = new Map(grammarContributions().map((grammar) => [grammar.scopeName, grammar]));
  for (const [scopeName, language, file] of [
    [TRACE, 'agent-trace', './syntaxes/agent-trace.tmLanguage.json'],
    [LINES, 'agent-trace-jsonl', './syntaxes/agent-trace-jsonl.tmLanguage.json'],
    ['source.guardrail', 'guardrail', './syntaxes/guardrail.tmLanguage.json'],
  ]) {
    const grammar = byScope.get(scopeName);
    assert.ok(grammar, scopeName);
    assert.equal(grammar.language, language);
    assert.equal(grammar.path, file);
    assert.equal(JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')).scopeName, scopeName);
  }
});

test('agent-trace: the grammar includes source.json for everything', () => {
  const raw = JSON.parse(fs.readFileSync(path.join(repoRoot, 'syntaxes/agent-trace.tmLanguage.json'), 'utf8'));
  assert.deepEqual(raw.patterns, [{ include: 'source.json' }]);
});

test('agent-trace: every character keeps exactly the scopes source.json gives it', async () => {
  const lines = await assertSameAsJson(TRACE, TRACE_TEXT);
  assert.equal(lines[0].tokens[0].scopes[0], TRACE);
  assert.equal(stackDepth(lines[lines.length - 1].endState), 1);
});

test('agent-trace: broken JSON is still highlighted exactly as source.json does', async () => {
  await assertSameAsJson(TRACE, ['[{"role" "user", "tool_call_id": 5 x, "tool_calls": [{"id" }]}', '{"role": "a" "b"}', '/* c */ {"role": // c', '"x"}'].join('\n'));
});

test('agent-trace: role values get a role scope inside the JSON string scope', async () => {
  const lines = await tokenize(TRACE, TRACE_TEXT);
  const dictValue = 'meta.structure.array.json meta.structure.dictionary.json meta.structure.dictionary.value.json';
  assert.deepEqual(scopesOf(lines, 'system'), [...dictValue.split(' '), 'string.quoted.double.json', ROLE]);
  assert.deepEqual(scopesOf(lines, 'assistant'), [...dictValue.split(' '), 'string.quoted.double.json', ROLE]);
  assert.deepEqual(scopesOf(lines, 'tool'), [...dictValue.split(' '), 'string.quoted.double.json', ROLE]);
  // A role value on the line after its key (the first "user" is text inside a content string).
  assert.deepEqual(scopesOf(lines, 'user', 0).slice(-1), ['string.quoted.double.json']);
  assert.deepEqual(scopesOf(lines, 'user', 1), [...dictValue.split(' '), 'string.quoted.double.json', ROLE]);
  // The quotes stay JSON punctuation.
  const quote = lines[1].tokens.find((token) => token.text === '"' && token.scopes.includes('punctuation.definition.string.begin.json'));
  assert.deepEqual(quote?.scopes.slice(1), [...dictValue.split(' '), 'string.quoted.double.json', 'punctuation.definition.string.begin.json']);
});

test('agent-trace: tool call ids get a call-id scope; other ids do not', async () => {
  const lines = await tokenize(TRACE, TRACE_TEXT);
  const callValue = [
    'meta.structure.array.json', 'meta.structure.dictionary.json', 'meta.structure.dictionary.value.json', 'meta.tool-calls.agent-trace',
    'meta.structure.array.json', 'meta.structure.dictionary.json', 'meta.structure.dictionary.value.json', 'string.quoted.double.json',
  ];
  assert.deepEqual(scopesOf(lines, 'call_1', 0), [...callValue, CALL_ID]);
  assert.deepEqual(scopesOf(lines, 'call_1', 1), [
    'meta.structure.array.json', 'meta.structure.dictionary.json', 'meta.structure.dictionary.value.json', 'string.quoted.double.json', CALL_ID,
  ]);
  // A metadata id and an id inside the call's arguments are plain JSON.
  assert.ok(!scopesOf(lines, 'm1').includes(CALL_ID));
  assert.deepEqual(scopesOf(lines, '7').slice(-1), ['constant.numeric.json']);
  // "role" inside a string value is just text.
  const content = lines[5].tokens.filter((token) => token.scopes.includes(ROLE));
  assert.deepEqual(content.map((token) => token.text), ['tool']);
});

test('agent-trace: agentguard call_id values are call ids', async () => {
  const lines = await tokenize(TRACE, '{"call": {"call_id": "9f1c", "tool_name": "t"}, "result": {"call_id": "9f1c"}}');
  assert.deepEqual(scopesOf(lines, '9f1c', 0).slice(-2), ['string.quoted.double.json', CALL_ID]);
  assert.deepEqual(scopesOf(lines, '9f1c', 1).slice(-2), ['string.quoted.double.json', CALL_ID]);
  assert.ok(!scopesOf(lines, 't').includes(CALL_ID));
});

test('agent-trace-jsonl: every line is its own JSON value, highlighted as source.json', async () => {
  const jsonLines = [
    '{"metadata": {"name": "set"}}',
    '{"messages": [{"role": "user", "content": "broken',
    '[{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]',
    '{"call":{"call_id":"u-1","tool_name":"llm.openai.chat_completions"}}',
    '',
    '{"index": 2, "messages": []}',
  ];
  const lines = await assertSameAsJson(LINES, jsonLines.join('\n'), jsonLines);
  assert.equal(lines[0].tokens[0].scopes[0], LINES);
  // The unterminated string of line 2 does not reach line 3.
  assert.deepEqual(lines[2].tokens[0].scopes, [LINES, 'meta.structure.array.json', 'punctuation.definition.array.begin.json']);
  assert.deepEqual(scopesOf(lines, 'user').slice(-2), ['string.quoted.double.json', ROLE]);
  assert.deepEqual(scopesOf(lines, 'assistant').slice(-2), ['string.quoted.double.json', ROLE]);
  assert.deepEqual(scopesOf(lines, 'c1').slice(-2), ['string.quoted.double.json', CALL_ID]);
  assert.deepEqual(scopesOf(lines, 'u-1').slice(-2), ['string.quoted.double.json', CALL_ID]);
});
