import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { jsonlService, type LinesModel } from '../../../server/src/jsonl';
import type { DocumentInput, TextChange } from '../../../server/src/common/languageService';
import { changedRange } from '../../../server/src/jsonl/changedRange';
import type { OutlineItem } from '../../../server/src/common/types';
import { context } from './helpers';
import { filesUnder, random } from '../testing';

/** The dispatcher's re-read after an edit (the dataset's own line reader included). */
const reparse = (previous: LinesModel, doc: DocumentInput, edit?: TextChange): LinesModel => jsonlService.reparse!(previous, doc, edit)!;

const repoRoot = path.resolve(__dirname, '../../../..');
const corpus = path.resolve(repoRoot, '../shared/corpus');

const full = (text: string, version: number, maxLines?: number): LinesModel => jsonlService.parse({ uri: 'file:///edited.jsonl', version, text, maxLines });

function outline(items: OutlineItem[]): unknown[] {
  return items.map((item) => ({
    name: item.name, detail: item.detail, kind: item.kind, span: item.span, selection: item.selection, children: item.children && outline(item.children),
  }));
}

/** Everything a user sees of a model, at the given offsets: lines, diagnostics, outline, definitions, hovers. */
function observed(model: LinesModel, offsets: number[]): unknown {
  return {
    format: model.format,
    omittedLines: model.omittedLines,
    lines: model.lines.map((line) => [line.number, line.start, line.end, line.kind, line.errors.map((e) => [e.start, e.end, e.message])]),
    problems: jsonlService.validate(model, context),
    symbols: outline(jsonlService.symbols(model)),
    tools: [...jsonlService.calledTools!(model)],
    at: offsets.map((offset) => ({
      offset,
      definition: jsonlService.definition(model, offset),
      hover: jsonlService.hover(model, offset, context),
      highlights: jsonlService.highlights(model, offset),
    })),
  };
}

const snippets = [
  '\n', '\n\n', '\r\n', '\r', '"', '{', '}', '[', ']', ',', ':', 'x', '1', ' ', '\\', '\ufeff',
  '{"metadata": {"name": "inserted"}}\n', '\n{"metadata": {"name": "late"}}',
  '[{"role": "user", "content": "hi"}]\n',
  '{"call": {"call_id": "c9", "tool_name": "t"}, "result": {"call_id": "c9", "tool_name": "t", "status": "success"}}\n',
  '"tool_call_id": "call_0", ', '{"role": "tool", "tool_call_id": "call_1", "content": "ok"}, ',
];

/**
 * Applies `steps` random edits to text (insertions, deletions across lines, replacements, undo, the metadata line
 * added or removed), parsing each version incrementally from the last incremental model, and compares it with a full
 * parse of the same text.
 */
function checkEdits(name: string, text: string, seed: number, steps: number, maxLines?: number): void {
  const next = random(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)];
  const history: string[] = [];
  let model = full(text, 0, maxLines);
  for (let step = 1; step <= steps; step++) {
    const at = Math.floor(next() * (text.length + 1));
    const choice = next();
    let edited: string;
    if (choice < 0.3) edited = text.slice(0, at) + pick(snippets) + text.slice(at);
    else if (choice < 0.5) edited = text.slice(0, at) + text.slice(Math.min(text.length, at + 1 + Math.floor(next() * 3)));
    else if (choice < 0.6) edited = text.slice(0, at) + text.slice(Math.min(text.length, at + Math.floor(next() * 400)));
    else if (choice < 0.75) edited = text.slice(0, at) + pick(snippets) + text.slice(Math.min(text.length, at + Math.floor(next() * 20)));
    else if (choice < 0.85 && history.length > 0) edited = history.pop()!;
    else if (choice < 0.92) {
      edited = text.startsWith('{"metadata"') ? text.slice(text.indexOf('\n') + 1) : `{"metadata": {"name": "d${step}"}}\n${text}`;
    } else {
      // A whole line moved: copied after another one.
      const lineStart = text.lastIndexOf('\n', at - 1) + 1;
      const lineEnd = text.indexOf('\n', at) === -1 ? text.length : text.indexOf('\n', at);
      const target = text.indexOf('\n', Math.floor(next() * text.length));
      edited = target === -1 ? `${text}\n${text.slice(lineStart, lineEnd)}` : text.slice(0, target + 1) + text.slice(lineStart, lineEnd) + '\n' + text.slice(target + 1);
    }
    if (choice >= 0.75 && choice < 0.85 && history.length === 0) history.length = 0;
    else if (!(choice >= 0.75 && choice < 0.85)) history.push(text);
    text = edited;
    const change = changedRange(model.text, text);
    // Every other step gets the edit as the server records it: a range that covers the change, not always tightly.
    const widen = Math.floor(next() * 8);
    const given = step % 2 === 0 && change
      ? { start: Math.max(0, change.start - widen), oldEnd: Math.min(model.text.length, change.oldEnd + widen), newEnd: 0 }
      : undefined;
    if (given && change) given.newEnd = given.oldEnd + (change.newEnd - change.oldEnd);
    const incremental = reparse(model, { uri: 'file:///edited.jsonl', version: step, text, maxLines }, given);
    const offsets = [0, text.length, ...[0, 1, 2].map(() => Math.floor(next() * (text.length + 1)))];
    if (change) offsets.push(change.start, change.newEnd, Math.max(0, change.start - 1));
    // Annotation addresses and call ids: definitions and hovers that read other parts of their line.
    for (const key of ['"address": "', '"tool_call_id": "', '"call_id":"']) {
      const found = [...text.matchAll(new RegExp(key.replace(/ /g, ' ?'), 'g'))];
      if (found.length > 0) offsets.push(found[Math.floor(next() * found.length)].index! + key.length);
    }
    assert.deepEqual(observed(incremental, offsets), observed(full(text, step, maxLines), offsets), `${name}: seed ${seed}, step ${step}`);
    model = incremental;
  }
}

function generatedDataset(next: () => number, traces: number): string {
  const lines = ['{"metadata": {"name": "generated"}}'];
  for (let i = 0; i < traces; i++) {
    const calls = 1 + Math.floor(next() * 3);
    const events: unknown[] = [{ role: 'user', content: `question ${i}\nwith a "quote"` }];
    for (let c = 0; c < calls; c++) {
      events.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${c}`, type: 'function', function: { name: `tool_${c}`, arguments: JSON.stringify({ n: c, q: 'x' }) } }] });
      if (next() < 0.8) events.push({ role: 'tool', tool_call_id: `call_${c}`, content: `result ${c} café` });
    }
    if (next() < 0.5) lines.push(JSON.stringify(events));
    else {
      lines.push(JSON.stringify({
        index: i, messages: events,
        annotations: [
          { content: 'asked', address: 'messages.0.content:0-8' }, { content: 'call', address: `messages.1.tool_calls.0.function.name` },
          ...(next() < 0.3 ? [{ content: 'gone', address: 'messages.99.content' }, { content: 'long', address: 'messages.0.content:0-999' }, 'not an object'] : []),
        ],
      }));
    }
    if (next() < 0.1) lines.push('');
  }
  return lines.join(next() < 0.5 ? '\n' : '\r\n') + '\n';
}

function generatedLog(next: () => number, entries: number): string {
  const lines: string[] = [];
  for (let i = 0; i < entries; i++) {
    const id = `c${i}`;
    const status = next() < 0.7 ? 'success' : 'failure';
    const result = { call_id: next() < 0.9 ? id : `c${i + 1}`, tool_name: 'lookup', status, return_value: { n: i }, exception: status === 'failure' ? 'boom' : null, execution_time_ms: Math.round(next() * 100), retry_count: 0, timestamp: '2026-11-22T11:36:17.813319Z' };
    lines.push(JSON.stringify({ call: { call_id: id, tool_name: 'lookup', args: [i], kwargs: {}, timestamp: '2026-11-22T11:36:17.813113Z', metadata: {} }, result }));
  }
  return lines.join('\n');
}

test('incremental re-parse equals a full parse after thousands of random edits: generated datasets', () => {
  for (const seed of [1, 2, 3]) checkEdits('dataset', generatedDataset(random(seed), 12), seed, 500);
});

test('incremental re-parse equals a full parse while edits move a dataset across its line limit', () => {
  for (let seed = 20; seed < 30; seed++) {
    const text = generatedDataset(random(seed), 12);
    checkEdits('dataset at its line limit', text, seed, 30, text.split('\n').length + 2);
  }
});

test('incremental re-parse equals a full parse after thousands of random edits: generated agentguard logs', () => {
  for (const seed of [11, 12, 13]) checkEdits('agentguard log', generatedLog(random(seed), 15), seed, 500);
});

test('incremental re-parse equals a full parse: edits of the corpus JSON Lines files and corpus traces as a dataset', (t: TestContext) => {
  if (!existsSync(corpus)) {
    if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
    t.skip(`corpus not found at ${corpus}`);
    return;
  }
  const files = filesUnder(corpus, '.jsonl');
  assert.ok(files.length > 0, 'the corpus holds JSON Lines files');
  // Each step reads the whole file twice (incremental, then full): the multi-megabyte sessions get fewer steps.
  for (const [i, file] of files.entries()) {
    const text = readFileSync(file, 'utf8');
    checkEdits(file, text, 100 + i, Math.max(30, Math.min(400, Math.floor(4e7 / text.length))));
  }
  const traces = filesUnder(path.join(corpus, 'traces'), '.json').slice(0, 30).map((file) => readFileSync(file, 'utf8').trim().replace(/\r?\n[ \t]*/g, ''));
  checkEdits('corpus traces as a dataset', traces.join('\n'), 200, 400);
});

test('an edit that changes nothing, and a document at its line limit, still equal a full parse', () => {
  const text = generatedDataset(random(7), 5);
  const model = full(text, 1);
  assert.deepEqual(observed(reparse(model, { uri: 'file:///edited.jsonl', version: 2, text }), [5]), observed(full(text, 2), [5]));
  const limited = jsonlService.parse({ uri: 'file:///edited.jsonl', version: 1, text, maxLines: 3 });
  const edited = `\n${text}`;
  const after = reparse(limited, { uri: 'file:///edited.jsonl', version: 2, text: edited, maxLines: 3 });
  assert.equal(after.omittedLines, jsonlService.parse({ uri: 'file:///edited.jsonl', version: 2, text: edited, maxLines: 3 }).omittedLines);
  assert.equal(after.lines.length, 3);
});

