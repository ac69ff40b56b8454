import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(cwd: string, ...args: string[]) {
  return runWithInput(cwd, '', ...args);
}

function runWithInput(cwd: string, input: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', input });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trim().split('\n') };
}

const notEvaluable = (what: string) =>
  `Rules cannot be evaluated on this trace: the Invariant analyzer reads text chunks (a string "text") and "image_url" objects, not ${what}; agent-traces eval reports the trace as failed`;

describe('the command line on the mistakes people make', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-edges-'));
    mkdirSync(join(dir, 'traces'));
    writeFileSync(join(dir, 'rules.gr'), 'raise "said hi" if:\n    (m: Message)\n    "hi" in m.content\n');
    writeFileSync(join(dir, 'typo.gr'), 'raise "x" if:\n    (call: ToolCal)\n    call is tool:send\n');
    writeFileSync(join(dir, 'traces', 'hi.trace.json'), '[\n  {"role": "user", "content": "hi there"}\n]\n');
    writeFileSync(join(dir, 'attachments.trace.json'), [
      '[',
      '  {"role": "user", "content": [{"type": "text", "text": "hi, see the file"}, {"type": "file", "file": {"file_id": "file-1"}}]},',
      '  {"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}]}',
      ']',
      '',
    ].join('\n'));
    writeFileSync(join(dir, 'args.trace.json'), [
      '[',
      '  {"role": "assistant", "content": null, "tool_calls": [',
      '    {"id": "c1", "type": "function", "function": {"name": "send", "arguments": "{\\"to\\": \\"bob\\"} {\\"cc\\": 1}"}}',
      '  ]},',
      '  {"role": "tool", "tool_call_id": "c1", "content": "sent"}',
      ']',
      '',
    ].join('\n'));
    // A trace as Invariant Explorer's API gives it, and a dataset line with the same fields.
    writeFileSync(join(dir, 'explorer.trace.json'), JSON.stringify({
      id: 'b7f0', index: 0, messages: [{ role: 'user', content: 'hi' }], dataset: 'd41c', user_id: 'u9', name: 'run 1',
      hierarchy_path: [], extra_metadata: { model: 'gpt-4o' }, time_created: '2025-01-02T03:04:05', annotations: [],
    }, null, 2));
    writeFileSync(join(dir, 'session.jsonl'), [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'hi' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] } },
    ].map((record) => JSON.stringify(record)).join('\n') + '\n');
    writeFileSync(join(dir, 'rules.tests.json'), JSON.stringify({ cases: [{ name: 'says nothing', trace: 'traces/hi.trace.json', expect: [] }] }));
    writeFileSync(join(dir, 'rules-changed.gr'), 'raise "said hi" if:\n    (m: Message)\n    "nobody" in m.content\n');
    writeFileSync(join(dir, 'explorer.jsonl'), `${JSON.stringify({
      id: 'b7f0', index: 0, messages: [{ role: 'user', content: 'hi' }], dataset: 'd41c', user_id: 'u9',
      extra_metadata: {}, time_created: '2025-01-02T03:04:05', annotations: [],
    })}\n`);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('each eval violation says which other elements it pairs with, and --unique prints each place once', () => {
    writeFileSync(join(dir, 'pairs.gr'), [
      'raise "payroll mentioned after reading mail" if:',
      '    (inbox: ToolOutput) -> (answer: Message)',
      '    inbox is tool:get_inbox',
      '    "payslip" in answer.content',
      '',
    ].join('\n'));
    writeFileSync(join(dir, 'pairs.trace.json'), [
      '[',
      '  {"role": "assistant", "content": null, "tool_calls": [{"id": "a", "type": "function", "function": {"name": "get_inbox", "arguments": {}}}]},',
      '  {"role": "tool", "tool_call_id": "a", "content": "3 mails"},',
      '  {"role": "assistant", "content": null, "tool_calls": [{"id": "b", "type": "function", "function": {"name": "get_inbox", "arguments": {}}}]},',
      '  {"role": "tool", "tool_call_id": "b", "content": "1 mail"},',
      '  {"role": "assistant", "content": "Your payslip is in."}',
      ']',
      '',
    ].join('\n'));
    const all = run(dir, 'eval', 'pairs.gr', 'pairs.trace.json');
    assert.equal(all.code, 1);
    assert.deepEqual(all.lines, [
      'pairs.trace.json:6:42 warning guardrails payroll mentioned after reading mail (with 3:3)',
      '  bound: inbox = messages.1 at pairs.trace.json:3:3, answer = messages.4 at pairs.trace.json:6:3',
      'pairs.trace.json:6:42 warning guardrails payroll mentioned after reading mail (with 5:3)',
      '  bound: inbox = messages.3 at pairs.trace.json:5:3, answer = messages.4 at pairs.trace.json:6:3',
      '1 trace in 1 file evaluated: 2 violations, 0 failed',
    ]);
    const unique = run(dir, 'eval', 'pairs.gr', 'pairs.trace.json', '--unique');
    assert.equal(unique.code, 1);
    assert.deepEqual(unique.lines, [
      'pairs.trace.json:6:42 warning guardrails payroll mentioned after reading mail (with 3:3, 5:3)',
      '1 trace in 1 file evaluated: 2 violations, 0 failed',
    ]);
    // --json keeps the analyzer's own ranges, which already say it (the answer's message holds the place: not repeated above)
    const json = JSON.parse(run(dir, 'eval', 'pairs.gr', 'pairs.trace.json', '--json').stdout);
    assert.deepEqual(json[0].errors.map((e: { ranges: string[] }) => e.ranges), [
      ['messages.1', 'messages.4', 'messages.4.content:5-12'],
      ['messages.3', 'messages.4', 'messages.4.content:5-12'],
    ]);
  });

  it('help, version, unknown commands and options: where they print and how they exit', () => {
    const version = JSON.parse(readFileSync(resolve(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version;
    const bare = run(dir);
    assert.equal(bare.code, 2, 'no command is bad usage');
    assert.equal(bare.stdout, '');
    assert.match(bare.stderr, /^Usage: agent-traces <command> \[options\]\n\nCommands:\n  check .*\n  eval .*\n  test .*\n  diff /);
    assert.match(bare.stderr, /Exit status \(the same for every command\):\n  0  nothing found/);
    const help = run(dir, '--help');
    assert.equal(help.code, 0);
    assert.equal(help.stderr, '');
    assert.equal(help.stdout, bare.stderr, 'the same overview, on standard output when asked for');
    for (const args of [['--version'], ['-v'], ['check', '--version'], ['eval', '-v'], ['diff', '--version'], ['check', 'traces', '-v']]) {
      const shown = run(dir, ...args);
      assert.deepEqual([shown.code, shown.stdout, shown.stderr], [0, `${version}\n`, ''], args.join(' '));
    }
    const typo = run(dir, 'chek', 'traces');
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /^agent-traces: unknown command 'chek'; did you mean 'check'\?\n\nUsage: agent-traces <command>/);
    const unknown = run(dir, 'lint', 'traces');
    assert.match(unknown.stderr, /^agent-traces: unknown command 'lint'\n\n/);
    for (const [command, prefix] of [['check', 'agent-traces'], ['eval', 'agent-traces eval'], ['diff', 'agent-traces diff']]) {
      const option = run(dir, command, '--jsno', 'rules.gr', join('traces', 'hi.trace.json'));
      assert.equal(option.code, 2, command);
      assert.equal(option.stdout, '', command);
      assert.ok(option.stderr.startsWith(`${prefix}: unknown option --jsno\n`), `${command}: ${option.stderr.slice(0, 80)}`);
    }
  });

  it('every command\'s help names the trace formats it reads', () => {
    const formats = [/Claude Code session/, /Codex rollout/, /Anthropic Messages/, /OpenAI Responses/, /Inspect AI log/, /OpenTelemetry/];
    for (const args of [['--help'], ['check', '--help'], ['eval', '--help'], ['convert', '--help'], ['diff', '--help']]) {
      const help = run(dir, ...args);
      assert.equal(help.code, 0, args.join(' '));
      // Line breaks fall anywhere in a paragraph: the names are looked for with the lines joined.
      const text = help.stdout.replace(/\s+/g, ' ');
      // diff reads text files only: an .eval archive is compared after agent-traces convert.
      for (const format of args[0] === 'diff' ? formats : [...formats, /\.eval\b/]) assert.match(text, format, `agent-traces ${args.join(' ')}`);
    }
  });

  it('check - reads standard input, as a trace unless --stdin-name names another kind of file', () => {
    const broken = '[\n  {"role": "tool", "tool_call_id": "call_9", "content": "done"}\n]\n';
    const piped = runWithInput(dir, broken, 'check', '-');
    assert.equal(piped.code, 1, piped.stderr);
    assert.deepEqual(piped.lines, [
      '<stdin>:2:36 error trace/unknown-call-id tool_call_id "call_9" names no tool call in this trace',
      '1 file checked: 1 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    // beside files, and named: the name decides the language and is the path printed
    const named = runWithInput(dir, 'raise "x" if:\n    (call: ToolCal)\n', 'check', 'traces', '-', '--stdin-name', 'piped.gr');
    assert.equal(named.code, 1);
    assert.deepEqual(named.lines, [
      "piped.gr:2:6 error gr/unknown-type Failed to resolve type ToolCal. Did you mean 'ToolCall'?",
      '2 files checked: 1 errors, 0 warnings, 0 infos, 0 hints',
    ]);
    const clean = runWithInput(dir, '[{"role": "user", "content": "hi"}]', 'check', '-', '--json');
    assert.equal(clean.code, 0);
    assert.deepEqual(JSON.parse(clean.stdout).map((r: { path: string; problems: unknown[] }) => [r.path, r.problems.length]), [['<stdin>', 0]]);
    // over the size limit: not read, an input not checked (exit 3)
    const big = runWithInput(dir, `[${'{"role": "user", "content": "hi"},'.repeat(40_000)}{"role": "user"}]`, 'check', '-', '--max-file-size', '1');
    assert.equal(big.code, 3);
    assert.match(big.lines[0], /^<stdin>: error: refused: standard input is over the 1(\.0)? MB limit \(setting --max-file-size\)$/);
    // usage mistakes
    assert.equal(run(dir, 'check', '-', '--fix').code, 2);
    assert.match(run(dir, 'check', '-', '--fix').stderr, /^agent-traces: --fix writes files: it cannot fix standard input/);
    assert.match(run(dir, 'check', 'traces', '--stdin-name', 'x.gr').stderr, /^agent-traces: --stdin-name names standard input: add - to check it/);
  });

  it('eval - evaluates standard input beside the traces named, as a trace unless --stdin-name says otherwise', () => {
    const trace = '[\n  {"role": "user", "content": "hi from a pipe"}\n]\n';
    const piped = runWithInput(dir, trace, 'eval', 'rules.gr', '-');
    assert.equal(piped.code, 1, piped.stderr);
    assert.deepEqual(piped.lines, ['<stdin>:2:32 warning guardrails said hi', '  bound: m = messages.0 at <stdin>:2:3', '1 trace in 1 file evaluated: 1 violation, 0 failed']);
    const beside = runWithInput(dir, trace, 'eval', 'rules.gr', 'traces', '-');
    assert.deepEqual(beside.lines, [
      '<stdin>:2:32 warning guardrails said hi',
      '  bound: m = messages.0 at <stdin>:2:3',
      `${join('traces', 'hi.trace.json')}:2:32 warning guardrails said hi`,
      `  bound: m = messages.0 at ${join('traces', 'hi.trace.json')}:2:3`,
      '2 traces in 2 files evaluated: 2 violations, 0 failed',
    ]);
    // a dataset, by its name: each line a trace
    const dataset = runWithInput(dir, '[{"role": "user", "content": "no"}]\n[{"role": "user", "content": "hi"}]\n', 'eval', 'rules.gr', '-', '--stdin-name', 'runs.jsonl');
    assert.deepEqual(dataset.lines, ['runs.jsonl:2:31 warning guardrails said hi', '  bound: m = messages.0 at runs.jsonl:2:2', '2 traces in 1 file evaluated: 1 violation, 0 failed']);
    const rulesFromStdin = run(dir, 'eval', '-', 'traces');
    assert.equal(rulesFromStdin.code, 2);
    assert.match(rulesFromStdin.stderr, /^agent-traces eval: the rule file is read from a file: name it first/);
  });

  it('eval with the trace named before the rule file says so, and evaluates nothing', () => {
    const result = run(dir, 'eval', join('traces', 'hi.trace.json'), 'rules.gr');
    assert.equal(result.code, 2);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, `agent-traces eval: the rule file comes first: agent-traces eval rules.gr ${join('traces', 'hi.trace.json')}\n`);
  });

  it('eval with a trace in the rule file\'s place, and no rule file at all, says the file holds JSON', () => {
    const result = run(dir, 'eval', join('traces', 'hi.trace.json'), 'attachments.trace.json');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^agent-traces eval: traces\/hi\.trace\.json holds JSON, not rules: name the rule file first, then the traces/);
  });

  it('check warns on the chunks the analyzer cannot read, and eval fails on the same trace: they never disagree silently', () => {
    const checked = run(dir, 'check', 'attachments.trace.json');
    assert.equal(checked.code, 0, 'warnings are not findings');
    assert.deepEqual(checked.lines, [
      `attachments.trace.json:2:87 warning trace/chunk-not-evaluable ${notEvaluable('a "file" chunk without a string "text"')}`,
      `attachments.trace.json:3:41 warning trace/chunk-not-evaluable ${notEvaluable('an "input_audio" chunk without a string "text"')}`,
      '1 file checked: 0 errors, 2 warnings, 0 infos, 0 hints',
    ]);
    const evaluated = run(dir, 'eval', 'rules.gr', 'attachments.trace.json');
    assert.equal(evaluated.code, 3);
    assert.match(evaluated.lines[0], /^attachments\.trace\.json: error guardrails evaluation failed: .*neither a text nor an image chunk/);
  });

  it('a misspelled type gets a did-you-mean, in check and in eval', () => {
    const checked = run(dir, 'check', 'typo.gr');
    assert.equal(checked.code, 1);
    assert.equal(checked.lines[0], "typo.gr:2:6 error gr/unknown-type Failed to resolve type ToolCal. Did you mean 'ToolCall'?");
    const evaluated = run(dir, 'eval', 'typo.gr', join('traces', 'hi.trace.json'));
    assert.equal(evaluated.code, 2);
    assert.match(evaluated.stderr, /^typo\.gr:2:6 error guardrails The rules cannot be loaded: Failed to resolve type ToolCal\. Did you mean 'ToolCall'\?$/m);
  });

  it('Invariant Explorer\'s own fields (dataset, user_id, extra_metadata, time_created) are known keys', () => {
    const result = run(dir, 'check', 'explorer.trace.json', 'explorer.jsonl');
    assert.equal(result.code, 0, result.stdout);
    assert.deepEqual(result.lines, ['2 files checked: 0 errors, 0 warnings, 0 infos, 0 hints']);
    // a key Explorer does not write is still pointed out
    writeFileSync(join(dir, 'other.trace.json'), '{"messages": [], "dataset_id": 1}');
    assert.match(run(dir, 'check', 'other.trace.json').lines[0], /hint trace\/unknown-key Unknown key "dataset_id" in the trace object/);
  });

  it('a broken arguments string is worded as a string, not as a file', () => {
    const result = run(dir, 'check', 'args.trace.json');
    assert.equal(result.code, 1);
    assert.equal(result.lines[0], 'args.trace.json:3:99 error trace/arguments-json arguments: the JSON in this string breaks here: End of string expected: the arguments string holds one JSON object');
  });

  it('paths are printed as they were given: absolute stays absolute, relative stays relative', () => {
    const absoluteFile = join(dir, 'traces', 'hi.trace.json');
    const elsewhere = mkdtempSync(join(tmpdir(), 'agent-traces-cwd-'));
    try {
      const named = run(elsewhere, 'eval', join(dir, 'rules.gr'), absoluteFile);
      assert.equal(named.lines[0], `${absoluteFile}:2:32 warning guardrails said hi`);
      const folder = run(elsewhere, 'eval', join(dir, 'rules.gr'), join(dir, 'traces'));
      assert.equal(folder.lines[0], `${absoluteFile}:2:32 warning guardrails said hi`);
      const glob = run(elsewhere, 'check', join(dir, 'typo.gr'), `${dir}/traces/*.json`);
      assert.equal(glob.lines[0], `${join(dir, 'typo.gr')}:2:6 error gr/unknown-type Failed to resolve type ToolCal. Did you mean 'ToolCall'?`);
      const unreadable = run(elsewhere, 'check', join(dir, 'missing.trace.json'));
      assert.match(unreadable.stderr, new RegExp(`nothing to check matches ${join(dir, 'missing.trace.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
      // Every command: diff, convert (input and output), test (the manifest and the traces it names), eval --compare.
      const missing = join(dir, 'missing.trace.json');
      assert.ok(run(elsewhere, 'diff', absoluteFile, missing).stderr.startsWith(`agent-traces diff: ${missing}: cannot read`));
      assert.equal(run(elsewhere, 'convert', join(dir, 'session.jsonl')).stdout, `${join(dir, 'session.trace.json')}: 1 trace, 2 events\n`);
      const tested = run(elsewhere, 'test', join(dir, 'rules.tests.json'));
      assert.equal(tested.code, 1);
      assert.ok(tested.stdout.includes(`${absoluteFile}:2:3`), tested.stdout);
      assert.ok(!tested.stdout.includes('..'), tested.stdout);
      const flipped = run(elsewhere, 'eval', '--compare', join(dir, 'rules.gr'), join(dir, 'rules-changed.gr'), join(dir, 'traces'));
      assert.equal(flipped.code, 1);
      assert.ok(flipped.stdout.includes(absoluteFile), flipped.stdout);
      assert.ok(!flipped.stdout.includes('..'), flipped.stdout);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
    const relativeNamed = run(dir, 'check', 'typo.gr', 'traces');
    assert.equal(relativeNamed.lines[0], "typo.gr:2:6 error gr/unknown-type Failed to resolve type ToolCal. Did you mean 'ToolCall'?");
    const relativeEval = run(join(dir, 'traces'), 'eval', join('..', 'rules.gr'), 'hi.trace.json');
    assert.equal(relativeEval.lines[0], 'hi.trace.json:2:32 warning guardrails said hi');
    assert.equal(run(dir, 'convert', 'session.jsonl', '--out', 'copy.trace.json').stdout, 'copy.trace.json: 1 trace, 2 events\n');
    assert.ok(run(dir, 'test', 'rules.tests.json').stdout.includes('traces/hi.trace.json:2:3'));
  });
});
