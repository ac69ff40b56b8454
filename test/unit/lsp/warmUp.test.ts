import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../../server/src/common/languageService';
import { traceService } from '../../../server/src/trace';
import { sampleSpans, sampleTrace, typeInto, warmUpTraceReading } from '../../../server/src/lsp/warmUp';
import { spansService, type SpansModel } from '../../../server/src/otel';
import { countContinuedHistories } from '../otel/samples';

describe('warming up the trace reader', () => {
  it('reads a well-formed trace with calls and their outputs, as a real one is read', () => {
    const model = traceService.parse({ uri: 'warm-up:trace', version: 0, text: sampleTrace(20) });
    assert.equal(model.events.length, 81);
    assert.equal(model.calls.length, 20);
    assert.ok(model.calls.every((call) => call.outputs.length === 1));
    assert.deepEqual(traceService.validate(model, { settings: defaultSettings }), []);
  });

  it('types into the trace as a user does: every edit is read incrementally and the last model is the full reading of the text', () => {
    const text = sampleTrace(20);
    const model = typeInto(text, 10);
    assert.ok(model, 'an edit was read in full');
    const full = traceService.parse({ uri: 'warm-up:trace', version: 0, text });
    assert.deepEqual(model.root, full.root);
    assert.equal(String(model.text), text);
    assert.deepEqual(traceService.validate(model, { settings: defaultSettings }), []);
  });

  it('reads a file of spans with a model span\'s tool call, the tool span that answers it and a history repeated, as a real one is read', () => {
    // Each run's second model span continues the first one's history (the reader's code for it is warmed up too).
    let model: SpansModel | undefined;
    const continuations = countContinuedHistories(() => (model = spansService.parse({ uri: 'warm-up:spans', version: 0, text: sampleSpans(5) })));
    assert.equal(continuations, 5);
    assert.ok(model);
    assert.equal(model.traces.length, 5);
    assert.deepEqual(model.traces.map((trace) => [trace.steps.length, trace.calls.length, trace.calls[0].outputs.length]), Array(5).fill([4, 1, 1]));
    // The second model span's history: the first's three messages and its answer, the repeated call a mention of it.
    assert.deepEqual(model.traces.map((trace) => [trace.steps[3].input.length, trace.steps[3].mentions.length]), Array(5).fill([4, 2]));
    assert.deepEqual(spansService.validate(model, { settings: defaultSettings }), []);
  });
});

describe('when the server warms up', () => {
  /** Resolves once `done` holds, checked every turn of the event loop, or rejects after 10 s. */
  const until = async (done: () => boolean) => {
    const deadline = Date.now() + 10_000;
    while (!done()) {
      assert.ok(Date.now() < deadline, 'timed out');
      await nextTurn();
    }
  };

  it('waits first for the documents the client opens at once, then runs every step of every round', async () => {
    let decoded = 0;
    warmUpTraceReading(() => decoded++, () => true, 300, 2);
    await nextTurn();
    assert.equal(decoded, 0, 'nothing ran before the delay');
    await until(() => decoded === 2);
  });

  it('stops at the first step after a document is wanted', async () => {
    let decoded = 0;
    let asked = 0;
    warmUpTraceReading(() => decoded++, () => ++asked <= 1, 0, 3);
    await until(() => asked === 2);
    for (let i = 0; i < 20; i++) await nextTurn();
    assert.equal(decoded, 1);
    assert.equal(asked, 2);
  });
});
