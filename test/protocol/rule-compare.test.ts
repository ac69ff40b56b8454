import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { RuleCompareRequest, type RuleCompareResult } from '../../shared/requests';
import { ServerProcess } from './lspClient';

const refund = (amount: number) => JSON.stringify([
  { role: 'user', content: 'refund please' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'r', type: 'function', function: { name: 'issue_refund', arguments: { amount } } }] },
]);
const committed = 'raise "refund issued" if:\n    (call: ToolCall)\n    call is tool:issue_refund\n';
const workingCopy = 'raise "refund issued" if:\n    (call: ToolCall)\n    call is tool:issue_refund\n    call.function.arguments.amount > 100\n';

describe('what a rule file\'s change flips over the workspace\'s traces, over stdio', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-traces-rule-compare-'));
  const uriOf = (...parts: string[]) => pathToFileURL(join(dir, ...parts)).toString();
  const server = new ServerProcess({ guardrails: { maxLensTraces: 3 } });
  const ruleUri = uriOf('rules', 'refunds.gr');

  before(async () => {
    mkdirSync(join(dir, 'rules'));
    mkdirSync(join(dir, 'runs'));
    writeFileSync(join(dir, 'rules', 'refunds.gr'), workingCopy);
    writeFileSync(join(dir, 'runs', 'big.trace.json'), refund(500));
    writeFileSync(join(dir, 'runs', 'small.trace.json'), refund(20));
    // A dataset: line 2 flips, line 1 does not (a refund above 100 is raised by both versions).
    writeFileSync(join(dir, 'runs', 'batch.jsonl'), `${JSON.stringify({ messages: JSON.parse(refund(300)) })}\n${JSON.stringify({ messages: JSON.parse(refund(5)) })}\n`);
    writeFileSync(join(dir, 'runs', 'notes.txt'), 'not a trace');
    await server.initialize(pathToFileURL(dir).toString());
    await server.configured;
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(dir, { recursive: true, force: true });
  });

  const compare = (params: { uri: string; oldText: string }) => server.connection.sendRequest(RuleCompareRequest.method, params) as Promise<RuleCompareResult>;

  it('lists the traces and dataset lines whose violations differ, each violation at its place', async () => {
    const result = await compare({ uri: ruleUri, oldText: committed });
    const refundCall = (text: string) => text.indexOf('{"id":"r"');
    const small = refund(20);
    const line2 = JSON.stringify({ messages: JSON.parse(refund(5)) });
    const removed = (uri: string, line: number, character: number, length: number) => ({
      message: 'refund issued', rule: 1, location: { uri, range: { start: { line, character }, end: { line, character: character + length } } },
    });
    assert.deepEqual(result, {
      traces: 4,
      files: 3,
      flips: [
        { uri: uriOf('runs', 'batch.jsonl'), line: 2, added: [], removed: [removed(uriOf('runs', 'batch.jsonl'), 1, refundCall(line2), line2.length - refundCall(line2) - 4)] },
        { uri: uriOf('runs', 'small.trace.json'), added: [], removed: [removed(uriOf('runs', 'small.trace.json'), 0, refundCall(small), small.length - refundCall(small) - 3)] },
      ].sort((a, b) => (a.uri < b.uri ? -1 : 1)),
    });
  });

  it('compares an open trace by its text in the editor, and the open rule file by its own', async () => {
    server.open(uriOf('runs', 'big.trace.json'), 'agent-trace', refund(50));
    server.open(ruleUri, 'guardrail', committed);
    const unchanged = await compare({ uri: ruleUri, oldText: committed });
    assert.deepEqual([unchanged.traces, unchanged.files, unchanged.flips], [4, 3, []]);
    const result = await compare({ uri: ruleUri, oldText: workingCopy });
    assert.deepEqual(result.flips.map((f) => [f.uri.slice(f.uri.lastIndexOf('/') + 1), f.line, f.added.length, f.removed.length]), [
      ['big.trace.json', undefined, 1, 0],
      ['batch.jsonl', 2, 1, 0],
      ['small.trace.json', undefined, 1, 0],
    ], 'the open trace first, then the files on disk');
  });

  it('says when a version does not load, and when the limit left trace files out', async () => {
    const broken = await compare({ uri: ruleUri, oldText: 'raise "x" if:\n    (m: Mesage)\n' });
    assert.equal(broken.problem, 'the committed version does not load (line 2: The rules cannot be loaded: Failed to resolve type Mesage. Did you mean \'Message\'?)');
    assert.deepEqual(broken.flips, []);
    writeFileSync(join(dir, 'runs', 'more.trace.json'), refund(1));
    writeFileSync(join(dir, 'runs', 'most.trace.json'), refund(2));
    const limited = await compare({ uri: ruleUri, oldText: workingCopy });
    assert.equal(limited.limitNotice, 'more than 3 trace files in the workspace: the first 3 compared (agentTraces.guardrails.maxLensTraces)');
  });

  it('counts the traces neither version could evaluate for the same reason apart from the flips', async () => {
    const needsLimit = 'raise "over the limit" if:\n    (call: ToolCall)\n    call.function.arguments.amount > input.limit\n';
    writeFileSync(join(dir, 'rules', 'limits.gr'), needsLimit);
    const result = await compare({ uri: uriOf('rules', 'limits.gr'), oldText: needsLimit.replace('over the limit', 'above the limit') });
    assert.deepEqual(result.flips, []);
    assert.equal(result.notEvaluated?.traces, result.traces);
    assert.match(result.notEvaluated!.reason, /^Evaluation failed at line 3 \(rule 1\): MissingPolicyParameter: .*input\.limit/);
  });
});
