import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { ModelPreparation, preparePauseMs } from '../../../server/src/lsp/modelPreparation';
import { guardrailService } from '../../../server/src/guardrail';
import { traceService } from '../../../server/src/trace';

const limits = () => ({ maxLines: 1000, maxFileSizeMB: 100, folders: [] });

/** Counts the parses of a service while `run` runs (the service object is restored after). */
function countingParses(service: { parse: (...args: never[]) => unknown }, run: (parses: () => number) => void): void {
  const original = service.parse;
  let parses = 0;
  service.parse = ((...args: never[]) => {
    parses++;
    return original.apply(service, args);
  }) as typeof service.parse;
  try {
    run(() => parses);
  } finally {
    service.parse = original;
  }
}

describe('reading an edited document again once typing pauses', () => {
  it('reads the version typed last once typing has paused, and the check then finds it ready', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    countingParses(guardrailService, (parses) => {
      const models = new DocumentModels(limits);
      const preparation = new ModelPreparation(models, () => assert.fail('nothing to log'));
      const first = TextDocument.create('file:///r.gr', 'guardrail', 1, 'x := 1\n');
      preparation.schedule(first, 200);
      t.mock.timers.tick(preparePauseMs - 1);
      const second = TextDocument.update(first, [{ text: 'x := 12\n' }], 2);
      preparation.schedule(second, 200);
      t.mock.timers.tick(preparePauseMs - 1);
      assert.equal(parses(), 0, 'no pause yet');
      t.mock.timers.tick(1);
      assert.equal(parses(), 1, 'the pause reads the latest version, once');
      const parsed = models.get(second)!;
      assert.equal(parses(), 1, 'the check reuses it');
      assert.equal(parsed.version, 2);
    });
  });

  it('does nothing when the check comes as soon as a pause would, for a closed document, or for a big trace read in slices', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    countingParses(traceService, (parses) => {
      const models = new DocumentModels(limits);
      const preparation = new ModelPreparation(models, () => assert.fail('nothing to log'));
      const small = TextDocument.create('file:///a.trace.json', 'agent-trace', 2, '[{"role": "user", "content": "hi"}]');
      preparation.schedule(small, preparePauseMs);
      t.mock.timers.tick(preparePauseMs);
      assert.equal(parses(), 0, 'a check due at the pause');
      preparation.schedule(small, 200);
      preparation.cancel(small.uri);
      t.mock.timers.tick(preparePauseMs);
      assert.equal(parses(), 0, 'closed');
      const big = TextDocument.create('file:///b.trace.json', 'agent-trace', 2, `[{"role": "user", "content": "${'x'.repeat(1_000_000)}"}]`);
      preparation.schedule(big, 200);
      t.mock.timers.tick(preparePauseMs);
      assert.equal(parses(), 0, 'read in slices when its check runs');
      preparation.schedule(small, 200);
      t.mock.timers.tick(preparePauseMs);
      assert.equal(parses(), 1, 'a small trace is read');
    });
  });
});
