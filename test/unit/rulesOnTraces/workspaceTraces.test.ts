import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { defaultSettings } from '../../../server/src/common/languageService';
import { LineIndex } from '../../../server/src/common/lineIndex';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRulesOnTrace, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { TraceResults } from '../../../server/src/rulesOnTraces/results';
import { evaluateWorkspaceTraces } from '../../../server/src/rulesOnTraces/workspaceTraces';
import type { TraceLayout } from '../../../server/src/traceFormats';

const ruleUri = 'file:///w/leak.gr';
const policy = 'raise "password" if:\n    (m: Message)\n    "hunter2" in m.content\n';
const rule: RuleFile = { uri: ruleUri, model: guardrailService.parse({ uri: ruleUri, version: 1, text: policy }) as RuleModel };
/** In this thread, as the server's evaluation worker would. */
const evaluate = async (rules: RuleFile[], text: string, layout: TraceLayout, path: string) => evaluateRulesOnTrace(rules, text, layout, { workBudget: 1_000_000, path });

function lensTitle(results: TraceResults): string {
  return guardrailService.codeLenses!(rule.model, { settings: defaultSettings, guardrailResults: results })[0].title;
}

describe('rule file lenses over the workspace', () => {
  it('evaluates the trace files that are not open, through the disk limits, up to the limit it names when hit', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'lens-traces-'));
    const uri = (name: string) => pathToFileURL(join(folder, name)).toString();
    try {
      mkdirSync(join(folder, 'sub'));
      mkdirSync(join(folder, 'node_modules'));
      writeFileSync(join(folder, 'a.trace.json'), '[\n  {"role": "user", "content": "hunter2"}\n]');
      writeFileSync(join(folder, 'big.trace.json'), `[{"role": "user", "content": "hunter2 ${'x'.repeat(500)}"}]`);
      writeFileSync(join(folder, 'open.trace.json'), '[{"role": "user", "content": "hunter2"}]');
      writeFileSync(join(folder, 'sub', 'set.trace.jsonl'), '{"metadata": {}}\n[{"role": "user", "content": "fine"}]\n[{"role": "user", "content": "x hunter2"}]\n');
      writeFileSync(join(folder, 'sub', 'z.trace.json'), '[{"role": "user", "content": "hunter2"}]');
      writeFileSync(join(folder, 'node_modules', 'dep.trace.json'), '[{"role": "user", "content": "hunter2"}]');
      const limits = { maxTraces: 2, maxBytes: 300, folders: [folder] };
      const found = (await evaluateWorkspaceTraces([rule], new Set([uri('open.trace.json')]), limits, evaluate))!;
      assert.deepEqual([...found.entries.keys()], [uri('a.trace.json'), uri('sub/set.trace.jsonl')]);
      assert.equal(found.problems.length, 1);
      assert.match(found.problems[0], /big\.trace\.json: refused: .*agentTraces\.workspace\.maxFileSizeMB/);
      assert.equal(found.limitNotice, 'more than 2 trace files in the workspace: the first 2 counted (agentTraces.guardrails.maxLensTraces)');
      const set = found.entries.get(uri('sub/set.trace.jsonl'))!;
      assert.deepEqual(set.result.violations.map((v) => set.positions.positionAt(v.span.start)), [{ line: 2, character: 32 }]);

      const results = new TraceResults();
      const openText = '[{"role": "user", "content": "hunter2"}]';
      results.set(uri('open.trace.json'), evaluateRulesOnTrace([rule], openText, 'trace', { workBudget: 1_000_000 }), new LineIndex(openText));
      results.setWorkspace(found.entries, found.limitNotice);
      assert.equal(lensTitle(results), '3 violations in 3 traces (of 1 open trace file and 2 more trace files in the workspace) · more than 2 trace files in the workspace: the first 2 counted (agentTraces.guardrails.maxLensTraces)');

      const none = await evaluateWorkspaceTraces([rule], new Set(), { ...limits, maxTraces: 0 }, evaluate);
      assert.deepEqual([none!.entries.size, none!.limitNotice], [0, undefined]);
      let calls = 0;
      assert.equal(await evaluateWorkspaceTraces([rule], new Set(), limits, evaluate, () => ++calls > 1), undefined, 'a newer count supersedes this one');
      assert.equal(await evaluateWorkspaceTraces([rule], new Set(), limits, async () => undefined), undefined, 'an evaluation that was stopped stops the count');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('says which symbolic links it did not follow', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'lens-links-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'lens-elsewhere-'));
    try {
      writeFileSync(join(elsewhere, 'x.trace.json'), '[{"role": "user", "content": "hunter2"}]');
      symlinkSync(join(elsewhere, 'x.trace.json'), join(folder, 'linked.trace.json'));
      symlinkSync(join(elsewhere, 'x.trace.json'), join(folder, 'linked.gr')); // not a trace: not reported
      const found = (await evaluateWorkspaceTraces([rule], new Set(), { maxTraces: 10, maxBytes: 1000, folders: [folder] }, evaluate))!;
      assert.equal(found.entries.size, 0);
      assert.deepEqual(found.problems, [`${join(folder, 'linked.trace.json')}: a symbolic link, not followed (a folder search does not follow links)`]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('counts a trace without violations among the traces evaluated', () => {
    const results = new TraceResults();
    const text = '[{"role": "user", "content": "fine"}]';
    results.set('file:///w/clean.trace.json', evaluateRulesOnTrace([rule], text, 'trace', { workBudget: 1_000_000 }), new LineIndex(text));
    assert.equal(lensTitle(results), '0 violations in 0 traces (of 1 open trace file)');
  });
});
