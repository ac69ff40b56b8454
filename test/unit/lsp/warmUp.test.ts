import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../../server/src/common/languageService';
import { traceService } from '../../../server/src/trace';
import { sampleTrace, typeInto } from '../../../server/src/lsp/warmUp';

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
});
