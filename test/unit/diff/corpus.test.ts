import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { diffTraces, isSame } from '../../../server/src/diff/diff';
import { changeRecords } from '../../../server/src/diff/report';
import { traceFileSource, type TraceSource } from '../../../server/src/diff/sources';
import { filesUnder } from '../testing';
import { regenerateIds } from './events';

const corpus = path.resolve(__dirname, '../../../..', '../shared/corpus');
const traces = path.join(corpus, 'traces');

/** The corpus is read in place; without it the tests skip with one line, except on CI where that is a failure. */
function corpusOrSkip(t: TestContext): boolean {
  if (existsSync(corpus)) return true;
  if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
  t.skip(`corpus not found at ${corpus}`);
  return false;
}

function source(file: string): TraceSource {
  const read = traceFileSource(readFileSync(path.join(traces, file), 'utf8'));
  assert.ok(read.ok, `${file}: ${read.ok ? '' : read.reason}`);
  return read.source;
}

function changes(leftFile: string, rightFile: string) {
  return changeRecords(diffTraces(source(leftFile).input, source(rightFile).input));
}

describe('diff on the corpus', () => {
  it('finds every trace the same as itself, and as itself with regenerated call ids', (t) => {
    if (!corpusOrSkip(t)) return;
    let compared = 0;
    for (const file of filesUnder(traces, '.json')) {
      const read = traceFileSource(readFileSync(file, 'utf8'));
      if (!read.ok) continue; // the two docs examples that are not JSON
      const events = read.source.input.values as unknown[];
      assert.ok(isSame(diffTraces(read.source.input, { format: 'events', values: structuredClone(events) })), file);
      assert.ok(isSame(diffTraces(read.source.input, { format: 'events', values: regenerateIds(events) })), `${file} with new ids`);
      compared++;
    }
    assert.ok(compared >= 70, `${compared} traces compared`);
  });

  it('compares two runs of one task (the meeting notes of the docs): what the tool read, then what was sent', (t) => {
    if (!corpusOrSkip(t)) return;
    const pii = 'docs-examples/019-pii-L60.json';
    // The same run, copied into three pages of the docs.
    assert.deepEqual(changes(pii, 'docs-examples/021-pii-L188.json'), []);
    assert.deepEqual(changes(pii, 'docs-examples/037-rules-L394.json'), []);
    // Another run: the notes name the client's contact at another domain.
    const domain = changes(pii, 'docs-examples/020-pii-L124.json');
    assert.deepEqual(domain.map((c) => [c.kind, c.left, c.right, c.fields!.map((f) => f.path)]), [['changed', 2, 2, ['content']]]);
    assert.match(String(domain[0].fields![0].right), /lily@bankofeurope\.com/);
    // A run whose notes carry a prompt injection instead of the card number.
    const injected = changes(pii, 'docs-examples/022-prompt-injections-L63.json');
    assert.deepEqual(injected.map((c) => [c.kind, c.left, c.right]), [['changed', 2, 2]]);
    assert.match(String(injected[0].fields![0].right), /Ignore all previous instructions/);
    // A run about cats: another read, and the e-mail's text sent under another argument.
    assert.deepEqual(changes(pii, 'docs-examples/047-sentence_similarity-L51.json').map((c) => [c.left, c.right, c.fields!.map((f) => f.path)]), [
      [2, 2, ['content']],
      [5, 5, ['function.arguments.text', 'function.arguments.body']],
    ]);
  });

  it('compares the Explorer playground runs of one task written in two places', (t) => {
    if (!corpusOrSkip(t)) return;
    assert.deepEqual(changes('explorer-playground/11-pii-leakage.json', 'docs-examples/019-pii-L60.json').map((c) => [c.kind, c.left, c.right]), [['changed', 2, 2]]);
    assert.deepEqual(changes('explorer-playground/03-indirect-prompt-injections.json', 'docs-examples/022-prompt-injections-L63.json'), []);
  });
});
