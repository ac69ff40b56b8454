import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffTraces, isSame, type DiffOptions, type TraceDiff } from '../../../server/src/diff/diff';
import { changeLines, changeRecords, summaryLine } from '../../../server/src/diff/report';
import { compareInSteps, type CompareSideInput } from '../../../server/src/diff/compare';
import { runSteps } from '../../../server/src/common/steps';
import { random } from '../testing';
import { assistant, call, callEvent, calls, longTrace, output, regenerateIds, user } from './events';

function diff(left: unknown[], right: unknown[], options?: DiffOptions): TraceDiff {
  return diffTraces({ format: 'events', values: left }, { format: 'events', values: right }, options);
}

/** Each row as `= 0 0`, `+ - 3`, `- 2 -`, `~ 3 5 path path…` (fields by path; `!fails` for an outcome). */
function rows(result: TraceDiff): string[] {
  const mark = { same: '=', added: '+', removed: '-', changed: '~' } as const;
  return result.rows.map((row) => {
    const parts: string[] = [mark[row.kind], String(row.left?.index ?? '-'), String(row.right?.index ?? '-')];
    for (const field of row.fields ?? []) parts.push(field.path);
    if (row.outcome) parts.push(`!${row.outcome}`);
    if (row.reordered) parts.push('reordered');
    return parts.join(' ');
  });
}

const booking = [
  user('Book a flight from ZRH'),
  call('call_1', 'search_flights', { from: 'ZRH' }),
  output('call_1', '3 flights found'),
  call('call_2', 'book_flight', { flight: 'LX 318', seat: '12A' }),
  output('call_2', 'booked'),
  assistant('Your flight is booked.'),
];

describe('diff of two traces: generated pairs', () => {
  it('finds two copies of a trace the same step for step', () => {
    const result = diff(booking, structuredClone(booking));
    assert.ok(isSame(result));
    assert.deepEqual(rows(result), ['= 0 0', '= 1 1', '= 2 2', '= 3 3', '= 4 4', '= 5 5']);
    assert.equal(summaryLine(result), '6 steps → 6 steps: the same step for step');
  });

  it('reports inserted steps as added, numbered on the right', () => {
    const right = [...booking.slice(0, 3), call('call_x', 'search_hotels', { city: 'ZRH' }), output('call_x', '2 hotels'), ...booking.slice(3)];
    const result = diff(booking, right);
    assert.deepEqual(rows(result), ['= 0 0', '= 1 1', '= 2 2', '+ - 3', '+ - 4', '= 3 5', '= 4 6', '= 5 7']);
    assert.deepEqual(changeLines(result), ['+ step 3 assistant: search_hotels(city="ZRH")', '+ step 4 tool ← search_hotels: "2 hotels"']);
  });

  it('reports deleted steps as removed, numbered on the left', () => {
    const right = [booking[0], booking[1], booking[2], booking[5]];
    const result = diff(booking, right);
    assert.deepEqual(rows(result), ['= 0 0', '= 1 1', '= 2 2', '- 3 -', '- 4 -', '= 5 3']);
    assert.equal(summaryLine(result), '6 steps → 4 steps: 0 added, 2 removed, 0 changed');
  });

  it('reports a changed argument by its path, the call unchanged otherwise', () => {
    const right = structuredClone(booking);
    right[3] = call('call_2', 'book_flight', { flight: 'LX 318', seat: '14C' });
    const result = diff(booking, right);
    assert.deepEqual(rows(result), ['= 0 0', '= 1 1', '= 2 2', '~ 3 3 tool_calls.0.function.arguments.seat', '= 4 4', '= 5 5']);
    assert.deepEqual(result.rows[3].fields, [{ path: 'tool_calls.0.function.arguments.seat', left: '12A', right: '14C' }]);
    assert.deepEqual(changeLines(result), ['~ step 3 → 3 book_flight: arguments.seat "12A" → "14C"']);
  });

  it('aligns a changed step after an insertion: step 10 → 11 as the documented example', () => {
    const left = [...longTrace(2), ...booking];
    const right = [...longTrace(2), ...booking.slice(0, 3), assistant('Let me check seats.'), call('call_2', 'book_flight', { flight: 'LX 318', seat: '14C' }), ...booking.slice(4)];
    const lines = changeLines(diff(left, right));
    assert.deepEqual(lines, ['+ step 11 assistant: "Let me check seats."', '~ step 11 → 12 book_flight: arguments.seat "12A" → "14C"']);
  });

  it('compares arguments as what they encode: a JSON string and the object it writes are the same, key order aside', () => {
    const right = structuredClone(booking) as any[];
    right[1].tool_calls[0].function.arguments = { from: 'ZRH' };
    right[3].tool_calls[0].function.arguments = '{ "seat": "12A",\n  "flight": "LX 318" }';
    assert.ok(isSame(diff(booking, right)));
  });

  it('reports an added and a removed argument with the side that lacks it absent', () => {
    const right = structuredClone(booking);
    right[1] = call('call_1', 'search_flights', { from: 'ZRH', to: 'LIS' });
    right[3] = call('call_2', 'book_flight', { flight: 'LX 318' });
    const records = changeRecords(diff(booking, right));
    assert.deepEqual(records, [
      { kind: 'changed', left: 1, right: 1, fields: [{ path: 'tool_calls.0.function.arguments.to', right: 'LIS' }] },
      { kind: 'changed', left: 3, right: 3, fields: [{ path: 'tool_calls.0.function.arguments.seat', left: '12A' }] },
    ]);
  });

  it('reports a changed output by its content, and a changed tool name as a field of the step', () => {
    const right = structuredClone(booking);
    right[2] = output('call_1', 'no flights found');
    right[3] = call('call_2', 'reserve_flight', { flight: 'LX 318', seat: '12A' });
    const result = diff(booking, right);
    assert.deepEqual(rows(result), ['= 0 0', '= 1 1', '~ 2 2 content', '~ 3 3 tool_calls.0.function.name', '= 4 4', '= 5 5']);
    assert.deepEqual(changeLines(result).slice(0, 2), [
      '~ step 2 → 2 tool ← search_flights: content "3 flights found" → "no flights found"',
      '~ step 3 → 3 book_flight: name "book_flight" → "reserve_flight"',
    ]);
  });

  it('does not count regenerated call ids as changes, and shows them when asked', () => {
    const right = regenerateIds(booking);
    assert.ok(isSame(diff(booking, right)));
    const shown = diff(booking, right, { compareIds: true });
    assert.deepEqual(rows(shown), ['= 0 0', '~ 1 1 tool_calls.0.id', '~ 2 2 tool_call_id', '~ 3 3 tool_calls.0.id', '~ 4 4 tool_call_id', '= 5 5']);
    assert.deepEqual(shown.rows[1].fields, [{ path: 'tool_calls.0.id', left: 'call_1', right: 'run2_call_1' }]);
  });

  it('reports an output answering another call than before as a change of its link', () => {
    const left = [user('two searches'), calls({ id: 'a', name: 'search', args: { q: 'x' } }, { id: 'b', name: 'search', args: { q: 'y' } }), output('a', 'same result'), output('b', 'same result')];
    const right = [user('two searches'), calls({ id: 'a', name: 'search', args: { q: 'x' } }, { id: 'b', name: 'search', args: { q: 'y' } }), output('b', 'same result'), output('b', 'same result')];
    const result = diff(left, right);
    assert.deepEqual(rows(result).filter((row) => row.startsWith('~')), ['~ 2 2 tool_call_id']);
    assert.deepEqual(result.rows.find((row) => row.kind === 'changed')!.fields, [{ path: 'tool_call_id', left: 'a', right: 'b' }]);
    assert.deepEqual(changeLines(result), ['~ step 2 → 2 tool ← search: answers step 1 search(q="x") → step 1 search(q="y")']);
  });

  it('reports an output that is gone as one removed step, without marking its call', () => {
    const right = booking.filter((_, i) => i !== 4);
    const result = diff(booking, right);
    assert.deepEqual(rows(result), ['= 0 0', '= 1 1', '= 2 2', '= 3 3', '- 4 -', '= 5 4']);
    assert.deepEqual(changeRecords(result), [{ kind: 'removed', left: 4, right: null }]);
  });

  it('reports calls that now fail and now succeed', () => {
    const failing = structuredClone(booking) as any[];
    failing[4] = output('call_2', 'seat taken', { is_error: true });
    const worse = diff(booking, failing);
    assert.deepEqual(rows(worse).filter((row) => row.startsWith('~')), ['~ 4 4 content is_error !fails']);
    assert.equal(changeLines(worse)[0], '~ step 4 → 4 tool ← book_flight: now fails');
    assert.match(summaryLine(worse), /\(1 call now fails\)$/);
    const better = diff(failing, booking);
    assert.deepEqual(changeRecords(better), [
      { kind: 'changed', left: 4, right: 4, fields: [{ path: 'content', left: 'seat taken', right: 'booked' }, { path: 'is_error', left: true }], outcome: 'succeeds' },
    ]);
  });

  it('aligns parallel calls of one message made in another order as the same step', () => {
    const left = [user('both'), calls({ id: 'a', name: 'weather', args: { city: 'ZRH' } }, { id: 'b', name: 'news', args: { topic: 'ZRH' } }), output('a', 'sunny'), output('b', 'quiet day')];
    const right = [user('both'), calls({ id: 'k', name: 'news', args: { topic: 'ZRH' } }, { id: 'j', name: 'weather', args: { city: 'ZRH' } }), output('k', 'quiet day'), output('j', 'sunny')];
    const result = diff(left, right);
    assert.ok(isSame(result), rows(result).join('\n'));
    assert.deepEqual(rows(result), ['= 0 0', '= 1 1 reordered', '= 2 3', '= 3 2 reordered']);
    assert.equal(summaryLine(result), '4 steps → 4 steps: the same step for step (2 parallel steps in another order, not a change)');
  });

  it('aligns parallel calls made as separate events in another order, and still finds what changed in them', () => {
    const left = [user('both'), call('a', 'weather', { city: 'ZRH' }), call('b', 'news', { topic: 'ZRH' }), output('a', 'sunny'), output('b', 'quiet day')];
    const right = [user('both'), call('b', 'news', { topic: 'ZRH' }), call('a', 'weather', { city: 'GVA' }), output('b', 'quiet day'), output('a', 'rain')];
    const result = diff(left, right);
    assert.deepEqual(rows(result), ['= 0 0', '~ 1 2 tool_calls.0.function.arguments.city', '= 2 1 reordered', '~ 3 4 content', '= 4 3 reordered']);
  });

  it('leaves out the keys it is asked to ignore, by name anywhere or by the end of a path', () => {
    const left = [{ ...user('hi'), metadata: { run_id: 'r1', model: 'm1' } }, { ...call('c', 'f', { q: 1, nonce: 'x1' }) }];
    const right = [{ ...user('hi'), metadata: { run_id: 'r2', model: 'm1' } }, { ...call('c', 'f', { q: 1, nonce: 'x2' }) }];
    assert.deepEqual(rows(diff(left, right)), ['~ 0 0 metadata.run_id', '~ 1 1 tool_calls.0.function.arguments.nonce']);
    assert.ok(isSame(diff(left, right, { ignore: ['run_id', 'arguments.nonce'] })));
    assert.ok(isSame(diff(left, right, { ignore: ['metadata', 'tool_calls.*.function.arguments.nonce'] })));
    assert.deepEqual(rows(diff(left, right, { ignore: ['nonce'] })), ['~ 0 0 metadata.run_id', '= 1 1']);
  });

  it('compares top-level call events, with paths from the call', () => {
    const left = [user('read'), callEvent('1', 'read', { file: 'a.txt' }), output('1', 'x')];
    const right = [user('read'), callEvent('9', 'read', { file: 'b.txt' }), output('9', 'x')];
    const result = diff(left, right);
    assert.deepEqual(rows(result), ['= 0 0', '~ 1 1 function.arguments.file', '= 2 2']);
    assert.deepEqual(changeLines(result), ['~ step 1 → 1 read: arguments.file "a.txt" → "b.txt"']);
  });

  it('pairs a changed step with the step of its kind, not with an unrelated one', () => {
    const left = [user('a'), assistant('thinking'), call('1', 'search', { q: 'a' }), output('1', 'r1'), assistant('done')];
    const right = [user('a'), call('1', 'search', { q: 'b' }), output('1', 'r2'), assistant('finished')];
    assert.deepEqual(rows(diff(left, right)), ['= 0 0', '- 1 -', '~ 2 1 tool_calls.0.function.arguments.q', '~ 3 2 content', '~ 4 3 content']);
  });

  it('says how many fields it did not list beyond its limit', () => {
    const args = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    const result = diff([call('1', 'f', args)], [call('1', 'f', Object.fromEntries(Object.keys(args).map((k) => [k, -1])))], { maxFieldsPerStep: 5 });
    assert.equal(result.rows[0].fields!.length, 5);
    assert.equal(result.rows[0].moreFields, 25);
    assert.equal(changeLines(result).at(-1), '~ step 0 → 0 f: 25 more fields changed');
  });

  it('reads agentguard entries as one step each, ignoring times and ids', () => {
    const entry = (id: string, tool: string, args: unknown[], status: string, value: unknown, time: string) => ({
      call: { call_id: id, tool_name: tool, args, kwargs: {}, timestamp: time, session_id: `s-${id}`, metadata: {} },
      result: { call_id: id, tool_name: tool, status, return_value: value, exception: null, execution_time_ms: Math.random() * 10, timestamp: time },
    });
    const left = [entry('u1', 'lookup_order', [1001], 'success', { status: 'shipped' }, 't1'), entry('u2', 'refund', [1001], 'success', true, 't2')];
    const right = [entry('v1', 'lookup_order', [1001], 'success', { status: 'shipped' }, 't8'), entry('v2', 'refund', [1001], 'failure', null, 't9')];
    const result = diffTraces({ format: 'agentguard', values: left }, { format: 'agentguard', values: right });
    assert.deepEqual(rows(result), ['= 0 0', '~ 1 1 result.status result.return_value !fails']);
    assert.deepEqual(changeLines(result), [
      '~ step 1 → 1 refund: now fails',
      '~ step 1 → 1 refund: result.status "success" → "failure"',
      '~ step 1 → 1 refund: result.return_value true → null',
    ]);
  });

  it('reads every kind of event: tools lists, metadata, invalid events, chunked content', () => {
    const left = [{ metadata: { a: 1 } }, { tools: [{ name: 'x' }] }, { role: 'user', content: [{ type: 'text', text: 'hi' }] }, 42];
    const right = [{ metadata: { a: 1 } }, { tools: [{ name: 'y' }] }, { role: 'user', content: [{ type: 'text', text: 'hello' }] }, 42];
    assert.deepEqual(rows(diff(left, right)), ['= 0 0', '~ 1 1 tools.0.name', '~ 2 2 content.0.text', '= 3 3']);
  });
});

describe('diff of two traces: big traces', () => {
  it('aligns 100,000 steps a side with a few differences', () => {
    const left = longTrace(25_000);
    const right = structuredClone(left) as any[];
    right.splice(50_000, 0, user('an inserted question'));
    right[90_003] = output('c22500', 'another result');
    right.splice(10, 2);
    const result = diff(left, right);
    assert.equal(result.left.length, 100_000);
    assert.deepEqual(changeRecords(result).map((c) => [c.kind, c.left, c.right]), [
      ['removed', 10, null], ['removed', 11, null], ['added', null, 49_998], ['changed', 90_002, 90_001],
    ]);
    assert.deepEqual(result.approximated, []);
  });

  it('pairs by position what is left when the work limit is reached, and says where', () => {
    // Steps that repeat (no step is unique to anchor on), in two unrelated orders.
    const next = random(7);
    const pick = () => [user('again'), assistant('hmm'), call('1', 'poll', {}), output('1', 'pending')][Math.floor(next() * 4)];
    const left = Array.from({ length: 4000 }, pick);
    const right = Array.from({ length: 4000 }, pick);
    const result = diff(left, right, { maxAlignmentWork: 10_000 });
    assert.ok(result.approximated.length > 0);
    const seenLeft = new Set<number>();
    const seenRight = new Set<number>();
    for (const row of result.rows) {
      if (row.left) seenLeft.add(row.left.index);
      if (row.right) seenRight.add(row.right.index);
    }
    assert.equal(seenLeft.size, left.length);
    assert.equal(seenRight.size, right.length);
  });
});

describe('diff of two traces: hostile nesting', () => {
  // Deeper than JSON.stringify can serialise without overflowing the stack; JSON.parse reads it.
  const nested = (depth: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };

  it('compares values nested 50,000 levels deep, in arguments and in content, without overflowing the stack', () => {
    // Arguments as the JSON string a model writes (the diff parses it).
    const deepCall = (leaf: string) => ({
      role: 'assistant', content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: `{"tree": ${'['.repeat(50_000)}"${leaf}"${']'.repeat(50_000)}}` } }],
    });
    const same = diff([user('go'), deepCall('a')], [user('go'), deepCall('a')]);
    assert.ok(isSame(same));
    const changed = diff([user('go'), deepCall('a')], [user('go'), deepCall('b')]);
    assert.deepEqual(rows(changed).map((row) => row.split(' ').slice(0, 3).join(' ')), ['= 0 0', '~ 1 1']);
    const [field] = changeRecords(changed)[0].fields!;
    assert.match(field.path, /^tool_calls\.0\.function\.arguments\.tree(\.0)+$/);
    // Values too deep to serialise are given as their JSON text, so the --json report can be written.
    assert.equal(typeof field.left, 'string');
    assert.match(field.left as string, /^\[{49930,}"a"\]{49930,}$/);
    assert.match(field.right as string, /^\[+"b"\]+$/);
    assert.doesNotThrow(() => JSON.stringify(changeRecords(changed)));
    assert.match(changeLines(changed)[0], /^~ step 1 → 1 f: arguments\.tree(\.0)+ \[\[\[/);
    // The compare view's rows: the deep value shown as text, cut at the view's limit.
    const texts = [[user('go'), deepCall('a')], [user('go'), deepCall('b')]].map((events) => JSON.stringify(events));
    const side = (path: string, text: string): CompareSideInput => ({ uri: `file://${path}`, path, text, label: path, toRange: () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }) });
    const view = runSteps(compareInSteps(side('/a.trace.json', texts[0]), side('/b.trace.json', texts[1]), { maxSteps: 1000, maxAlignmentWork: 1_000_000, maxTextLength: 4000, ignore: [], compareIds: false })).data;
    assert.equal(view.counts.changed, 1);
    assert.ok(JSON.stringify(view).length < 100_000);
    const content = diff([user(nested(50_000, 'x') as string)], [user('plain')]);
    assert.deepEqual(changeRecords(content).map((c) => [c.kind, c.fields!.map((f) => [f.path, typeof f.left, f.right])]), [['changed', [['content', 'string', 'plain']]]]);
  });
});
