import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { context, where } from './helpers';
import { traceService } from '../../../server/src/trace';

// Built to out/test/unit/trace/: the repository root is four levels up.
const repoRoot = resolve(__dirname, '../../../..');
const corpus = resolve(repoRoot, '../shared/corpus');
const traces = join(corpus, 'traces');

/** What the official analyzer made of each file, from SOURCES.md: 'ok' or the JSON error text. */
function analyzerVerdicts(): Map<string, string> {
  const verdicts = new Map<string, string>();
  for (const line of readFileSync(join(traces, 'SOURCES.md'), 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 6 || !cells[1].endsWith('.json')) continue;
    verdicts.set(basename(cells[1]), cells[5]);
  }
  return verdicts;
}

test('corpus: traces the analyzer accepts get no error; broken JSON gets exactly its syntax errors', (t) => {
  if (!existsSync(traces)) {
    if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
    t.skip(`corpus not found at ${corpus}`);
    return;
  }
  const verdicts = analyzerVerdicts();
  let checked = 0;
  for (const folder of readdirSync(traces).filter((name) => !name.includes('.'))) {
    for (const name of readdirSync(join(traces, folder)).filter((n) => n.endsWith('.json'))) {
      const verdict = verdicts.get(name);
      assert.ok(verdict, `${name} is listed in SOURCES.md`);
      const text = readFileSync(join(traces, folder, name), 'utf8');
      const model = traceService.parse({ uri: name, version: 1, text });
      const problems = traceService.validate(model, context());
      const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.code} ${where(text, p.span)} ${p.span.start}`);
      if (verdict.startsWith('ok')) {
        assert.deepEqual(errors, [], `${folder}/${name}`);
        assert.deepEqual(problems.filter((p) => p.severity === 'warning' && p.code !== 'trace/duplicate-call-id'), [], `${folder}/${name}`);
      } else {
        // The analyzer's JSON error gives the character offset of the break ("(char 385)"); ours starts there too.
        const char = /\(char (\d+)\)/.exec(verdict)?.[1];
        assert.ok(char, `${name}: ${verdict}`);
        const line = Number(/line (\d+)/.exec(verdict)![1]) - 1;
        assert.deepEqual(errors, [`json/syntax ${line}:0-${line}:1 ${char}`], `${folder}/${name}`);
      }
      traceService.symbols(model);
      traceService.folding(model);
      checked++;
    }
  }
  assert.ok(checked >= 70, `checked ${checked} traces`);
});
