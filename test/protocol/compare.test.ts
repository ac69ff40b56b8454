/** The compare request over stdio: the bundled server reads each side from the editor, the request or the disk. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { CompareData, LineRange } from '../../shared/protocol';
import type { CompareParams } from '../../shared/requests';
import { ServerProcess } from './lspClient';

const user = (content: string) => ({ role: 'user', content });
const call = (id: string, name: string, args: object) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] });
const output = (id: string, content: string) => ({ role: 'tool', tool_call_id: id, content });

const examples = resolve(__dirname, '../../..', 'examples');

const saved = [user('Book ZRH → LIS'), call('a', 'search_flights', { from: 'ZRH' }), output('a', '3 flights'), call('b', 'book_flight', { seat: '12A' }), output('b', 'booked')];
const edited = [user('Book ZRH → LIS'), call('x', 'search_flights', { from: 'ZRH' }), output('x', '3 flights'), call('y', 'book_flight', { seat: '14C' }), output('y', 'booked')];

describe('the compare request', () => {
  let dir: string;
  let server: ServerProcess;
  let fileUri: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-traces-compare-'));
    writeFileSync(join(dir, 'run.trace.json'), JSON.stringify(saved, null, 2));
    fileUri = pathToFileURL(join(dir, 'run.trace.json')).toString();
    server = new ServerProcess();
    await server.initialize([pathToFileURL(dir).toString()]);
    await server.configured;
  });

  after(async () => {
    await server.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  const compare = (params: CompareParams) => server.connection.sendRequest('agentTraces/compare', params) as Promise<CompareData>;

  it('compares a file on disk with a text sent along (a committed version), ranges in each side\'s own text', async () => {
    const committed = JSON.stringify(saved);
    const data = await compare({ left: { uri: fileUri, text: committed, label: 'run.trace.json (HEAD)' }, right: { uri: fileUri } });
    assert.deepEqual(data.counts, { same: 5, added: 0, removed: 0, changed: 0, reordered: 0, nowFail: 0, nowSucceed: 0 });
    assert.equal(data.left.label, 'run.trace.json (HEAD)');
    assert.equal(data.right.label, 'run.trace.json');
    // Where a step is, asked for when it is clicked: the committed text is one line, the file on disk pretty-printed.
    const locate = (side: 'left' | 'right', step: number, path?: string) =>
      server.connection.sendRequest('agentTraces/compareLocate', { id: data.id, side, step, ...(path ? { path } : {}) }) as Promise<{ range: LineRange; selection: LineRange } | null>;
    assert.deepEqual((await locate('left', 3))!.range.start, { line: 0, character: committed.indexOf('{"role":"assistant","content":null,"tool_calls":[{"id":"b"') });
    const eventLines = JSON.stringify(saved, null, 2).split('\n').flatMap((line, n) => (line === '  {' ? [n] : []));
    assert.deepEqual((await locate('right', 3))!.range.start, { line: eventLines[3], character: 2 });
    assert.equal(await locate('right', 99), null);
    assert.equal(await server.connection.sendRequest('agentTraces/compareLocate', { id: 'compare-none', side: 'left', step: 0 }), null);
  });

  it('compares the open document as the editor holds it, unsaved edits included', async () => {
    server.open(fileUri, 'agent-trace', JSON.stringify(edited, null, 2));
    const data = await compare({ left: { uri: fileUri, text: JSON.stringify(saved), label: 'HEAD' }, right: { uri: fileUri } });
    assert.equal(data.counts.changed, 1);
    const changed = data.rows.find((row) => row.kind === 'changed')!;
    assert.deepEqual(changed.fields!.map((field) => [field.path, field.left, field.right]), [['tool_calls.0.function.arguments.seat', '12A', '14C']]);
    const lines = JSON.stringify(edited, null, 2).split('\n');
    const line = lines.findIndex((text) => text.includes('"seat": "14C"'));
    const column = lines[line].indexOf('"14C"');
    const found: any = await server.connection.sendRequest('agentTraces/compareLocate', { id: data.id, side: 'right', step: changed.right!.index, path: changed.fields![0].path });
    assert.deepEqual(found.selection, { start: { line, character: column }, end: { line, character: column + 5 } }, 'the seat\'s value in the open document');
  });

  it('compares call ids when asked: regenerated ids become changes', async () => {
    const data = await compare({ left: { uri: fileUri, text: JSON.stringify(saved) }, right: { uri: fileUri }, compareIds: true });
    assert.equal(data.compareIds, true);
    assert.deepEqual(data.rows.filter((row) => row.kind === 'changed').map((row) => row.left!.index), [1, 2, 3, 4]);
  });

  it('says why a side cannot be compared: missing, outside the workspace, not a trace', async () => {
    const missing = await compare({ left: { uri: fileUri }, right: { uri: pathToFileURL(join(dir, 'gone.trace.json')).toString() } });
    assert.match(missing.right.error!, /^gone\.trace\.json cannot be compared: cannot read/);
    assert.deepEqual(missing.rows, []);
    const outside = mkdtempSync(join(tmpdir(), 'agent-traces-outside-'));
    try {
      writeFileSync(join(outside, 'other.trace.json'), '[]');
      const refused = await compare({ left: { uri: fileUri }, right: { uri: pathToFileURL(join(outside, 'other.trace.json')).toString() } });
      assert.match(refused.right.error!, /outside the workspace folders/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    const notTrace = await compare({ left: { uri: fileUri }, right: { uri: 'untitled:notes', text: '{"name": "x"}' } });
    assert.match(notTrace.right.error!, /it holds no trace/);
  });

  it('compares a dataset\'s chosen trace, listing its traces to choose from', async () => {
    const dataset = [JSON.stringify(saved), JSON.stringify(edited)].join('\n');
    const data = await compare({ left: { uri: 'untitled:d.jsonl', text: dataset, label: 'd.jsonl' }, right: { uri: 'untitled:d.jsonl', text: dataset, label: 'd.jsonl', traceIndex: 1 } });
    assert.deepEqual(data.left.traces.map((trace) => trace.label), ['Trace 1 (line 1)', 'Trace 2 (line 2)']);
    assert.deepEqual([data.left.traceIndex, data.right.traceIndex, data.right.label], [0, 1, 'd.jsonl, line 2']);
    assert.equal(data.counts.changed, 1);
  });

  it('compares a Claude Code session on disk with its conversion, a click landing on the session\'s own characters', async () => {
    const sessionText = readFileSync(join(examples, 'sessions', 'fix-checkout.jsonl'), 'utf8');
    writeFileSync(join(dir, 'session.jsonl'), sessionText);
    const sessionUri = pathToFileURL(join(dir, 'session.jsonl')).toString();
    const convertedPath = join(dir, 'session.trace.json');
    const convert = spawnSync(process.execPath, [join(examples, '..', 'dist', 'cli.js'), 'convert', join(dir, 'session.jsonl'), '--out', convertedPath], { encoding: 'utf8' });
    assert.equal(convert.status, 0, convert.stderr);
    const converted = JSON.parse(readFileSync(convertedPath, 'utf8')) as Record<string, any>[];
    const same = await compare({ left: { uri: sessionUri }, right: { uri: 'untitled:conversion', text: JSON.stringify(converted), label: 'fix-checkout.trace.json' } });
    assert.equal(same.left.error, undefined);
    assert.deepEqual(same.counts, { same: 16, added: 0, removed: 0, changed: 0, reordered: 0, nowFail: 0, nowSucceed: 0 });
    converted[9].tool_calls[0].function.arguments.command = 'npm test';
    const data = await compare({ left: { uri: sessionUri }, right: { uri: 'untitled:conversion', text: JSON.stringify(converted, null, 2), label: 'fix-checkout.trace.json' } });
    const changed = data.rows.find((row) => row.kind === 'changed')!;
    assert.deepEqual(changed.fields!.map((field) => [field.path, field.left, field.right]), [['tool_calls.0.function.arguments.command', 'npm test -- checkout', 'npm test']]);
    const found: any = await server.connection.sendRequest('agentTraces/compareLocate', { id: data.id, side: 'left', step: changed.left!.index, path: changed.fields![0].path });
    const lines = sessionText.split('\n');
    const line = lines.findIndex((text) => text.includes('"id":"toolu_01Checkout4"'));
    const character = lines[line].indexOf('"npm test -- checkout"');
    assert.deepEqual(found.selection, { start: { line, character }, end: { line, character: character + '"npm test -- checkout"'.length } });
  });
});
