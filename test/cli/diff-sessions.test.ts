import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { after, before, describe, it, type TestContext } from 'node:test';
import { corpusOrSkip as corpusPresent, runCli } from './cliRun';
import { filesUnder } from '../unit/testing';

const formats = resolve(__dirname, '../../..', '../shared/corpus/formats');
const corpus = join(formats, 'claude-code');
const session = join(corpus, 'ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl');
const examples = resolve(__dirname, '../../..', 'examples');

const run = runCli;
const corpusOrSkip = (t: TestContext) => corpusPresent(t, corpus);

interface Change {
  kind: 'added' | 'removed' | 'changed';
  left: number | null;
  right: number | null;
  fields?: { path: string; left?: unknown; right?: unknown }[];
  outcome?: string;
}

describe('agent-traces diff of a Claude Code session with its conversion (corpus)', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-diff-sessions-'));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds every corpus session and rollout, and the example conversation, the same as what agent-traces convert writes from it (exit 0)', (t) => {
    if (!corpusOrSkip(t)) return;
    const sessions = filesUnder(corpus, '.jsonl');
    const rollouts = filesUnder(join(formats, 'codex'), '.jsonl');
    assert.ok(sessions.length >= 8 && rollouts.length >= 2, `sessions found: ${sessions.length}, rollouts: ${rollouts.length}`);
    for (const file of [...sessions, ...rollouts, join(examples, 'conversations', 'refund-request.json')]) {
      const out = join(dir, `${basename(file).replace(/\.jsonl?$/, '')}.trace.json`);
      const converted = run(dir, 'convert', file, '--out', out);
      assert.equal(converted.code, 0, `${file}: ${converted.stderr}`);
      const events = (JSON.parse(readFileSync(out, 'utf8')) as unknown[]).length;
      const compared = run(dir, 'diff', file, out);
      assert.equal(compared.code, 0, `${file}: ${compared.stdout}${compared.stderr}`);
      assert.equal(compared.stdout, `${events} steps → ${events} steps: the same step for step\n`, file);
    }
  });

  it('aligns a real session with its conversion edited as another run would be: new ids, a step gone, parallel calls reordered, an argument changed', (t) => {
    if (!corpusOrSkip(t)) return;
    const out = join(dir, 'run2.trace.json');
    assert.equal(run(dir, 'convert', session, '--out', out).code, 0);
    const events = JSON.parse(readFileSync(out, 'utf8')) as Record<string, any>[];
    assert.equal(events[9].tool_calls[0].function.name, 'Bash');
    assert.equal(events[12].tool_calls[0].function.name, 'Read');
    assert.deepEqual([37, 38].map((i) => events[i].tool_calls[0].function.name), ['WebFetch', 'WebFetch']);
    // Another run: every call id regenerated, the two parallel fetches made (and answered) in the other order,
    // one Read and its output gone, a command changed.
    const edited = JSON.parse(JSON.stringify(events), (key, value) => ((key === 'id' || key === 'tool_call_id') && typeof value === 'string' ? `run2_${value}` : value)) as Record<string, any>[];
    [edited[37], edited[38]] = [edited[38], edited[37]];
    [edited[39], edited[40]] = [edited[40], edited[39]];
    const command = edited[9].tool_calls[0].function.arguments.command as string;
    edited[9].tool_calls[0].function.arguments.command = `${command} --verbose`;
    edited.splice(12, 2);
    writeFileSync(out, JSON.stringify(edited, null, 2));

    const json = run(dir, 'diff', session, out, '--json');
    assert.equal(json.code, 1, json.stderr);
    const { changes } = JSON.parse(json.stdout) as { changes: Change[] };
    assert.deepEqual(changes, [
      { kind: 'changed', left: 9, right: 9, fields: [{ path: 'tool_calls.0.function.arguments.command', left: command, right: `${command} --verbose` }] },
      { kind: 'removed', left: 12, right: null },
      { kind: 'removed', left: 13, right: null },
    ]);
    const plain = run(dir, 'diff', session, out);
    assert.match(plain.stdout, /^~ step 9 → 9 Bash: arguments\.command "/);
    assert.match(plain.stdout, /\n651 steps → 649 steps: 0 added, 2 removed, 1 changed \(\d+ parallel steps? in another order, not a change\)\n$/);
    // --ids shows what the alignment set aside: every call and output now names another id.
    const ids = JSON.parse(run(dir, 'diff', session, out, '--json', '--ids').stdout) as { changes: Change[] };
    assert.ok(ids.changes.filter((c) => c.fields?.some((f) => /(^|\.)(id|tool_call_id)$/.test(f.path))).length > 100);
  });
});
