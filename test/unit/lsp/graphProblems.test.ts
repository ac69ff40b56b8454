import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultSettings } from '../../../server/src/common/languageService';
import type { Problem } from '../../../server/src/common/types';
import { DocumentModels, problemsOf } from '../../../server/src/lsp/documentModels';

const limits = () => ({ maxLines: 1000, maxFileSizeMB: 1, folders: [] });
const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
const roleError = '"role" must be a string such as "user", "assistant", "system" or "tool", not a number';

test('a version\'s problems are found once for the preview, and again when the server checks the document', () => {
  const models = new DocumentModels(limits);
  const parsed = models.get(TextDocument.create('file:///a.trace.json', 'agent-trace', 1, '[{"role": 1}]'))!;
  const context = { settings: defaultSettings };
  const first = problemsOf(parsed, context);
  assert.deepEqual(first.map((p) => p.message), [roleError]);
  assert.equal(problemsOf(parsed, context), first);
  assert.notEqual(problemsOf(parsed, context, 'check again'), first);
  assert.notEqual(problemsOf(parsed, { settings: { ...defaultSettings } }), first, 'other settings: found again');
});

test('the graph marks the problems it is given instead of checking the document again', () => {
  const models = new DocumentModels(limits);
  const parsed = models.get(TextDocument.create('file:///a.trace.json', 'agent-trace', 1, '[{"role": 1}]'))!;
  const given: Problem[] = [{ span: { start: 1, end: 2 }, severity: 'warning', code: 'test/given', message: 'given' }];
  const graph = (problems?: Problem[]) => parsed.service.graph!(parsed.model, { toRange, problems }, { settings: defaultSettings });
  assert.deepEqual(graph(given).nodes[0].problems, [{ severity: 'warning', code: 'test/given', message: 'given' }]);
  assert.deepEqual(graph().nodes[0].problems.map((p) => p.message), [roleError]);
});

test('a dataset line\'s trace is drawn with the problems cached for that line', () => {
  const models = new DocumentModels(limits);
  const text = '[{"role": 1}]\n[{"role": "user", "content": "hi", "colour": 1}]\n';
  const parsed = models.get(TextDocument.create('file:///d.jsonl', 'agent-trace-jsonl', 1, text))!;
  const graph = (traceIndex: number) => parsed.service.graph!(parsed.model, { toRange, traceIndex, problems: [] }, { settings: defaultSettings });
  assert.deepEqual(graph(0).nodes[0].problems.map((p) => p.message), [roleError]);
  assert.deepEqual(graph(1).nodes[0].problems.map((p) => p.code), ['trace/unknown-key']);
});
