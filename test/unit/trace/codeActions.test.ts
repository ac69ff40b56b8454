import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, lines, model } from './helpers';
import { codeFixes, refactorings } from '../../../server/src/trace/codeActions';
import { validate } from '../../../server/src/trace/validate';
import { applyEdits, codeActionsAt, fixAllEdits } from '../../../server/src/common/codeActions';
import { traceService } from '../../../server/src/trace';

/** The fixes for the problems with this code, as `title [safe] => text after applying it`. */
function fixes(text: string, code: string): string[] {
  const m = model(text);
  const problems = validate(m, context()).filter((p) => p.code === code);
  assert.ok(problems.length > 0, `no ${code} problem`);
  return codeFixes(m, problems).map((fix) => `${fix.title}${fix.safe ? ' [safe]' : ''} => ${applyEdits(text, fix.edits)}`);
}

function fixAll(text: string): string {
  const m = model(text);
  return applyEdits(text, fixAllEdits(traceService, m, validate(m, context())).edits);
}

const call = (id: string, name = 'get_inbox', args = '{}') => `{"id": "${id}", "type": "function", "function": {"name": "${name}", "arguments": ${args}}}`;

test('json/trailing-comma and json/comment: removed (a comment alone on its line with its line)', () => {
  assert.deepEqual(fixes('[{"role": "user", "content": "hi"},]', 'json/trailing-comma'),
    ['Remove the trailing comma [safe] => [{"role": "user", "content": "hi"}]']);
  assert.deepEqual(fixes(lines('[', '  // note', '  {"role": "user", "content": "hi"} /* x */', ']'), 'json/comment'), [
    `Remove the comment [safe] => ${lines('[', '  {"role": "user", "content": "hi"} /* x */', ']')}`,
    `Remove the comment [safe] => ${lines('[', '  // note', '  {"role": "user", "content": "hi"}', ']')}`,
  ]);
});

test('trace/tool-calls-type: a single call object is wrapped in a list', () => {
  assert.deepEqual(fixes(`[{"role": "assistant", "tool_calls": ${call('a')}}]`, 'trace/tool-calls-type'),
    [`Wrap the tool call in a list [safe] => [{"role": "assistant", "tool_calls": [${call('a')}]}]`]);
});

test('trace/arguments-json: a string cut short gets its closing brace or quote, only when one ending works', () => {
  assert.deepEqual(fixes(`[{"role": "assistant", "tool_calls": [${call('a', 'f', '"{\\"n\\": 1"')}]}]`, 'trace/arguments-json'),
    [`Close the JSON at the end of the string with } [safe] => [{"role": "assistant", "tool_calls": [${call('a', 'f', '"{\\"n\\": 1}"')}]}]`]);
  assert.deepEqual(fixes(`[{"role": "assistant", "tool_calls": [${call('a', 'f', '"{\\"q\\": \\"ab"')}]}]`, 'trace/arguments-json'),
    [`Close the JSON at the end of the string with "} [safe] => [{"role": "assistant", "tool_calls": [${call('a', 'f', '"{\\"q\\": \\"ab\\"}"')}]}]`]);
  // Broken in the middle: no guess.
  assert.deepEqual(fixes(`[{"role": "assistant", "tool_calls": [${call('a', 'f', '"{\\"n\\" 1}"')}]}]`, 'trace/arguments-json'), []);
});

test('trace/arguments-type: missing arguments become an empty object', () => {
  const text = '[{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f"}}]}]';
  assert.deepEqual(fixes(text, 'trace/arguments-type'),
    ['Add "arguments": {} [safe] => [{"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": {}}}]}]']);
});

test('arguments refactoring: object to JSON string and back', () => {
  const text = `[{"role": "assistant", "tool_calls": [${call('a', 'f', '{"n": 1, "s": "x"}')}]}]`;
  const at = text.indexOf('"arguments"') + 2;
  const toString = refactorings(model(text), { start: at, end: at });
  assert.deepEqual(toString.map((fix) => [fix.title, applyEdits(text, fix.edits)]), [
    ['Convert "arguments" to a JSON string', `[{"role": "assistant", "tool_calls": [${call('a', 'f', '"{\\"n\\":1,\\"s\\":\\"x\\"}"')}]}]`],
  ]);
  const asString = applyEdits(text, toString[0].edits);
  const back = refactorings(model(asString), { start: at, end: at });
  assert.deepEqual(back.map((fix) => [fix.title, applyEdits(asString, fix.edits)]), [
    ['Convert "arguments" to an object', `[{"role": "assistant", "tool_calls": [${call('a', 'f', '{"n":1,"s":"x"}')}]}]`],
  ]);
});

test('trace/unanswered-call: an output after the event, indented like it, the cursor in content', () => {
  const text = lines('[', `  {"role": "assistant", "tool_calls": [${call('c$1')}]},`, '  {"role": "user", "content": "hi"}', ']');
  const m = model(text);
  const found = codeFixes(m, validate(m, context()).filter((p) => p.code === 'trace/unanswered-call'));
  assert.equal(found.length, 1);
  assert.equal(found[0].title, 'Add a tool output answering "c$1"');
  assert.equal(found[0].snippet, true);
  assert.equal(found[0].safe, false);
  assert.equal(applyEdits(text, found[0].edits), lines('[',
    `  {"role": "assistant", "tool_calls": [${call('c$1')}]},`,
    '  {"role": "tool", "tool_call_id": "c\\$1", "content": "$0"},',
    '  {"role": "user", "content": "hi"}', ']'));
});

test('trace/unknown-call-id: unanswered calls before it, nearest first, the named tool first', () => {
  const text = lines('[',
    `  {"role": "assistant", "tool_calls": [${call('a', 'get_inbox')}, ${call('b', 'send_email')}]},`,
    `  {"role": "assistant", "tool_calls": [${call('c', 'get_inbox')}]},`,
    '  {"role": "tool", "tool_call_id": "c", "content": ""},',
    '  {"role": "tool", "tool_call_id": "zz", "name": "get_inbox", "content": ""}',
    ']');
  assert.deepEqual(fixes(text, 'trace/unknown-call-id').map((f) => f.split(' => ')[0]), [
    'Answer the call "a" (get_inbox) in event #0',
    'Answer the call "b" (send_email) in event #0',
  ]);
  assert.match(fixes(text, 'trace/unknown-call-id')[0], /"tool_call_id": "a", "name": "get_inbox"/);
});

test('trace/duplicate-call-id: a fresh id for the later call and its outputs; safe only when every link was clear', () => {
  const text = lines('[',
    `  {"role": "assistant", "tool_calls": [${call('x')}]},`,
    '  {"role": "tool", "tool_call_id": "x", "content": "1"},',
    `  {"role": "assistant", "tool_calls": [${call('x')}]},`,
    '  {"role": "tool", "tool_call_id": "x", "content": "2"}',
    ']');
  assert.deepEqual(fixes(text, 'trace/duplicate-call-id'), [`Give this call the id "x_2" and its output [safe] => ${lines('[',
    `  {"role": "assistant", "tool_calls": [${call('x')}]},`,
    '  {"role": "tool", "tool_call_id": "x", "content": "1"},',
    `  {"role": "assistant", "tool_calls": [${call('x_2')}]},`,
    '  {"role": "tool", "tool_call_id": "x_2", "content": "2"}',
    ']')}`]);
  const ambiguous = lines('[', `  {"role": "assistant", "tool_calls": [${call('x')}, ${call('x')}]},`, '  {"role": "tool", "tool_call_id": "x", "content": "1"}', ']');
  assert.deepEqual(fixes(ambiguous, 'trace/duplicate-call-id').map((f) => f.split(' => ')[0]), ['Give this call the id "x_2" and its output']);
});

test('trace/missing-role: a role the keys imply is added; else a choice, and a key misspelling "role" may be renamed', () => {
  assert.deepEqual(fixes('[{"rol": "user", "content": "hi"}]', 'trace/missing-role').map((f) => f.split(' => ')[0]),
    ['Change "rol" to "role"', 'Add "role": "user"', 'Add "role": "assistant"', 'Add "role": "system"', 'Add "role": "tool"']);
  assert.deepEqual(fixes('[{"rol": "user", "tool_call_id": "a"}]', 'trace/missing-role'), [
    'Change "rol" to "role" => [{"role": "user", "tool_call_id": "a"}]',
    'Add "role": "tool" [safe] => [{"role": "tool", "rol": "user", "tool_call_id": "a"}]',
  ]);
  assert.deepEqual(fixes('[{"tool_calls": []}]', 'trace/missing-role'),
    ['Add "role": "assistant" [safe] => [{"role": "assistant", "tool_calls": []}]']);
  assert.deepEqual(fixes('[{"content": "hi"}]', 'trace/missing-role').map((f) => f.split(' => ')[0]),
    ['Add "role": "user"', 'Add "role": "assistant"', 'Add "role": "system"', 'Add "role": "tool"']);
});

test('trace/unknown-role: did you mean the known role; safe only when exactly one is that close', () => {
  assert.deepEqual(fixes('[{"role": "assitant", "content": "hi"}]', 'trace/unknown-role'),
    ['Change the role to "assistant" [safe] => [{"role": "assistant", "content": "hi"}]']);
  assert.deepEqual(fixes('[{"role": "TOOL", "tool_call_id": "a", "content": ""}]', 'trace/unknown-role'),
    ['Change the role to "tool" [safe] => [{"role": "tool", "tool_call_id": "a", "content": ""}]']);
  // as close to "user" as to "system": a choice
  assert.deepEqual(fixes('[{"role": "ustem", "content": "hi"}]', 'trace/unknown-role'), [
    'Change the role to "user" => [{"role": "user", "content": "hi"}]',
    'Change the role to "system" => [{"role": "system", "content": "hi"}]',
  ]);
  assert.deepEqual(fixes('[{"role": "agent", "content": "hi"}]', 'trace/unknown-role'), []);
});

test('trace/unknown-key: did you mean the defined key', () => {
  assert.deepEqual(fixes('[{"role": "tool", "tool_call_ids": "a", "content": ""}]', 'trace/unknown-key'),
    ['Change "tool_call_ids" to "tool_call_id" => [{"role": "tool", "tool_call_id": "a", "content": ""}]']);
});

test('fix all: every safe fix at once, and the result checks clean of them', () => {
  const text = lines('[', '  // fixture', `  {"rol": "assistant", "tool_calls": ${call('a', 'f', '"{\\"n\\": 1"')}},`, '  {"role": "tool", "tool_call_id": "a", "content": ""},', ']');
  const fixedText = fixAll(text);
  assert.equal(fixedText, lines('[', `  {"role": "assistant", "rol": "assistant", "tool_calls": [${call('a', 'f', '"{\\"n\\": 1}"')}]},`, '  {"role": "tool", "tool_call_id": "a", "content": ""}', ']'));
  assert.deepEqual(validate(model(fixedText), context()).filter((p) => p.severity !== 'hint'), []);
});

test('fix all: a misspelled role is corrected, and the output it lost answers its call again', () => {
  const text = lines('[', `  {"role": "asistant", "tool_calls": [${call('a')}]},`, '  {"role": "tol", "tool_call_id": "a", "content": ""}', ']');
  const fixedText = fixAll(text);
  assert.equal(fixedText, lines('[', `  {"role": "assistant", "tool_calls": [${call('a')}]},`, '  {"role": "tool", "tool_call_id": "a", "content": ""}', ']'));
  assert.deepEqual(validate(model(fixedText), context()), []);
});

test('the lightbulb at a problem: its fixes and, with more than one of its kind, fix all of them', () => {
  const text = '[{"role": "user", "content": [1,]}, {"role": "user", "content": [2,]}]';
  const m = model(text);
  const at = text.indexOf(',]');
  const found = codeActionsAt(traceService, m, { start: at, end: at }, validate(m, context()));
  assert.deepEqual(found.fixes.map((f) => f.title), ['Remove the trailing comma']);
  assert.deepEqual(found.fixAllOfKind.map((f) => [f.title, applyEdits(text, f.edits)]),
    [['Fix all json/trailing-comma problems in the file (2)', '[{"role": "user", "content": [1]}, {"role": "user", "content": [2]}]']]);
});
