/**
 * Fixes never lose text: what fix-all (the editor's and `check --fix`'s) and the preferred quick fixes may delete is
 * only what a problem covers, and the editor offers them only when the text they leave reads without a syntax error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CodeAction, CodeActionParams } from 'vscode-languageserver/node';
import { applyEdits, fixAllEdits } from '../../../server/src/common/codeActions';
import { codeActions } from '../../../server/src/lsp/codeActionRequest';
import { traceService } from '../../../server/src/trace';
import { fixFile } from '../../../server/src/cli/fix';
import { context, lines, model } from './helpers';
import { validate } from '../../../server/src/trace/validate';
import { codeFixes } from '../../../server/src/trace/codeActions';

/** The 207-character trace of the report: an unterminated comment in front of two events. */
const unterminated = lines(
  '[',
  '  {"role": "user", "content": "What is the weather in Zurich?"},',
  '  /* the answer below came from the cache',
  '  {"role": "assistant", "content": "It is sunny, 21 degrees."},',
  '  {"role": "user", "content": "Thanks"}',
  ']',
);

/** The code actions the server answers for a trace document, at an offset or for a kind (`only`). */
function actionsFor(text: string, request: Partial<CodeActionParams['context']> & { at?: number } = {}): CodeAction[] {
  const uri = 'file:///w/a.trace.json';
  const service = traceService;
  const document = TextDocument.create(uri, 'agent-trace', 1, text);
  const parsed = { service, model: service.parse({ uri, version: 1, text }) } as never;
  const problems = service.validate((parsed as { model: never }).model, context());
  const at = document.positionAt(request.at ?? 0);
  const params = { textDocument: { uri }, range: { start: at, end: at }, context: { diagnostics: [], only: request.only } } as CodeActionParams;
  return codeActions(parsed, document, params, problems, false);
}

function applyAction(text: string, action: CodeAction): string {
  const document = TextDocument.create('file:///x', 'x', 1, text);
  const edits = Object.values(action.edit!.changes!)[0];
  return TextDocument.applyEdits(document, edits);
}

test('an unterminated comment: its fix closes it (at the end of its line when the rest then reads), never deletes what follows', () => {
  const m = model(unterminated);
  const found = codeFixes(m, validate(m, context()).filter((p) => p.code === 'json/syntax' && p.message.startsWith('Unterminated comment')));
  assert.deepEqual(found.map((fix) => `${fix.title}${fix.safe ? ' [safe]' : ''}${fix.preferred ? ' [preferred]' : ''}`), [
    'Close the comment at the end of its line [safe] [preferred]',
    'Close the comment at the end of the file',
  ]);
  assert.equal(applyEdits(unterminated, found[0].edits), unterminated.replace('from the cache', 'from the cache */'));
  for (const fix of found) assert.ok(fix.edits.every((edit) => edit.span.start === edit.span.end), 'only insertions');
});

test('the editor\'s fix-all on a trace with an unterminated comment keeps every event', () => {
  const actions = actionsFor(unterminated, { only: ['source.fixAll'] });
  assert.equal(actions.length, 1);
  assert.equal(applyAction(unterminated, actions[0]), unterminated.replace('from the cache', 'from the cache */'));
});

test('the preferred quick fix at an unterminated comment does not delete to the end of the file', () => {
  const actions = actionsFor(unterminated, { at: unterminated.indexOf('/*') + 1 });
  const preferred = actions.filter((action) => action.isPreferred);
  assert.equal(preferred.length, 1);
  assert.equal(applyAction(unterminated, preferred[0]), unterminated.replace('from the cache', 'from the cache */'));
});

test('the editor offers fix-all only when the result reads without a syntax error', () => {
  // A trailing comma it could fix, and a missing comma no fix repairs: fixing one would leave the other.
  const broken = lines('[', '  {"role": "user", "content": "hi",},', '  {"role": "assistant" "content": "hello"}', ']');
  assert.deepEqual(actionsFor(broken, { only: ['source.fixAll'] }), []);
  const fixable = lines('[', '  {"role": "user", "content": "hi",},', '  {"role": "assistant", "content": "hello"}', ']');
  assert.deepEqual(actionsFor(fixable, { only: ['source.fixAll'] }).map((a) => a.kind), ['source.fixAll.agentTraces']);
});

test('a preferred quick fix is marked only when its result reads without a syntax error', () => {
  const broken = lines('[', '  {"role": "user", "content": "hi",},', '  {"role": "assistant" "content": "hello"}', ']');
  const actions = actionsFor(broken, { at: broken.indexOf(',}') });
  assert.deepEqual(actions.map((a) => [a.title, a.isPreferred ?? false]), [['Remove the trailing comma', false]]);
});

test('notes after the JSON value are kept by fix-all and by check --fix, in a comment or not', () => {
  const value = lines('[', '  {"role": "user", "content": "hi",}', ']');
  for (const notes of ['// run 3: the model was flaky', '/* run 3: the model was flaky */', '/* run 3: the model\nwas flaky']) {
    const text = `${value}\n${notes}\n`;
    const m = model(text);
    const fixAll = applyEdits(text, fixAllEdits(traceService, m, validate(m, context())).edits);
    assert.ok(fixAll.includes('the model') && fixAll.includes('flaky'), fixAll);
    const fixed = fixFile(traceService as never, 'file:///w/n.trace.json', text, context()).text;
    assert.ok(fixed.includes('the model') && fixed.includes('flaky'), fixed);
    assert.ok(fixed.includes('"content": "hi"}'), `the trailing comma is still fixed: ${fixed}`);
  }
});

test('fix-all never renames a key to "role": the user\'s key and its value stay', () => {
  for (const key of ['rule', 'route', 'rol']) {
    const text = `[{"${key}": "user", "content": "hi"}, {"role": "assistant", "tool_calls": [], "${key}": "x"}]`;
    const m = model(text);
    const fixed = applyEdits(text, fixAllEdits(traceService, m, validate(m, context())).edits);
    assert.equal(fixed.split(`"${key}"`).length, 3, `both "${key}" keys kept: ${fixed}`);
    const withCall = `[{"${key}": "assistant", "tool_calls": []}]`;
    const m2 = model(withCall);
    assert.equal(applyEdits(withCall, fixAllEdits(traceService, m2, validate(m2, context())).edits), `[{"role": "assistant", "${key}": "assistant", "tool_calls": []}]`);
  }
});

test('renaming a key stays a quick fix the user picks: never safe, never preferred', () => {
  for (const text of ['[{"rol": "user", "content": "hi"}]', '[{"role": "tool", "tool_call_ids": "a", "content": ""}]']) {
    const m = model(text);
    const renames = codeFixes(m, validate(m, context())).filter((fix) => fix.title.startsWith('Change "'));
    assert.ok(renames.length > 0, text);
    for (const fix of renames) assert.equal(fix.safe || fix.preferred, false, fix.title);
  }
});
