import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { detectJsonLinesFormat, jsonlService } from '../../../server/src/jsonl';
import { context, parse } from './helpers';
import { filesUnder } from '../testing';

const repoRoot = path.resolve(__dirname, '../../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus');

/** The corpus is read in place; without it the tests skip with one line, except on CI where that is a failure. */
function corpusOrSkip(t: TestContext): boolean {
  if (existsSync(corpus)) return true;
  if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
  t.skip(`corpus not found at ${corpus}`);
  return false;
}

/** One line per trace without changing a byte of any value: JSON text cannot hold raw line breaks inside strings. */
function toOneLine(text: string): string {
  return text.replace(/\r?\n[ \t]*/g, '');
}

test('every JSON Lines file of the corpus: no errors, every line read', (t) => {
  if (!corpusOrSkip(t)) return;
  const files = filesUnder(corpus, '.jsonl');
  assert.ok(files.length > 0, 'the corpus holds JSON Lines files');
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    // JSON Lines files of formats the server does not read (yet) are left alone, as the editor leaves them.
    if (!detectJsonLinesFormat(text)) continue;
    const model = parse(text, `file://${file}`);
    const problems = jsonlService.validate(model, context);
    assert.deepEqual(problems.filter((p) => p.severity === 'error' || p.severity === 'warning'), [], file);
    assert.ok(model.contentLines.every((line) => line.errors.length === 0 && line.kind !== 'other'), file);
    // A session's outline lists its prompts, a rollout's its turns; a dataset's and a log's, every line.
    if (model.format === 'claude-code' || model.format === 'codex') assert.ok(jsonlService.symbols(model).length > 0, file);
    else assert.equal(jsonlService.symbols(model).length, model.contentLines.length, file);
  }
});

test('the agentguard log of the corpus: one outline entry per call, failures marked', (t) => {
  if (!corpusOrSkip(t)) return;
  const file = path.join(corpus, 'agentguard/support-bot-7f3c.jsonl');
  const text = readFileSync(file, 'utf8');
  const model = parse(text);
  assert.equal(model.format, 'agentguard');
  assert.deepEqual(jsonlService.validate(model, context), []);
  const outline = jsonlService.symbols(model);
  assert.equal(outline[0].name, '#1 ✗ lookup_order');
  assert.equal(outline[0].detail, "validation_failed, 0.0 ms — Parameter 'order_id': expected int, got 'str' (value='A-100…");
  assert.equal(outline[1].name, '#2 lookup_order');
  assert.equal(outline[1].detail, 'success, 32.5 ms');
  const statuses = new Set(outline.map((item) => item.detail?.split(',')[0]));
  for (const status of ['validation_failed', 'timeout', 'failure', 'circuit_open', 'rate_limited', 'budget_exceeded', 'hallucinated', 'success']) {
    assert.ok(statuses.has(status), status);
  }
  assert.equal(outline.filter((item) => item.name.includes('✗')).length, outline.filter((item) => item.kind === 'event').length);
  const graph = jsonlService.graph!(model, { toRange: () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }) }, context);
  assert.equal(graph.nodes.length, model.contentLines.length);
  assert.ok(graph.nodes.every((node) => node.problems.length === 0));
});

test('the corpus traces, one per line, make valid raw and annotated datasets', (t) => {
  if (!corpusOrSkip(t)) return;
  const traces = filesUnder(path.join(corpus, 'traces'), '.json').map((file) => ({ file, line: toOneLine(readFileSync(file, 'utf8').trim()) }));
  assert.ok(traces.length > 50);
  const rawText = traces.map((trace) => trace.line).join('\n');
  const rawModel = parse(rawText);
  const rawProblems = jsonlService.validate(rawModel, context).filter((p) => p.code.startsWith('jsonl/'));
  // The two documentation examples that are not valid JSON (the official analyzer rejects them too) are the only
  // lines with jsonl problems, and only syntax ones.
  const broken = new Set(rawProblems.map((p) => path.basename(traces[rawModel.lineIndex.positionAt(p.span.start).line].file)));
  assert.deepEqual([...broken].sort(), ['007-dataflow-rules-L100.json', '040-rules-L508.json']);
  assert.ok(rawProblems.every((p) => p.code === 'jsonl/syntax'));

  const arrays = traces.filter((trace) => trace.line.startsWith('['));
  const annotatedText = arrays.map((trace, i) => `{"index": ${i}, "messages": ${trace.line}, "annotations": [{"content": "first event", "address": "messages.0"}]}`).join('\n');
  const annotatedProblems = jsonlService.validate(parse(annotatedText), context).filter((p) => p.code.startsWith('jsonl/') && p.code !== 'jsonl/syntax');
  assert.deepEqual(annotatedProblems, []);
});
