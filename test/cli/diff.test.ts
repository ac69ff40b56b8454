import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';

const cli = resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');

function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [cli, 'diff', ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, lines: result.stdout.trimEnd().split('\n') };
}

const user = (content: string) => ({ role: 'user', content });
const call = (id: string, name: string, args: object) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] });
const output = (id: string, content: string, extra: object = {}) => ({ role: 'tool', tool_call_id: id, content, ...extra });

const before_ = [
  user('Book a flight from ZRH'),
  call('c1', 'search_flights', { from: 'ZRH' }),
  output('c1', '3 flights found'),
  call('c2', 'book_flight', { flight: 'LX 318', seat: '12A' }),
  output('c2', 'booked'),
];
const after_ = [
  user('Book a flight from ZRH'),
  call('r1', 'search_flights', { from: 'ZRH' }),
  output('r1', '3 flights found'),
  call('r9', 'search_flights', { from: 'ZRH', date: 'tomorrow' }),
  output('r9', '1 flight found'),
  call('r2', 'book_flight', { flight: 'LX 318', seat: '14C' }),
  output('r2', 'seat taken', { is_error: true }),
];

describe('agent-traces diff', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-diff-'));
    writeFileSync(join(dir, 'before.trace.json'), JSON.stringify(before_, null, 2));
    writeFileSync(join(dir, 'after.trace.json'), JSON.stringify(after_, null, 2));
    writeFileSync(join(dir, 'copy.trace.json'), JSON.stringify(before_.map((e) => JSON.parse(JSON.stringify(e).replace(/"c(\d)"/g, '"new_$1"')))));
    writeFileSync(join(dir, 'broken.trace.json'), '[{"role": "user", "content": "hi"');
    writeFileSync(join(dir, 'not-a-trace.json'), '{"name": "x"}');
    writeFileSync(join(dir, 'left.jsonl'), [JSON.stringify({ metadata: { name: 'evals' } }), JSON.stringify(before_), JSON.stringify({ messages: [user('a')] }), JSON.stringify([user('only left')])].join('\n') + '\n');
    writeFileSync(join(dir, 'right.jsonl'), [JSON.stringify(after_), JSON.stringify({ messages: [user('a')] })].join('\n') + '\n');
    const entry = (id: string, status: string, value: unknown) => JSON.stringify({
      call: { call_id: id, tool_name: 'refund', args: [1001], kwargs: {}, timestamp: `t-${id}`, session_id: null, metadata: {} },
      result: { call_id: id, tool_name: 'refund', status, return_value: value, exception: null, execution_time_ms: id.length, retry_count: 0, timestamp: `t-${id}` },
    });
    writeFileSync(join(dir, 'run1.jsonl'), `${entry('u-1', 'success', true)}\n`);
    writeFileSync(join(dir, 'run2.jsonl'), `${entry('u-22', 'failure', null)}\n`);
    writeFileSync(join(dir, 'session.jsonl'), [
      { type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'Book a flight' } },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } },
    ].map((record) => JSON.stringify(record)).join('\n') + '\n');
    writeFileSync(join(dir, 'hostile.trace.json'), JSON.stringify([user('Book a flight from ZRH\u001b[2J\u001b]0;pwned\u0007\u202e')]));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prints added steps with +, changed fields with ~, and a summary; exits 1 on differences', () => {
    const result = run(dir, 'before.trace.json', 'after.trace.json');
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(result.lines, [
      '+ step 3 assistant: search_flights(from="ZRH", date="tomorrow")',
      '+ step 4 tool ← search_flights: "1 flight found"',
      '~ step 3 → 5 book_flight: arguments.seat "12A" → "14C"',
      '~ step 4 → 6 tool ← book_flight: now fails',
      '~ step 4 → 6 tool ← book_flight: content "booked" → "seat taken"',
      '~ step 4 → 6 tool ← book_flight: is_error (none) → true',
      '5 steps → 7 steps: 2 added, 0 removed, 2 changed (1 call now fails)',
    ]);
    assert.equal(result.stderr, '');
  });

  it('prints removed steps with - when compared the other way round', () => {
    const result = run(dir, 'after.trace.json', 'before.trace.json');
    assert.deepEqual(result.lines.slice(0, 2), ['- step 3 assistant: search_flights(from="ZRH", date="tomorrow")', '- step 4 tool ← search_flights: "1 flight found"']);
    assert.equal(result.lines.at(-1), '7 steps → 5 steps: 0 added, 2 removed, 2 changed (1 call now succeeds)');
  });

  it('prints the documented JSON form with --json', () => {
    const result = run(dir, 'before.trace.json', 'after.trace.json', '--json');
    assert.equal(result.code, 1);
    assert.deepEqual(JSON.parse(result.stdout), {
      changes: [
        { kind: 'added', left: null, right: 3 },
        { kind: 'added', left: null, right: 4 },
        { kind: 'changed', left: 3, right: 5, fields: [{ path: 'tool_calls.0.function.arguments.seat', left: '12A', right: '14C' }] },
        { kind: 'changed', left: 4, right: 6, fields: [{ path: 'content', left: 'booked', right: 'seat taken' }, { path: 'is_error', right: true }], outcome: 'fails' },
      ],
    });
  });

  it('exits 0 on traces the same step for step, call ids aside; --ids shows regenerated ids', () => {
    const same = run(dir, 'before.trace.json', 'copy.trace.json');
    assert.equal(same.code, 0);
    assert.deepEqual(same.lines, ['5 steps → 5 steps: the same step for step']);
    assert.deepEqual(JSON.parse(run(dir, 'before.trace.json', 'copy.trace.json', '--json').stdout), { changes: [] });
    const ids = run(dir, 'before.trace.json', 'copy.trace.json', '--ids');
    assert.equal(ids.code, 1);
    assert.equal(ids.lines[0], '~ step 1 → 1 search_flights: id "c1" → "new_1"');
  });

  it('leaves out the fields named by --ignore', () => {
    const result = run(dir, 'before.trace.json', 'after.trace.json', '--ignore', 'seat,is_error', '--ignore', 'content');
    assert.deepEqual(result.lines.filter((line) => line.startsWith('~')), ['~ step 4 → 6 tool ← book_flight: now fails']);
  });

  it('compares one line of a dataset with --line after it, and whole datasets trace by trace', () => {
    const one = run(dir, 'left.jsonl', '--line', '2', 'right.jsonl', '--line', '1');
    assert.equal(one.code, 1, one.stderr);
    assert.equal(one.lines.at(-1), '5 steps → 7 steps: 2 added, 0 removed, 2 changed (1 call now fails)');
    assert.equal(run(dir, 'left.jsonl', '--line', '3', 'right.jsonl', '--line', '2').code, 0);
    const mixed = run(dir, 'left.jsonl', '--line', '2', 'after.trace.json');
    assert.equal(mixed.code, 1);
    const whole = run(dir, 'left.jsonl', 'right.jsonl');
    assert.equal(whole.code, 1);
    assert.deepEqual(whole.lines, [
      'line 2 → 1: 5 steps → 7 steps: 2 added, 0 removed, 2 changed (1 call now fails)',
      '  + step 3 assistant: search_flights(from="ZRH", date="tomorrow")',
      '  + step 4 tool ← search_flights: "1 flight found"',
      '  ~ step 3 → 5 book_flight: arguments.seat "12A" → "14C"',
      '  ~ step 4 → 6 tool ← book_flight: now fails',
      '  ~ step 4 → 6 tool ← book_flight: content "booked" → "seat taken"',
      '  ~ step 4 → 6 tool ← book_flight: is_error (none) → true',
      'line 4 → (none): only in the left file',
      '2 traces compared: 1 the same, 1 different, 1 only in the left file',
    ]);
    const json = JSON.parse(run(dir, 'left.jsonl', 'right.jsonl', '--json').stdout);
    assert.deepEqual(json.traces.map((t: any) => [t.leftLine, t.rightLine, t.changes?.length]), [[2, 1, 4], [3, 2, 0], [4, null, undefined]]);
  });

  it('exits 3 when a dataset line cannot be read and the rest is the same, 4 when the rest differs too', () => {
    const broken = '{"messages": [{"role": "user", "content": "cut';
    writeFileSync(join(dir, 'cut-same.jsonl'), [JSON.stringify(before_), broken].join('\n') + '\n');
    writeFileSync(join(dir, 'cut-other.jsonl'), [JSON.stringify(after_), broken].join('\n') + '\n');
    writeFileSync(join(dir, 'whole.jsonl'), [JSON.stringify(before_), JSON.stringify([user('cut')])].join('\n') + '\n');
    const same = run(dir, 'cut-same.jsonl', 'whole.jsonl');
    assert.equal(same.code, 3, same.stdout);
    assert.match(same.lines[0], /^line 2 → 2: not compared: cut-same\.jsonl: line 2: not valid JSON/);
    assert.equal(same.lines.at(-1), '1 trace compared: 1 the same, 0 different, 1 not compared');
    const differ = run(dir, 'cut-other.jsonl', 'whole.jsonl');
    assert.equal(differ.code, 4, differ.stdout);
    assert.equal(differ.lines.at(-1), '1 trace compared: 0 the same, 1 different, 1 not compared');
  });

  it('compares agentguard logs call by call, times and ids aside', () => {
    const result = run(dir, 'run1.jsonl', 'run2.jsonl');
    assert.equal(result.code, 1);
    assert.deepEqual(result.lines, [
      '~ step 0 → 0 refund: now fails',
      '~ step 0 → 0 refund: result.status "success" → "failure"',
      '~ step 0 → 0 refund: result.return_value true → null',
      '1 step → 1 step: 0 added, 0 removed, 1 changed (1 call now fails)',
    ]);
  });

  it('exits 2 on bad usage and 3 on an input that cannot be read as a trace', () => {
    assert.equal(run(dir, 'before.trace.json').code, 2);
    assert.equal(run(dir, 'before.trace.json', 'after.trace.json', '--frobnicate').code, 2);
    assert.equal(run(dir, '--line', '2', 'left.jsonl', 'right.jsonl').code, 2);
    const notDataset = run(dir, 'before.trace.json', '--line', '1', 'after.trace.json');
    assert.equal(notDataset.code, 2);
    assert.match(notDataset.stderr, /--line applies to datasets, and before\.trace\.json is a trace file/);
    const missing = run(dir, 'before.trace.json', 'missing.trace.json');
    assert.equal(missing.code, 3);
    assert.match(missing.stderr, /missing\.trace\.json: cannot read/);
    const broken = run(dir, 'broken.trace.json', 'before.trace.json');
    assert.equal(broken.code, 3);
    assert.match(broken.stderr, /broken\.trace\.json: not valid JSON/);
    assert.match(run(dir, 'before.trace.json', 'not-a-trace.json').stderr, /not-a-trace\.json: it holds no trace/);
    assert.equal(run(dir, 'left.jsonl', '--line', '1', 'right.jsonl', '--line', '1').code, 3, 'a metadata row holds no trace');
    const sessionLine = run(dir, 'session.jsonl', '--line', '1', 'before.trace.json');
    assert.equal(sessionLine.code, 2);
    assert.match(sessionLine.stderr, /--line applies to datasets, and session\.jsonl is a Claude Code session/);
    const absent = join(dir, 'missing.trace.json');
    assert.match(run(dir, 'before.trace.json', absent).stderr, new RegExp(`^agent-traces diff: ${absent.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read`), 'a path is printed as it was given');
    assert.equal(run(dir, '--help').code, 0);
  });

  it('compares a Claude Code session with a trace file, as the trace the session converts to', () => {
    const result = run(dir, 'session.jsonl', 'before.trace.json');
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(result.lines, [
      '~ step 0 → 0 user: content "Book a flight" → "Book a flight from ZRH"',
      '- step 1 assistant: "Done."',
      '+ step 1 assistant: search_flights(from="ZRH")',
      '+ step 2 tool ← search_flights: "3 flights found"',
      '+ step 3 assistant: book_flight(flight="LX 318", seat="12A")',
      '+ step 4 tool ← book_flight: "booked"',
      '2 steps → 5 steps: 4 added, 1 removed, 1 changed',
    ]);
  });

  it('escapes control characters of trace content before they reach the terminal', () => {
    const result = run(dir, 'before.trace.json', 'hostile.trace.json');
    assert.ok(!/[\u001b\u0007\u202e]/.test(result.stdout), result.stdout);
    assert.match(result.stdout, /\\u001b\[2J/);
  });
});
