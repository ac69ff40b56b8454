import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

describe('agent-traces eval', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-eval-'));
    writeFileSync(join(dir, 'secret.gr'), 'raise PolicyViolation("secret word", msg) if:\n    (msg: Message)\n    "secret" in msg.content\n');
    writeFileSync(join(dir, 'param.gr'), 'raise "too many" if:\n    (call: ToolCall)\n    call is tool:send\n    call.function.arguments.n > input.limit\n');
    writeFileSync(join(dir, 'pii.gr'), 'from invariant.detectors import pii\n\nraise "pii" if:\n    (m: Message)\n    len(pii(m.content)) > 0\n\nraise "hello" if:\n    (m: Message)\n    "hi" in m.content\n');
    writeFileSync(join(dir, 'broken.gr'), 'raise "x" if:\n    (m: Message\n');
    writeFileSync(join(dir, 'a.trace.json'), [
      '[',
      '  {"role": "user", "content": "say \\"secret\\" now"},',
      '  {"role": "user", "content": "😀 secret"}',
      ']',
      '',
    ].join('\n'));
    writeFileSync(join(dir, 'calls.trace.json'), '[\n  {"role": "assistant", "content": null, "tool_calls": [\n    {"id": "1", "type": "function", "function": {"name": "send", "arguments": "{\\"n\\": 7}"}}\n  ]}\n]\n');
    writeFileSync(join(dir, 'set.jsonl'), '{"metadata": {"name": "set"}}\n{"messages": [{"role": "user", "content": "no"}]}\n{"messages": [{"role": "user", "content": "a secret"}]}\n');
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reports a trace it may not read (a FIFO) as failed instead of waiting on it, and escapes control characters', () => {
    const sub = mkdtempSync(join(dir, 'hostile-'));
    execFileSync('mkfifo', [join(sub, 'pipe.trace.json')]);
    writeFileSync(join(sub, 'esc.gr'), 'raise "a\u001b[2Kb" if:\n    (m: Message)\n    "x" in m.content\n');
    writeFileSync(join(sub, 'x.trace.json'), '[{"role": "user", "content": "x"}]');
    const { code, stdout } = run(sub, 'eval', 'esc.gr', 'pipe.trace.json', 'x.trace.json');
    assert.equal(code, 4, 'a violation and an input not read');
    assert.ok(stdout.includes('pipe.trace.json: error guardrails evaluation failed: not a regular file or folder'), stdout);
    assert.ok(stdout.includes('x.trace.json:1:31 warning guardrails a\\u001b[2Kb'), stdout);
    assert.ok(!stdout.includes('\u001b'), 'no raw ESC reaches the terminal');
  });

  it('prints each violation at the exact characters, through escapes and code points, and exits 1', () => {
    const result = run(dir, 'eval', 'secret.gr', 'a.trace.json', 'set.jsonl');
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.lines, [
      'a.trace.json:2:38 warning guardrails secret word',
      '  bound: msg = messages.0 at a.trace.json:2:3',
      'a.trace.json:3:35 warning guardrails secret word',
      '  bound: msg = messages.1 at a.trace.json:3:3',
      'set.jsonl:3:46 warning guardrails secret word',
      '  bound: msg = messages.0 at set.jsonl:3:15',
      '3 traces in 2 files evaluated: 3 violations, 0 failed',
    ]);
  });

  it('prints official addresses, keys and file ranges with --json, one entry per trace (dataset lines numbered, metadata lines skipped)', () => {
    const result = run(dir, 'eval', 'secret.gr', 'a.trace.json', 'set.jsonl', '--json');
    assert.equal(result.code, 1, result.stderr);
    const reports = JSON.parse(result.stdout);
    assert.deepEqual(reports.map((r: { file: string; line?: number }) => [r.file, r.line]), [['a.trace.json', undefined], ['set.jsonl', 2], ['set.jsonl', 3]]);
    const first = reports[0].errors[1];
    assert.equal(first.message, 'secret word');
    assert.equal(first.key, '(0, (1,))');
    assert.deepEqual(first.ranges, ['messages.1', 'messages.1.content:2-8']);
    assert.deepEqual(first.bindings, { msg: 'messages.1' });
    assert.deepEqual(first.range, { start: { line: 3, column: 35 }, end: { line: 3, column: 41 } });
    assert.equal(first.args[1].content, '😀 secret');
    assert.equal(first.args[1].metadata.trace_idx, 1);
    assert.equal(reports[0].error, null);
    assert.deepEqual(reports[1].errors, []);
  });

  it('evaluates a Codex rollout as its items convert, with the violation on the rollout\'s own characters', () => {
    const prompt = '{"timestamp":"2026-11-02T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"a secret"}]}}';
    writeFileSync(join(dir, 'rollout.jsonl'), [
      '{"timestamp":"2026-11-02T10:00:00.000Z","type":"session_meta","payload":{"id":"r1","cwd":"/work","originator":"codex_cli_rs","cli_version":"0.77.0"}}',
      prompt,
      // The UI event repeating the prompt is not converted: the violation is found once.
      '{"timestamp":"2026-11-02T10:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"a secret"}}',
      '',
    ].join('\n'));
    const result = run(dir, 'eval', 'secret.gr', 'rollout.jsonl');
    assert.equal(result.code, 1, result.stdout + result.stderr);
    // The word the rule found, and the message item it is in.
    assert.deepEqual(result.lines, [
      `rollout.jsonl:2:${prompt.indexOf('secret"') + 1} warning guardrails secret word`,
      `  bound: msg = messages.0 at rollout.jsonl:2:${prompt.indexOf('{"type":"message"') + 1}`,
      '1 trace in 1 file evaluated: 1 violation, 0 failed',
    ]);
  });

  it('reads --param values as JSON, else as strings', () => {
    const violated = run(dir, 'eval', 'param.gr', 'calls.trace.json', '--param', 'limit=5');
    assert.equal(violated.code, 1, violated.stderr);
    assert.deepEqual(violated.lines, [
      'calls.trace.json:3:5 warning guardrails too many',
      '  bound: call = messages.0.tool_calls.0 at calls.trace.json:3:5',
      '1 trace in 1 file evaluated: 1 violation, 0 failed',
    ]);
    const clean = run(dir, 'eval', 'param.gr', 'calls.trace.json', '--param', 'limit=10');
    assert.equal(clean.code, 0);
    const text = run(dir, 'eval', 'param.gr', 'calls.trace.json', '--param', 'limit=five');
    assert.equal(text.code, 3);
    assert.match(text.stdout, /TypeError: '>' not supported between instances of 'int' and 'str'/);
  });

  it('fails with the cause on the rule line and exits 3 when the analyzer would raise', () => {
    const result = run(dir, 'eval', 'param.gr', 'calls.trace.json');
    assert.equal(result.code, 3);
    assert.deepEqual(result.lines, [
      "calls.trace.json: error guardrails evaluation failed: param.gr:4:5: Evaluation failed at line 4 (rule 1): MissingPolicyParameter: Missing Policy Parameter: 'limit' (policy relies on `input.limit`), which is required for evaluation of a rule.",
      '1 trace in 1 file evaluated: 0 violations, 1 failed',
    ]);
  });

  it('reports a rule that needs a model once, as not evaluated, and runs the others (exit 3: those traces are not fully evaluated)', () => {
    const result = run(dir, 'eval', 'pii.gr', 'a.trace.json', 'set.jsonl');
    assert.equal(result.code, 3, result.stderr);
    assert.deepEqual(result.lines, [
      'pii.gr:3:1 information guardrails Rule 1 is not evaluated: it calls pii, which needs the Presidio PII model, which the local evaluator does not run',
      '3 traces in 2 files evaluated: 0 violations, 0 failed, 3 with a rule not evaluated',
    ]);
  });

  it('never runs a module that can act on the machine: the rule is not evaluated, named, and the run exits 3 (4 beside violations)', () => {
    const sub = mkdtempSync(join(dir, 'modules-'));
    const marker = join(sub, 'ran').replace(/\\/g, '/');
    writeFileSync(join(sub, 'os.gr'), `import os\nimport json\n\nraise "ran" if:\n    (m: Message)\n    os.system("touch ${marker}") == 0\n\nraise "parsed" if:\n    (m: Message)\n    json.loads(m.content)["n"] > 1\n`);
    writeFileSync(join(sub, 'one.trace.json'), '[{"role": "user", "content": "{\\"n\\": 1}"}]\n');
    writeFileSync(join(sub, 'two.trace.json'), '[{"role": "user", "content": "{\\"n\\": 2}"}]\n');
    const notice = 'os.gr:4:1 information guardrails Rule 1 is not evaluated: it calls os.system, which could act on the machine or the network (module os): the local evaluator never runs it, where the official analyzer would';
    const clean = run(sub, 'eval', 'os.gr', 'one.trace.json');
    assert.equal(clean.code, 3, clean.stderr);
    assert.deepEqual(clean.lines, [notice, '1 trace in 1 file evaluated: 0 violations, 0 failed, 1 with a rule not evaluated']);
    const found = run(sub, 'eval', 'os.gr', 'one.trace.json', 'two.trace.json');
    assert.equal(found.code, 4, found.stderr);
    assert.deepEqual(found.lines, [notice, 'two.trace.json:1:2 warning guardrails parsed', '  bound: m = messages.0 at two.trace.json:1:2', '2 traces in 2 files evaluated: 1 violation, 0 failed, 2 with a rule not evaluated']);
    assert.equal(existsSync(marker), false);
  });

  it("refuses a rule file that calls Python's eval: it does not load, the message says why, nothing runs (exit 2)", () => {
    const sub = mkdtempSync(join(dir, 'eval-'));
    const marker = join(sub, 'ran').replace(/\\/g, '/');
    writeFileSync(join(sub, 'eval.gr'), `raise "ran" if:\n    (m: Message)\n    eval("__import__('os').system('touch ${marker}')") == 0\n`);
    writeFileSync(join(sub, 'one.trace.json'), '[{"role": "user", "content": "hi"}]\n');
    const result = run(sub, 'eval', 'eval.gr', 'one.trace.json');
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /eval\.gr:3:5 error guardrails The rules cannot be loaded: Failed to resolve identifier eval \(Python's eval is not part of the rule language: it runs any Python code, which rules never do\)/);
    assert.equal(existsSync(marker), false);
  });

  it('reads values that hold no trace as the editor does: a trace file is reported, a dataset line skipped, a messages that is no list fails', () => {
    const sub = mkdtempSync(join(dir, 'values-'));
    writeFileSync(join(sub, 'meta.trace.json'), '{"metadata": {"name": "x"}}\n');
    writeFileSync(join(sub, 'odd.jsonl'), '{"metadata": {}}\n{"messages": 5}\n[{"role": "user", "content": "a secret"}]\n');
    const result = run(sub, 'eval', join('..', 'secret.gr'), 'meta.trace.json', 'odd.jsonl');
    assert.equal(result.code, 4);
    assert.deepEqual(result.lines, [
      'meta.trace.json: error guardrails evaluation failed: not evaluated: it holds no trace (a list of events, or an object with messages)',
      "odd.jsonl:2: error guardrails evaluation failed: The trace cannot be read as the analyzer reads it: the trace does not fit the analyzer's input schema: a trace is a list of events",
      'odd.jsonl:3:33 warning guardrails secret word',
      '  bound: msg = messages.0 at odd.jsonl:3:2',
      '3 traces in 2 files evaluated: 1 violation, 2 failed',
    ]);
  });

  it('decides what holds traces as the editor does: by name, and for a .jsonl by its first line', () => {
    const sub = mkdtempSync(join(dir, 'kinds-'));
    const secretLine = '[{"role": "user", "content": "a secret"}]';
    // Another JSON Lines file (its first line is no trace, dataset row or log entry) that happens to hold a trace later.
    writeFileSync(join(sub, 'notes.jsonl'), `{"note": "from the run"}\n${secretLine}\n`);
    // Trace text in a file the editor does not read as a trace.
    writeFileSync(join(sub, 'copy.txt'), `${secretLine}\n`);
    // A plain .json is a trace file to the editor.
    writeFileSync(join(sub, 'plain.json'), `${secretLine}\n`);
    const result = run(sub, 'eval', join('..', 'secret.gr'), 'notes.jsonl', 'copy.txt', 'plain.json');
    assert.equal(result.code, 4, result.stderr);
    const notTraces = 'error guardrails evaluation failed: not evaluated: not a trace file, a dataset or a conversation of a format read here (by its name, and for .jsonl and .json by its content, as the editor decides)';
    assert.deepEqual(result.lines, [
      `notes.jsonl: ${notTraces}`,
      `copy.txt: ${notTraces}`,
      'plain.json:1:33 warning guardrails secret word',
      '  bound: msg = messages.0 at plain.json:1:2',
      '3 traces in 3 files evaluated: 1 violation, 2 failed',
    ]);
  });

  it('places a violation without ranges on the first line of its trace', () => {
    const sub = mkdtempSync(join(dir, 'whole-'));
    writeFileSync(join(sub, 'always.gr'), 'raise "always" if:\n    (m: Message)\n');
    writeFileSync(join(sub, 't.trace.json'), '[\n  {"role": "user", "content": "x"}\n]\n');
    const reports = JSON.parse(run(sub, 'eval', 'always.gr', 't.trace.json', '--json').stdout);
    assert.deepEqual(reports[0].errors.map((e: { range: unknown }) => e.range), [{ start: { line: 1, column: 1 }, end: { line: 1, column: 2 } }]);
  });

  it('reports a rule file the analyzer would not load once, not once per trace of a dataset, and evaluates nothing', () => {
    const sub = mkdtempSync(join(dir, 'unloadable-'));
    writeFileSync(join(sub, 'typo.gr'), 'raise "x" if:\n    (out: Outputt)\n');
    writeFileSync(join(sub, 'three.jsonl'), '[{"role": "user", "content": "a"}]\n[{"role": "user", "content": "b"}]\n{"messages": [{"role": "user", "content": "c"}]}\n');
    const result = run(sub, 'eval', 'typo.gr', 'three.jsonl');
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.deepEqual(result.stderr.trim().split('\n'), [
      'typo.gr:2:6 error guardrails The rules cannot be loaded: Failed to resolve type Outputt',
      'agent-traces eval: typo.gr cannot be loaded; nothing was evaluated',
    ]);
  });

  it('exits 3 when a file cannot be read and nothing was found in the others, 4 when something was, 3 when nothing matches', () => {
    const sub = mkdtempSync(join(dir, 'partial-'));
    execFileSync('mkfifo', [join(sub, 'pipe.trace.json')]);
    writeFileSync(join(sub, 'clean.trace.json'), '[{"role": "user", "content": "nothing here"}]');
    writeFileSync(join(sub, 'secret.trace.json'), '[{"role": "user", "content": "a secret"}]');
    const rules = join('..', 'secret.gr');
    assert.equal(run(sub, 'eval', rules, 'pipe.trace.json', 'clean.trace.json').code, 3);
    assert.equal(run(sub, 'eval', rules, 'pipe.trace.json', 'secret.trace.json').code, 4);
    assert.equal(run(sub, 'eval', rules, 'missing.trace.json', 'secret.trace.json').code, 4, 'a name that matches nothing is an input not read');
    assert.equal(run(sub, 'eval', rules, 'missing/*.trace.json').code, 3);
  });

  it('prints the exit-code table in --help', () => {
    const help = run(dir, 'eval', '--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^ {2}4 {2}findings, and some inputs could not be read or evaluated$/m);
  });

  it('exits 2 on usage errors and on a rule file with syntax errors', () => {
    const usage = run(dir, 'eval', 'secret.gr');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /name a rule file and at least one trace/);
    const broken = run(dir, 'eval', 'broken.gr', 'a.trace.json');
    assert.equal(broken.code, 2);
    assert.match(broken.stderr, /broken\.gr:2:\d+ error gr\/syntax/);
    assert.match(broken.stderr, /has syntax errors; nothing was evaluated/);
    const unknown = run(dir, 'eval', 'secret.gr', 'a.trace.json', '--nope');
    assert.equal(unknown.code, 2);
  });
});
