import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultSettings } from '../../../server/src/common/service';
import { DocumentModels } from '../../../server/src/documentModels';
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
});
