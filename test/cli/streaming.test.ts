import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cli, corpusOrSkip, runCli } from './cliRun';
import { chunkBytes, lineChunks } from '../../server/src/cli/streamedInputs';
import { repeatSession } from '../../bench/generateSession';

const corpus = resolve(__dirname, '../../..', '../shared/corpus');

/** Dataset line `index`: a call and its output; every 7th output says `rm -rf`, which the rule below reports. */
function traceLine(index: number): string {
  const output = `${index % 7 === 0 ? 'rm -rf /tmp/cache' : 'ok'} ${'ö'.repeat(index % 13)} ${'output text '.repeat(40)}`;
  return JSON.stringify({
    index,
    messages: [
      { role: 'user', content: `question ${index}` },
      { role: 'assistant', content: null, tool_calls: [{ id: `c${index}`, type: 'function', function: { name: 'run', arguments: { n: index } } }] },
      { role: 'tool', tool_call_id: `c${index}`, content: output },
      { role: 'assistant', content: null, tool_calls: [{ id: `d${index}`, type: 'function', function: { name: 'read_file', arguments: { n: index } } }] },
      { role: 'tool', tool_call_id: `d${index}`, content: `line ${index}` },
    ],
  });
}

function dataset(traces: number, broken: number[] = []): string {
  const lines = ['{"metadata": {"name": "streamed"}}'];
  for (let i = 0; i < traces; i++) lines.push(broken.includes(lines.length + 1) ? '{"messages": [ not json' : traceLine(i));
  return `${lines.join('\n')}\n`;
}

const flowRule = 'raise "deletion flows into a call" if:\n    (out: ToolOutput) -> (call: ToolCall)\n    "rm -rf" in out.content\n    call.function.name == "read_file"\n';

describe('streamed inputs: lines in chunks', () => {
  async function* pieces(text: string, size: number): AsyncGenerator<Buffer> {
    const bytes = Buffer.from(text, 'utf8');
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }

  it('gives every line once, numbered as in the file, in chunks of whole lines, a character split between reads kept whole', async () => {
    const text = dataset(4000);
    const lines = text.split('\n');
    let expectedLine = 1;
    let joined = '';
    for await (const chunk of lineChunks(pieces(text, 4093), { maxBytes: 1 << 20 })) {
      assert.equal(chunk.firstLine, expectedLine);
      assert.ok(chunk.text.endsWith('\n'));
      assert.ok(Buffer.byteLength(chunk.text) < chunkBytes + 4093 + 2000, 'a chunk is about chunkBytes');
      expectedLine += chunk.text.split('\n').length - 1;
      joined += chunk.text;
    }
    assert.equal(joined, text);
    assert.equal(expectedLine, lines.length);
  });

  it('leaves out a line over the limit without holding it, and the lines of other shards as empty lines', async () => {
    const text = `a\n${'x'.repeat(300_000)}\nb\nc`;
    const chunks = [];
    for await (const chunk of lineChunks(pieces(text, 1000), { maxBytes: 100_000, keepsLine: (line) => line !== 3 })) chunks.push(chunk);
    assert.deepEqual(chunks.map((c) => [c.text, c.firstLine, c.overlong]), [['a\n\n\nc', 1, [2]]]);
  });
});

describe('agent-traces eval and check on datasets as streams', () => {
  let folder: string;
  let big: string;
  let rules: string;
  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'streaming-cli-'));
    big = join(folder, 'big.jsonl');
    // About 4 MB: several chunks, and over a --max-file-size of 1.
    writeFileSync(big, dataset(5000, [2500]));
    rules = join(folder, 'flow.gr');
    writeFileSync(rules, flowRule);
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('reads a dataset larger than --max-file-size as a stream, and reports a line that is not JSON in the middle and goes on (exit 4)', () => {
    const ran = runCli(folder, 'eval', rules, 'big.jsonl', '--max-file-size', '1');
    assert.equal(ran.code, 4, ran.stderr);
    const lines = ran.stdout.trim().split('\n');
    assert.equal(lines.at(-1), '5000 traces in 1 file evaluated: 715 violations, 1 failed');
    assert.match(ran.stdout, /^big\.jsonl:2500: error guardrails evaluation failed: not valid JSON/m);
    // The trace of index i is on line i + 2 (after the metadata row; line 2500 stands for the trace of index 2498).
    const violationLines = lines.filter((line) => line.includes('deletion flows')).map((line) => Number(/^big\.jsonl:(\d+):/.exec(line)![1]));
    const expected = [...Array(5000).keys()].filter((i) => i % 7 === 0 && i + 2 !== 2500).map((i) => i + 2);
    assert.deepEqual(violationLines, expected);
    const checked = runCli(folder, 'check', 'big.jsonl', '--max-file-size', '1');
    assert.equal(checked.code, 1);
    assert.match(checked.stdout, /^big\.jsonl:2500:\d+ error jsonl\/syntax .*line 2500 is not valid JSON/m);
    assert.match(checked.stdout, /^1 file checked: 3 errors, 0 warnings/m);
    assert.doesNotMatch(checked.stdout, /^big\.jsonl:(?!2500:)/m);
  });

  it('checks the rules between lines over the whole stream, not within a chunk: metadata, kinds of trace, indexes', () => {
    // Lines 2..3001 hold the traces of index 0..2999 (several chunks); then what breaks the rules between lines.
    const lines = dataset(3000).trimEnd().split('\n');
    lines.push('{"metadata": {"name": "again"}}', traceLine(5), JSON.stringify([{ role: 'user', content: 'a raw event list' }]));
    writeFileSync(join(folder, 'rules-between-lines.jsonl'), `${lines.join('\n')}\n`);
    const checked = runCli(folder, 'check', 'rules-between-lines.jsonl');
    assert.equal(checked.code, 1, checked.stderr);
    const reported = checked.stdout.trim().split('\n').filter((line) => line.startsWith('rules-between-lines.jsonl:'));
    assert.deepEqual(reported.map((line) => line.replace(/^rules-between-lines\.jsonl:(\d+):\d+ /, '$1 ')), [
      '3002 error jsonl/metadata-repeated The metadata row can appear at most once in the file (it is already on line 1).',
      '3003 error jsonl/index-duplicate Duplicate index found: 5 in the file (first used on line 7).',
      '3004 error jsonl/mixed-kinds The file cannot contain both raw event lists and annotated event lists: this line is a raw event list, line 2 is an annotated event list.',
    ]);
  });

  it('keeps at most --max-indexes indexes from chunk to chunk, and says at which line it stopped (jsonl/too-many-indexes)', () => {
    // Lines 2..3001 hold index 0..2999 (about 8 chunks); line 3002 repeats index 5, line 3003 index 2500.
    const lines = dataset(3000).trimEnd().split('\n');
    lines.push(traceLine(5), traceLine(2500));
    writeFileSync(join(folder, 'indexes.jsonl'), `${lines.join('\n')}\n`);
    const reported = (...options: string[]) => {
      const checked = runCli(folder, 'check', 'indexes.jsonl', ...options);
      assert.equal(checked.code, 1, checked.stderr);
      return checked.stdout.trim().split('\n').filter((line) => line.startsWith('indexes.jsonl:')).map((line) => line.replace(/^indexes\.jsonl:(\d+):\d+ /, '$1 '));
    };
    assert.deepEqual(reported(), [
      '3002 error jsonl/index-duplicate Duplicate index found: 5 in the file (first used on line 7).',
      '3003 error jsonl/index-duplicate Duplicate index found: 2500 in the file (first used on line 2502).',
    ]);
    assert.deepEqual(reported('--max-indexes', '100'), [
      '102 information jsonl/too-many-indexes The first 100 indexes of the file are remembered, not this one nor those after it: a later line that repeats one of them is reported only when both lines are read together (at most 100 indexes are kept: setting --max-indexes).',
      '3002 error jsonl/index-duplicate Duplicate index found: 5 in the file (first used on line 7).',
    ]);
  });

  it('prints the same with --jobs 1 and --jobs 3, in lines and in JSON', () => {
    for (const form of [[], ['--json'], ['--json-lines', '--unique']]) {
      const one = runCli(folder, 'eval', rules, 'big.jsonl', '--jobs', '1', ...form);
      const three = runCli(folder, 'eval', rules, 'big.jsonl', '--jobs', '3', ...form);
      assert.equal(one.code, 4);
      assert.equal(three.stdout, one.stdout);
      assert.equal(three.code, one.code);
    }
  });

  it('prints the same with and without the prefilter for any --jobs, whatever the lines hold', () => {
    // Several chunks of traces, among them lines the prefilter must read in full or leave as they were.
    const call = (name: string) => ({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name, arguments: '{}' } }] });
    const tricky = [
      JSON.stringify([{ role: 'tool', content: 'rm -rf /' }, call('read_file')]).replace('rm -rf', 'rm \\u002drf'), // a violation spelled with an escape
      JSON.stringify([{ role: 'tool', content: [{ type: 'image', image_url: { url: 'data:' } }] }, call('read_file')]),
      `\uFEFF${JSON.stringify([{ role: 'tool', content: 'rm -rf' }, call('read_file')])}`,
      `${JSON.stringify([{ role: 'tool', content: 'ok — ✓ 😀' }, call('read_file')])}\r`,
      `[${'['.repeat(600)}${']'.repeat(600)}]`,
      JSON.stringify([{ role: 'tool', content: 3 }]),
      JSON.stringify([{ type: 'function', function: { name: 'read_file', arguments: '{' } }]),
      '',
      'not json',
    ];
    const lines = dataset(1500).trimEnd().split('\n');
    const bytes = Buffer.concat([
      Buffer.from(`${lines.slice(0, 700).join('\n')}\n${tricky.join('\n')}\n`),
      Buffer.from([0x7b, 0x22, 0x6d, 0xff, 0x22, 0x3a, 0x31, 0x7d, 0x0a]), // {"m\xff":1}: not UTF-8, in a chunk read in full
      Buffer.from(`${lines.slice(700).join('\n')}\n`),
    ]);
    writeFileSync(join(folder, 'tricky.jsonl'), bytes);
    for (const form of [[], ['--json'], ['--json-lines']]) {
      const full = runCli(folder, 'eval', rules, 'tricky.jsonl', '--no-prefilter', '--jobs', '1', ...form);
      assert.equal(full.code, 4, full.stderr);
      for (const jobs of ['1', '3']) {
        const filtered = runCli(folder, 'eval', rules, 'tricky.jsonl', '--jobs', jobs, ...form);
        assert.equal(filtered.stdout, full.stdout, `${form.join(' ')} --jobs ${jobs}`);
        assert.equal(filtered.code, full.code);
      }
    }
    const summary = runCli(folder, 'eval', rules, 'tricky.jsonl').stdout.trim().split('\n').at(-1);
    assert.equal(summary, '1508 traces in 1 file evaluated: 216 violations, 5 failed');
  });

  it('prints the same with --jobs 1 and --jobs 2 over the corpus', (t) => {
    if (!corpusOrSkip(t, corpus)) return;
    const anyCall = join(folder, 'calls.gr');
    writeFileSync(anyCall, 'raise "a call" if:\n    (call: ToolCall)\n\nraise "an output after a call" if:\n    (call: ToolCall) -> (out: ToolOutput)\n');
    const one = runCli(corpus, 'eval', anyCall, 'traces', 'formats', 'agentguard', '--jobs', '1', '--json');
    const two = runCli(corpus, 'eval', anyCall, 'traces', 'formats', 'agentguard', '--jobs', '2', '--json');
    assert.ok((JSON.parse(one.stdout) as unknown[]).length > 20);
    assert.equal(two.stdout, one.stdout);
    assert.equal(two.code, one.code);
  });

  it('--json is one valid JSON array and --json-lines one object per line, with the same entries', () => {
    const json = runCli(folder, 'eval', rules, 'big.jsonl', '--json');
    const lines = runCli(folder, 'eval', rules, 'big.jsonl', '--json-lines');
    const entries = JSON.parse(json.stdout) as { line: number; errors: unknown[] }[];
    assert.equal(entries.length, 5000);
    assert.deepEqual(lines.stdout.trim().split('\n').map((line) => JSON.parse(line)), entries);
    const checkJson = runCli(folder, 'check', 'big.jsonl', '--json');
    const checkLines = runCli(folder, 'check', 'big.jsonl', '--json-lines');
    assert.deepEqual(checkLines.stdout.trim().split('\n').map((line) => JSON.parse(line)), JSON.parse(checkJson.stdout));
  });

  it('--shard i/n for n = 1 to 4: the shards together print what one run prints', () => {
    const sorted = (text: string) => text.trim().split('\n').filter((line) => line !== '').sort();
    const other = join(folder, 'other.trace.json');
    writeFileSync(other, JSON.stringify([{ role: 'tool', content: 'rm -rf /' }, { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'read_file', arguments: {} } }] }]));
    const whole = runCli(folder, 'eval', rules, 'big.jsonl', 'other.trace.json', '--json-lines');
    const wholeCheck = runCli(folder, 'check', 'big.jsonl', 'other.trace.json', '--json-lines', '--max-problems', '100000');
    const problems = (text: string) => sorted(text).flatMap((line) => {
      const entry = JSON.parse(line) as { path: string; problems: { line: number; code: string; message: string }[] };
      return entry.problems.map((p) => `${entry.path}:${p.line} ${p.code} ${p.message}`);
    }).sort();
    for (let count = 1; count <= 4; count++) {
      const shards = Array.from({ length: count }, (_, i) => runCli(folder, 'eval', rules, 'big.jsonl', 'other.trace.json', '--json-lines', '--shard', `${i + 1}/${count}`));
      assert.deepEqual(sorted(shards.map((s) => s.stdout).join('\n')), sorted(whole.stdout), `eval in ${count} shards`);
      if (count > 1) assert.ok(shards.every((s) => sorted(s.stdout).length < sorted(whole.stdout).length), 'each shard takes a share');
      const checks = Array.from({ length: count }, (_, i) => runCli(folder, 'check', 'big.jsonl', 'other.trace.json', '--json-lines', '--max-problems', '100000', '--shard', `${i + 1}/${count}`));
      assert.deepEqual(problems(checks.map((s) => s.stdout).join('\n')), problems(wholeCheck.stdout), `check in ${count} shards`);
    }
    assert.equal(runCli(folder, 'eval', rules, 'big.jsonl', '--shard', '5/4').code, 2);
  });

  it('reads standard input as a stream and prints each trace as it is evaluated (--json written as it goes)', async () => {
    const child = spawn(process.execPath, [cli, 'eval', rules, '-', '--stdin-name', 'piped.jsonl', '--json'], { cwd: folder });
    let stdout = '';
    const firstEntry = new Promise<void>((resolveFirst, reject) => {
      const timer = setTimeout(() => reject(new Error(`no entry before the input ended: ${stdout}`)), 60_000);
      child.stdout.on('data', (data: Buffer) => {
        stdout += data.toString();
        if (/"line": 2,/.test(stdout)) {
          clearTimeout(timer);
          resolveFirst();
        }
      });
    });
    // Two chunks' worth of lines, then the input stays open until the first entry was printed.
    const text = dataset(2400);
    child.stdin.write(text);
    await firstEntry;
    assert.ok(stdout.startsWith('[\n  {'));
    child.stdin.end(dataset(10).split('\n').slice(1).join('\n'));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    assert.equal(code, 1);
    assert.equal((JSON.parse(stdout) as unknown[]).length, 2410);
  });
});

describe('the progress line on standard error', () => {
  /** The command run with standard error on a terminal (util-linux `script` gives it a pty), standard output to a file. */
  function onTerminal(folder: string, args: string[]): { code: number | null; terminal: string; stdout: string } {
    const quoted = [process.execPath, cli, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const out = join(folder, 'stdout.txt');
    const ran = spawnSync('script', ['-qec', `${quoted} > '${out}'`, '/dev/null'], { cwd: folder, encoding: 'utf8', env: { ...process.env, TERM: 'dumb' } });
    return { code: ran.status, terminal: ran.stdout, stdout: readFileSync(out, 'utf8') };
  }

  it('is drawn while a dataset is read when standard error is a terminal, erased at the end, and never written into a pipe', (t) => {
    if (spawnSync('script', ['--version']).error) {
      if (process.env.CI) assert.fail('script (util-linux) is needed to give the command a terminal');
      t.skip('script (util-linux) is not installed: the command cannot be given a terminal');
      return;
    }
    const folder = mkdtempSync(join(tmpdir(), 'progress-'));
    try {
      const data = join(folder, 'data.jsonl');
      writeFileSync(data, dataset(3000));
      writeFileSync(join(folder, 'flow.gr'), flowRule);
      for (const [command, args, done, found] of [
        ['eval', ['eval', 'flow.gr', 'data.jsonl', '--jobs', '1'], 'traces', 'violations'],
        ['check', ['check', 'data.jsonl'], 'files', 'errors'],
      ] as const) {
        const ran = onTerminal(folder, [...args]);
        // Each drawing goes back to the line's start and clears it; the last clears it for good.
        const drawings = ran.terminal.split('\r\u001b[K').filter((part) => part !== '');
        assert.ok(drawings.length >= 1, `${command}: ${JSON.stringify(ran.terminal)}`);
        for (const drawing of drawings) assert.match(drawing, new RegExp(`^agent-traces ${command}: [0-9.]+ MB read, \\d+ ${done}, \\d+ ${found}$`), command);
        assert.ok(ran.terminal.endsWith('\r\u001b[K'), `${command}: the line is erased at the end`);
        const piped = runCli(folder, ...args);
        assert.equal(ran.stdout, piped.stdout, `${command}: the same output`);
        assert.equal(ran.code, piped.code);
        assert.doesNotMatch(piped.stderr, /MB read/, `${command}: no progress line into a pipe`);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('agent-traces convert interrupted', () => {
  it('leaves neither the output nor a temporary file behind when Ctrl-C comes while it reads, converts or writes', async (t) => {
    const sessionFolder = join(corpus, 'formats', 'claude-code');
    if (!corpusOrSkip(t, sessionFolder)) return;
    const folder = mkdtempSync(join(tmpdir(), 'convert-interrupted-'));
    try {
      const source = readdirSync(sessionFolder, { recursive: true }).map(String).find((name) => name.endsWith('.jsonl'))!;
      writeFileSync(join(folder, 'session.jsonl'), repeatSession(readFileSync(join(sessionFolder, source), 'utf8'), 30 * 2 ** 20));
      const whole = runCli(folder, 'convert', 'session.jsonl', '--out', 'whole.trace.jsonl');
      assert.equal(whole.code, 0, whole.stderr);
      const converted = readFileSync(join(folder, 'whole.trace.jsonl'));
      rmSync(join(folder, 'whole.trace.jsonl'));
      for (const delayMs of [300, 800, 1500, 2500, 4000]) {
        const child = spawn(process.execPath, [cli, 'convert', 'session.jsonl', '--out', 'out.trace.jsonl'], { cwd: folder, stdio: 'ignore' });
        const closed = new Promise<number | null>((done) => child.on('close', (status, signal) => done(status ?? (signal ? -1 : null))));
        await new Promise((wait) => setTimeout(wait, delayMs));
        child.kill('SIGINT');
        const code = await closed;
        const left = readdirSync(folder).filter((name) => name !== 'session.jsonl');
        // Either nothing is left (ended by the signal before it began, -1, or by its handler, which removed the
        // temporary file, 130), or the whole conversion is in place: it ended before the signal (0), or the signal
        // came after the output was renamed into place (130). Never a part of it, never a temporary file.
        assert.ok(code === 0 || code === 130 || code === -1, `exit ${code} after ${delayMs} ms`);
        if (code === 0) assert.deepEqual(left, ['out.trace.jsonl']);
        else if (left.length > 0) {
          assert.deepEqual(left, ['out.trace.jsonl'], `after ${delayMs} ms`);
          assert.ok(readFileSync(join(folder, 'out.trace.jsonl')).equals(converted), `after ${delayMs} ms: the output is the whole conversion`);
        }
        rmSync(join(folder, 'out.trace.jsonl'), { force: true });
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
