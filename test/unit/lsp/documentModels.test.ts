import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultSettings } from '../../../server/src/common/languageService';
import { DocumentModels, problemsInSlices } from '../../../server/src/lsp/documentModels';
import { BudgetExceeded } from '../../../server/src/common/budget';
import { sampleTrace } from '../../../server/src/lsp/warmUp';
import { traceService } from '../../../server/src/trace';

const limits = () => ({ maxLines: 1000, maxFileSizeMB: 1, folders: [] });

describe('document models', () => {
  it('keeps a parse that throws for its version, as a model that reports it once', () => {
    const original = traceService.parse;
    let parses = 0;
    traceService.parse = () => {
      parses++;
      throw new Error('boom');
    };
    const logged: string[] = [];
    try {
      const models = new DocumentModels(limits, (message) => logged.push(message));
      const document = TextDocument.create('file:///a.trace.json', 'agent-trace', 1, '[]');
      const first = models.get(document)!;
      const second = models.get(document)!;
      assert.equal(parses, 1);
      assert.equal(first, second);
      assert.equal(logged.length, 1);
      assert.match(logged[0], /^\[parse\] file:\/\/\/a\.trace\.json@1: Error: boom/);
      assert.deepEqual(first.service.validate(first.model, { settings: defaultSettings }).map((p) => `${p.code} ${p.message}`), [
        'server/parse-failed This file could not be read by the language server (boom); the language server log has the details.',
      ]);
      assert.equal(first.service.hover(first.model, 0, { settings: defaultSettings }), null);
      models.get(TextDocument.update(document, [{ text: '[ ]' }], 2));
      assert.equal(parses, 2, 'a new version is parsed again');
    } finally {
      traceService.parse = original;
    }
  });

  it('reads a JSON Lines document up to the line limit and says how many lines were left out', () => {
    const models = new DocumentModels(() => ({ ...limits(), maxLines: 3 }));
    const document = TextDocument.create('file:///d.jsonl', 'agent-trace-jsonl', 1, '[]\n[]\n[]\n[]\n[{"role": 1}]\n');
    const parsed = models.get(document)!;
    assert.deepEqual(parsed.service.validate(parsed.model, { settings: defaultSettings }).map((p) => `${p.code} ${p.span.start}-${p.span.end} ${p.message}`), [
      'jsonl/too-many-lines 0-1 The last 3 lines were not read: at most 3 lines of a JSON Lines file are read (setting agentTraces.jsonl.maxLines).',
    ]);
    assert.equal(parsed.service.symbols(parsed.model).length, 3);
  });

  it('stops the check of a big trace at the pause that throws, keeping nothing of it (a newer check superseded it)', async () => {
    let text = sampleTrace(1600);
    text = text.replace('"role": "user"', '"role": "usr"');
    assert.ok(text.length >= 1_000_000, `${text.length} characters: a trace read in slices`);
    const models = new DocumentModels(limits);
    const parsed = (await models.getInSlices(TextDocument.create('file:///big.trace.json', 'agent-trace', 1, text)))!;
    assert.ok(parsed.inSlices);
    let pauses = 0;
    const superseded = async () => {
      pauses++;
      throw new BudgetExceeded('cancelled');
    };
    // Slices of 0 ms: the check pauses after its first step, however fast the machine.
    await assert.rejects(problemsInSlices(parsed, { settings: defaultSettings }, superseded, 0), BudgetExceeded);
    assert.equal(pauses, 1);
    assert.equal(parsed.problems, undefined);
    const problems = await problemsInSlices(parsed, { settings: defaultSettings });
    assert.deepEqual(problems.map((p) => p.code), ['trace/unknown-role']);
  });
});
