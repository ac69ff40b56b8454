import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { BudgetExceeded, type Budget } from '../../../server/src/common/budget';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { jsonlService, type LinesModel } from '../../../server/src/jsonl';
import { readSettings } from '../../../server/src/settings';
import { context } from './helpers';

const trace = (i: number) => `[{"role": "user", "content": "q${i}"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c${i}", "type": "function", "function": {"name": "t", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c${i}", "content": "ok"}]`;
const dataset = (count: number) => Array.from({ length: count }, (_, i) => trace(i)).join('\n');
const entry = (i: number) => `{"call": {"call_id": "c${i}", "tool_name": "t", "args": [], "kwargs": {}, "timestamp": "2024-01-01T00:00:00Z"}, "result": {"call_id": "c${i}", "tool_name": "t", "status": "success", "execution_time_ms": 1}}`;

/** A budget cancelled after its `checks`-th look (the parse looks every few hundred steps), counting the looks. */
function cancelledAfter(checks: number): Budget & { looks: number } {
  return {
    looks: 0,
    get isCancellationRequested() {
      return ++this.looks > checks;
    },
  };
}

describe('JSON Lines limits with settings', () => {
  it('reads agentTraces.jsonl.maxOutlineEntries and cachedLineModels, defaults for anything else', () => {
    assert.deepEqual([readSettings({}).jsonlMaxOutlineEntries, readSettings({}).jsonlCachedLineModels], [10_000, 64]);
    const set = readSettings({ jsonl: { maxOutlineEntries: 3, cachedLineModels: 2.5 } });
    assert.deepEqual([set.jsonlMaxOutlineEntries, set.jsonlCachedLineModels], [3, 2]);
    const wrong = readSettings({ jsonl: { maxOutlineEntries: 0, cachedLineModels: 'many' } });
    assert.deepEqual([wrong.jsonlMaxOutlineEntries, wrong.jsonlCachedLineModels], [10_000, 64]);
  });

  it('the outline lists maxOutlineEntries traces or calls, then one entry that says how many more there are', () => {
    const model = jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: dataset(5), maxOutlineEntries: 2 });
    const items = jsonlService.symbols(model);
    assert.deepEqual(items.map((item) => item.name), ['Trace 1', 'Trace 2', '3 more traces are not listed: the outline lists the first 2']);
    assert.equal(items[2].detail, 'setting agentTraces.jsonl.maxOutlineEntries');
    assert.deepEqual(items[2].span, { start: model.lines[2].start, end: model.lines[4].end });
    assert.equal(jsonlService.symbols(jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: dataset(5) })).length, 5);

    const log = Array.from({ length: 4 }, (_, i) => entry(i)).join('\n');
    const calls = jsonlService.symbols(jsonlService.parse({ uri: 'file:///l.jsonl', version: 1, text: log, maxOutlineEntries: 3 }));
    assert.deepEqual(calls.map((item) => item.name), ['#1 t', '#2 t', '#3 t', '1 more calls are not listed: the outline lists the first 3']);
  });

  it('keeps cachedLineModels per-line trace models, the most recently used', () => {
    const walk = (model: LinesModel) => {
      jsonlService.symbols(model); // visits every trace line's model
      return model.traceModels.size;
    };
    assert.equal(walk(jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: dataset(5), cachedLineModels: 2 })), 2);
    assert.equal(walk(jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: dataset(5) })), 5);
    // Answers do not depend on the cache: a hover on a line whose model was dropped reads it again.
    const small = jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: dataset(5), cachedLineModels: 1 });
    const big = jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: dataset(5) });
    const offset = small.text.indexOf('"c0"', small.text.indexOf('tool_call_id')) + 1;
    walk(small);
    assert.deepEqual(jsonlService.definition(small, offset), jsonlService.definition(big, offset));
    assert.deepEqual(jsonlService.hover(small, offset, context), jsonlService.hover(big, offset, context));
    assert.equal(jsonlService.definition(big, offset).length, 1);
  });

  it('the server reads a document again when either setting changes, with the new limit', () => {
    let limits = { maxLines: 1000, maxFileSizeMB: 1, folders: [], maxOutlineEntries: 10_000, cachedLineModels: 64 };
    const models = new DocumentModels(() => limits);
    const document = TextDocument.create('file:///d.jsonl', 'agent-trace-jsonl', 1, dataset(5));
    const first = models.get(document)!;
    assert.equal(models.get(document), first, 'the same version with the same limits is parsed once');
    limits = { ...limits, maxOutlineEntries: 1 };
    const second = models.get(document)!;
    assert.notEqual(second, first);
    assert.equal(second.service.symbols(second.model).length, 2);
    limits = { ...limits, cachedLineModels: 3 };
    const third = models.get(document)!;
    assert.equal((third.model as LinesModel).traceModels.capacity, 3);
  });
});

describe('JSON Lines parsing under a request budget', () => {
  const big = dataset(20_000);

  it('stops between lines as soon as the request is cancelled', () => {
    const budget = cancelledAfter(3);
    assert.throws(() => jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: big, budget }), (error) => error instanceof BudgetExceeded && error.reason === 'cancelled');
    // About 256 lines between two looks: the fourth look comes long before the 20,000th line.
    assert.equal(budget.looks, 4);
  });

  it('stops inside a huge line: the trace parser looks at the budget while it reads', () => {
    const events = Array.from({ length: 50_000 }, (_, i) => `{"role": "user", "content": "m${i}"}`).join(', ');
    const budget = cancelledAfter(10);
    assert.throws(() => jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: `[${events}]`, budget }), BudgetExceeded);
    assert.equal(budget.looks, 11);
  });

  it('stops when its time budget has run out', () => {
    assert.throws(
      () => jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: big, budget: { isCancellationRequested: false, deadline: Date.now() - 1 } }),
      (error) => error instanceof BudgetExceeded && error.reason === 'time',
    );
  });

  it('stops while counting the lines past the line limit', () => {
    const budget = cancelledAfter(2);
    assert.throws(() => jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: '[]\n'.repeat(100_000), maxLines: 10, budget }), BudgetExceeded);
  });

  it('the outline of a dataset or an agentguard log stops as soon as the request is cancelled, and answers in full afterwards', () => {
    const model = jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text: dataset(3_000) });
    const budget = cancelledAfter(3);
    assert.throws(() => jsonlService.symbols(model, budget), BudgetExceeded);
    assert.equal(budget.looks, 4);
    assert.equal(jsonlService.symbols(model).length, 3_000);
    const log = jsonlService.parse({ uri: 'file:///l.jsonl', version: 1, text: Array.from({ length: 3_000 }, (_, i) => entry(i)).join('\n') });
    assert.throws(() => jsonlService.symbols(log, cancelledAfter(3)), BudgetExceeded);
    assert.equal(jsonlService.symbols(log).length, 3_000);
  });

  it('an edit that pastes lines past the line limit does not read them: they are counted, as in a full read', () => {
    const text = dataset(5);
    const previous = jsonlService.parse({ uri: 'file:///d.jsonl', version: 1, text, maxLines: 8 });
    const pasted = `${text.slice(0, 10)}${'[]\n'.repeat(100_000)}${text.slice(10)}`;
    const budget = cancelledAfter(Number.POSITIVE_INFINITY);
    const after = jsonlService.reparse!(previous, { uri: 'file:///d.jsonl', version: 2, text: pasted, maxLines: 8, budget }, undefined)!;
    // Each line read looks at the budget at least once (its trace parse does); counting looks once per 256 lines.
    assert.ok(budget.looks < 1_000, `${budget.looks} looks`);
    assert.deepEqual([after.lines.length, after.omittedLines], [8, 100_000 + 5 - 8]);
  });

  it('a stopped parse is not kept: the next request reads the whole document, and an edit re-reads from the last whole model', () => {
    const models = new DocumentModels(() => ({ maxLines: 250_000, maxFileSizeMB: 1, folders: [] }));
    const document = TextDocument.create('file:///d.jsonl', 'agent-trace-jsonl', 1, big);
    assert.throws(() => models.get(document, cancelledAfter(5)), BudgetExceeded);
    const parsed = models.get(document)!;
    assert.equal((parsed.model as LinesModel).lines.length, 20_000);
    assert.deepEqual(parsed.service.validate(parsed.model, context), []);

    const edited = TextDocument.update(document, [{ range: { start: { line: 10_000, character: 1 }, end: { line: 10_000, character: 1 } }, text: '\n' }], 2);
    assert.throws(() => models.get(edited, cancelledAfter(5)), BudgetExceeded);
    const original = jsonlService.parse;
    let fullParses = 0;
    jsonlService.parse = (doc) => (fullParses++, original(doc));
    let after;
    try {
      after = models.get(edited)!;
    } finally {
      jsonlService.parse = original;
    }
    assert.equal(fullParses, 0, 'the edited version is read from the previous model, not in full');
    assert.equal(models.get(edited), after);
    const full = jsonlService.parse({ uri: edited.uri, version: 2, text: edited.getText() });
    assert.deepEqual(after.service.validate(after.model, context), jsonlService.validate(full, context));
    assert.equal((after.model as LinesModel).lines.length, 20_001);
  });
});
