import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { context } from './helpers';
import { traceService } from '../../../server/src/trace';
import type { TraceModel } from '../../../server/src/trace/model';
import type { TextChange } from '../../../server/src/common/languageService';
import { EditorDocument } from '../../../server/src/lsp/editorDocument';
import { random } from '../testing';
import { CallLinker } from '../../../server/src/calls/links';

// Built to out/test/unit/trace/: the repository root is four levels up.
const repoRoot = resolve(__dirname, '../../../..');
const traces = resolve(repoRoot, '../shared/corpus/traces');

/** A trace with every kind of event and link, faults included, pretty-printed or on one line, array or object form. */
function generatedTrace(seed: number): string {
  const next = random(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)];
  const ids: string[] = [];
  const events: unknown[] = [];
  if (next() < 0.3) events.push({ metadata: { source: 'test' } });
  events.push({ role: 'system', content: 'You are "helpful".\n\tTools: ok' });
  const count = 4 + Math.floor(next() * 14);
  for (let i = 0; i < count; i++) {
    const r = next();
    if (r < 0.3) {
      const calls = [];
      for (let c = 0; c < 1 + Math.floor(next() * 2); c++) {
        const id = next() < 0.15 && ids.length > 0 ? pick(ids) : `call_${seed}_${i}_${c}`;
        ids.push(id);
        const args = { path: '/a/b.py', n: Math.floor(next() * 100), q: 'x"y\\z' };
        calls.push({ id, type: 'function', function: { name: pick(['read', 'send', 'run']), arguments: next() < 0.5 ? args : JSON.stringify(args) } });
      }
      events.push({ role: 'assistant', content: next() < 0.5 ? null : 'Calling', tool_calls: calls });
    } else if (r < 0.55) {
      const output: Record<string, unknown> = { role: 'tool', content: `result ${i}: "done"\n2: ok` };
      if (next() < 0.85) output.tool_call_id = ids.length > 0 && next() < 0.8 ? pick(ids) : `missing_${i}`;
      events.push(output);
    } else if (r < 0.65) {
      events.push({ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image_url', image_url: { url: 'https://x/y.png' } }] });
    } else if (r < 0.72) {
      events.push({ type: 'function', id: `top_${i}`, function: { name: 'top', arguments: '{"a": 1' } });
    } else if (r < 0.78) {
      events.push({ role: 'user', content: 'hi', extra_key: [1, 2, { deep: [true, false, null] }] });
    } else if (r < 0.82) {
      events.push(pick([42, 'a string event', null, [1, 2]]));
    } else {
      events.push({ role: pick(['user', 'assistant']), content: `message ${i} with \\u00e9 and "quotes"` });
    }
  }
  const trace = next() < 0.25 ? { messages: events, metadata: { run: seed } } : events;
  return next() < 0.7 ? JSON.stringify(trace, null, next() < 0.5 ? 2 : '\t') : JSON.stringify(trace);
}

interface Edit {
  start: number;
  end: number;
  insert: string;
  label: string;
}

/** What typing inside a value mostly inserts. */
const typed = ['x', '7', ' ', '\n', 'é', '\\\\', '-', '.', 'e'];
const pieces = ['"', '{', '}', '[', ']', ',', ':', '\\', '\n', ' ', 'x', '7', '"a"', ', ', '\\"', '\r\n', '\t', 'null', '},{', 'é'];

/** A random edit: an insertion, a deletion or a replacement of a few characters anywhere. */
function randomEdit(text: string, next: () => number): Edit {
  const start = Math.floor(next() * (text.length + 1));
  const r = next();
  const piece = () => pieces[Math.floor(next() * pieces.length)];
  const length = Math.min(text.length - start, 1 + Math.floor(next() * (next() < 0.9 ? 2 : 12)));
  if (r < 0.45) return { start, end: start, insert: piece(), label: 'insert' };
  if (r < 0.75) return { start, end: start + length, insert: '', label: 'delete' };
  return { start, end: start + length, insert: piece(), label: 'replace' };
}

/** An edit near a kind of place the benchmark edits: inside a string, a key, a number, between events. */
function aimedEdit(text: string, next: () => number): Edit | undefined {
  const patterns = [/"content": "/g, /"role"/g, /"n": \d/g, /\},\s*\{/g, /"tool_call_id": "/g, /"id": "/g];
  const pattern = patterns[Math.floor(next() * patterns.length)];
  const found = [...text.matchAll(pattern)];
  if (found.length === 0) return undefined;
  const match = found[Math.floor(next() * found.length)];
  const start = match.index! + 1 + Math.floor(next() * (match[0].length + 2));
  if (start > text.length) return undefined;
  const from = next() < 0.5 ? typed : pieces;
  const insert = from[Math.floor(next() * from.length)];
  return next() < 0.6 ? { start, end: start, insert, label: 'aimed insert' } : { start, end: Math.min(text.length, start + 1), insert: next() < 0.5 ? '' : insert, label: 'aimed replace' };
}

function apply(text: string, edit: Edit): string {
  return text.slice(0, edit.start) + edit.insert + text.slice(edit.end);
}

/** Offsets where the features are compared: every call id and tool_call_id, and a few random ones. */
function probes(model: TraceModel, next: () => number): number[] {
  const offsets: number[] = [];
  for (const call of model.calls) if (call.idField?.value) offsets.push(call.idField.value.start + 1);
  for (const event of model.events) {
    for (const f of event.fields) if (f.name === 'tool_call_id' && f.value) offsets.push(f.value.start + 1);
    if (event.kind === 'output' && event.implicit) offsets.push(event.value.start + 3);
  }
  for (let i = 0; i < 4; i++) offsets.push(Math.floor(next() * (model.text.length + 1)));
  return offsets;
}

const ctx = context();

/**
 * Every link of a model, by position: what each output answers (and whether implicitly or ambiguously), each call's
 * number and outputs, and the indexes by id. The features compare what they show; this compares what they read.
 */
function links(model: TraceModel): unknown {
  const byId = <T>(map: Map<string, T[]>, position: (item: T) => number) =>
    [...map].map(([id, list]) => [id, list.map(position)] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    events: model.events.map((event, i) => ({
      i, index: event.index, kind: event.kind, callId: event.callId, answers: event.answers?.index ?? null, implicit: event.implicit,
      ambiguous: event.ambiguous?.map((call) => call.index), calls: event.calls.map((call) => call.index),
    })),
    calls: model.calls.map((call, i) => ({ i, index: call.index, event: call.event.index, id: call.id, outputs: call.outputs.map((output) => output.index) })),
    outputs: model.outputs.map((output) => output.index),
    callsById: byId(model.callsById, (call) => call.index),
    outputsByCallId: byId(model.outputsByCallId, (output) => output.index),
  };
}

interface Run {
  edits: number;
  incremental: number;
  /** Incremental reads of a text with syntax errors (kept and moved). */
  broken: number;
}

/**
 * Applies `count` random edits (and undos) to `text`; after each, the model built incrementally from the previous
 * one must equal a full read of the new text in its tree, diagnostics, definitions, symbols and hovers.
 */
function editAndCompare(name: string, original: string, seed: number, count: number, run: Run): void {
  const next = random(seed);
  let text = original;
  let model = traceService.parse({ uri: name, version: 0, text });
  traceService.validate(model, ctx);
  // The editor's document, kept in chunks as the server keeps it: the incremental model reads through them.
  const chunkLength = [7, 64, 1000, undefined][seed % 4];
  let editor = EditorDocument.create(name, 'agent-trace', 0, text, chunkLength);
  const undo: Edit[] = [];
  for (let i = 1; i <= count; i++) {
    let edit: Edit | undefined;
    const r = next();
    // A broken text is read in full after every edit: undo more often then, as a user does, to come back to the
    // error-free texts the incremental path serves.
    if (undo.length > 0 && (r < 0.15 || (model.syntaxErrors.length > 0 && next() < 0.6))) edit = undo.pop()!;
    else if (r < 0.35) edit = aimedEdit(text, next);
    else if (r < 0.5 && model.syntaxErrors.length > 0) {
      // Next to a syntax error, where the reader's recovery decides where values end.
      const error = model.syntaxErrors[Math.floor(next() * model.syntaxErrors.length)];
      const start = Math.min(text.length, Math.max(0, [error.start, error.end, error.end + 1, error.start - 1][Math.floor(next() * 4)]));
      const insert = [' ', 'x', ',', '"', '}', ']', '{'][Math.floor(next() * 7)];
      edit = next() < 0.7 ? { start, end: start, insert, label: 'insert next to an error' } : { start, end: Math.min(text.length, start + 1), insert: '', label: 'delete next to an error' };
    }
    else if (r < 0.65 && model.events.length > 0) {
      // At an event's first or last character, where what the reader makes of the text next to it may change.
      const event = model.events[Math.floor(next() * model.events.length)].value;
      const start = [event.start, event.end, event.end - 1, event.start + 1][Math.floor(next() * 4)];
      const insert = [' ', '\n', ',', '"', '}', ']'][Math.floor(next() * 6)];
      edit = next() < 0.7 ? { start, end: start, insert, label: 'boundary insert' } : { start, end: Math.min(text.length, start + 1), insert: '', label: 'boundary delete' };
    }
    edit ??= randomEdit(text, next);
    const after = apply(text, edit);
    const inverse: Edit = { start: edit.start, end: edit.start + edit.insert.length, insert: text.slice(edit.start, edit.end), label: `undo of ${edit.label}` };
    if (!edit.label.startsWith('undo')) undo.push(inverse);
    const change: TextChange = { start: edit.start, oldEnd: edit.end, newEnd: edit.start + edit.insert.length };
    const doc = { uri: name, version: i, text: after };
    const range = { start: editor.positionAt(edit.start), end: editor.positionAt(edit.end) };
    // An offset inside a \r\n has no position of its own: the editor cannot send that edit, so it starts anew.
    if (editor.offsetAt(range.start) === edit.start && editor.offsetAt(range.end) === edit.end) EditorDocument.update(editor, [{ range, text: edit.insert }], i);
    else editor = EditorDocument.create(name, 'agent-trace', i, after, chunkLength);
    const source = editor.source();
    assert.equal(source.slice(0, source.length), after);
    const wasBroken = model.syntaxErrors.length > 0;
    const incremental = traceService.reparse(model, { ...doc, source }, change);
    const full = traceService.parse(doc);
    const where = `${name}, seed ${seed}, edit ${i}: ${edit.label} at ${edit.start}-${edit.end} of ${JSON.stringify(edit.insert)} `
      + `(text there before: ${JSON.stringify(text.slice(Math.max(0, edit.start - 20), edit.end + 20))})`;
    text = after;
    run.edits++;
    if (!incremental) {
      model = full;
      if (next() < 0.7) traceService.validate(model, ctx);
      continue;
    }
    run.incremental++;
    if (wasBroken) run.broken++;
    model = incremental;
    assert.deepStrictEqual(
      { root: incremental.root, folds: incremental.folds, depth: incremental.depth, errors: incremental.syntaxErrors },
      { root: full.root, folds: full.folds, depth: full.depth, errors: full.syntaxErrors }, `tree differs: ${where}`);
    assert.deepStrictEqual(links(incremental), links(full), `links differ: ${where}`);
    for (const event of incremental.events) {
      assert.equal(incremental.events[event.index], event, `event #${event.index} is not at its place: ${where}`);
      for (const call of event.calls) assert.equal(call.event, event, `a call of event #${event.index} belongs to another: ${where}`);
    }
    // Some versions go unchecked, as while typing faster than the validation delay: the next check carries over more.
    if (next() < 0.7) {
      assert.deepStrictEqual(traceService.validate(incremental, ctx), traceService.validate(full, ctx), `diagnostics differ: ${where}`);
    }
    assert.deepStrictEqual(traceService.symbols(incremental), traceService.symbols(full), `symbols differ: ${where}`);
    for (const offset of probes(full, next)) {
      assert.deepStrictEqual(traceService.definition(incremental, offset), traceService.definition(full, offset), `definition at ${offset} differs: ${where}`);
      assert.deepStrictEqual(traceService.hover(incremental, offset, ctx), traceService.hover(full, offset, ctx), `hover at ${offset} differs: ${where}`);
      assert.deepStrictEqual(traceService.references(incremental, offset, true), traceService.references(full, offset, true), `references at ${offset} differ: ${where}`);
    }
    assert.deepStrictEqual(traceService.folding(incremental), traceService.folding(full), `folding differs: ${where}`);
    assert.deepStrictEqual(traceService.codeLenses(incremental, ctx), traceService.codeLenses(full, ctx), `code lenses differ: ${where}`);
    const all = { start: 0, end: after.length };
    assert.deepStrictEqual(traceService.inlayHints(incremental, all, ctx), traceService.inlayHints(full, all, ctx), `inlay hints differ: ${where}`);
    // Offsets stand in for ranges: the graph's own content is what is compared.
    const toRange = (span: { start: number; end: number }) => ({ start: { line: 0, character: span.start }, end: { line: 0, character: span.end } });
    assert.deepStrictEqual(traceService.graph(incremental, { toRange }, ctx), traceService.graph(full, { toRange }, ctx), `graph differs: ${where}`);
  }
}

test('incremental re-read: thousands of random edits on generated traces give what a full read gives', (t) => {
  const run: Run = { edits: 0, incremental: 0, broken: 0 };
  for (let seed = 1; seed <= 40; seed++) editAndCompare(`generated-${seed}.trace.json`, generatedTrace(seed), seed, 120, run);
  assert.equal(run.edits, 4800);
  t.diagnostic(`${run.incremental} of ${run.edits} edits read incrementally, ${run.broken} of them in a text with syntax errors`);
  // The comparison proves something only when the incremental path is taken often.
  assert.ok(run.incremental > run.edits / 5, `only ${run.incremental} of ${run.edits} edits were read incrementally`);
  assert.ok(run.broken > 100, `only ${run.broken} incremental reads of broken texts`);
});

test('incremental re-read: random edits on the corpus traces give what a full read gives', (t) => {
  if (!existsSync(traces)) {
    if (process.env.CI) assert.fail(`corpus not found at ${traces}`);
    t.skip(`corpus not found at ${traces}`);
    return;
  }
  const run: Run = { edits: 0, incremental: 0, broken: 0 };
  let seed = 1000;
  for (const folder of readdirSync(traces).filter((name) => !name.includes('.'))) {
    for (const name of readdirSync(join(traces, folder)).filter((n) => n.endsWith('.json'))) {
      editAndCompare(`${folder}/${name}`, readFileSync(join(traces, folder, name), 'utf8'), seed++, 60, run);
    }
  }
  assert.ok(run.edits >= 1000, `${run.edits} edits`);
  t.diagnostic(`${run.incremental} of ${run.edits} edits read incrementally, ${run.broken} of them in a text with syntax errors`);
  assert.ok(run.incremental > run.edits / 5, `only ${run.incremental} of ${run.edits} edits were read incrementally`);
});

test('incremental re-read: an edit between events reads nothing again; one that breaks the structure reads it all', () => {
  const text = '[\n  {"role": "user", "content": "hi"},\n  {"role": "tool", "tool_call_id": "c1", "content": "x"}\n]';
  const model = traceService.parse({ uri: 'a', version: 1, text });
  const at = text.indexOf('},') + 2;
  const spaced = text.slice(0, at) + ' ' + text.slice(at);
  const read = traceService.reparse(model, { uri: 'a', version: 2, text: spaced }, { start: at, oldEnd: at, newEnd: at + 1 });
  assert.ok(read);
  assert.equal(read.events[1].value.start, spaced.indexOf('{"role": "tool"'));
  const again = traceService.parse({ uri: 'a', version: 2, text: spaced });
  for (const [insert, where] of [['"', spaced.indexOf('hi')], ['}', spaced.indexOf('hi') + 3], [',', at], ['{', at]] as const) {
    const broken = spaced.slice(0, where) + insert + spaced.slice(where);
    assert.equal(traceService.reparse(again, { uri: 'a', version: 3, text: broken }, { start: where, oldEnd: where, newEnd: where + 1 }), undefined, insert);
  }
});

test('incremental re-read: in a broken text, a value cut short by an error is not moved apart from its end', () => {
  const cases = [
    // A string running to the end of its line: a blank typed after it becomes part of it.
    ['[\n  {"role": "user", "content": "a"},\n  "open', '"open'.length],
    // An event closed by the mismatched bracket after it: a blank typed before the bracket lands inside the event.
    ['[\n  {"role": "user", "content": "a"},\n  {"role": "user" ]', '{"role": "user" '.length],
  ] as const;
  for (const [text, shift] of cases) {
    const at = text.lastIndexOf('\n  ') + 3 + shift;
    const model = traceService.parse({ uri: 'b', version: 1, text });
    assert.ok(model.syntaxErrors.length > 0);
    const typed = text.slice(0, at) + ' ' + text.slice(at);
    const read = traceService.reparse(model, { uri: 'b', version: 2, text: typed }, { start: at, oldEnd: at, newEnd: at + 1 });
    const full = traceService.parse({ uri: 'b', version: 2, text: typed });
    if (read) assert.deepStrictEqual({ root: read.root, errors: read.syntaxErrors }, { root: full.root, errors: full.syntaxErrors }, text);
  }
});

test('one linking rule: CallLinker relinking every id of a trace, its links cleared, gives the links of a full read', () => {
  let linked = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const model = traceService.parse({ uri: 'c', version: 1, text: generatedTrace(seed) });
    const full = links(model);
    const implicit = model.outputs.filter((output) => output.implicit);
    const anyLink = model.outputs.some((output) => output.answers);
    for (const output of model.outputs) {
      output.answers = null;
      output.ambiguous = undefined;
    }
    for (const call of model.calls) call.outputs = [];
    if (anyLink) assert.notDeepStrictEqual(links(model), full, `seed ${seed}: clearing changed no link`);
    CallLinker.relink(model, model.callsById.keys(), implicit);
    assert.deepStrictEqual(links(model), full, `seed ${seed}`);
    linked += model.outputs.filter((output) => output.answers).length;
  }
  assert.ok(linked > 300, `${linked} outputs linked`);
});

