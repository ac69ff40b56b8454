/**
 * The tests of a rule file opened from outside the workspace folders (the user's copy of the examples, a file opened
 * on its own): the run reads the files in the manifest's folder and below it, and nothing else outside the workspace.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { RuleTestsListRequest, RuleTestsRunRequest, type RuleTestsList, type RuleTestsRun } from '../../shared/requests';
import { ServerProcess } from './lspClient';

const rules = 'raise "refund over the limit" if:\n    (call: ToolCall)\n    call is tool:issue_refund\n    call.function.arguments.amount > 100\n';

const trace = (amount: number) => JSON.stringify([
  { role: 'user', content: 'refund it' },
  { role: 'assistant', content: null, tool_calls: [{ id: '1', type: 'function', function: { name: 'issue_refund', arguments: { amount } } }] },
], null, 2);

const manifest = JSON.stringify({
  cases: [
    { name: 'beside the manifest', trace: 'fixtures/big.trace.json', expect: [{ message: 'refund over the limit', at: 1 }] },
    { name: 'above the manifest\'s folder', trace: '../above.trace.json', expect: [] },
    { name: 'through a link out of the folder', trace: 'fixtures/linked.trace.json', expect: [] },
  ],
}, null, 2);

describe('rule tests of a manifest outside the workspace folders', () => {
  const server = new ServerProcess();
  let root: string;
  let manifestUri: string;

  before(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-traces-outside-tests-')));
    mkdirSync(join(root, 'workspace'));
    mkdirSync(join(root, 'examples', 'rules', 'fixtures'), { recursive: true });
    mkdirSync(join(root, 'elsewhere'));
    writeFileSync(join(root, 'examples', 'rules', 'refunds.gr'), rules);
    writeFileSync(join(root, 'examples', 'rules', 'fixtures', 'big.trace.json'), trace(500));
    writeFileSync(join(root, 'examples', 'above.trace.json'), trace(5));
    writeFileSync(join(root, 'elsewhere', 'secret.trace.json'), trace(5));
    symlinkSync(join(root, 'elsewhere', 'secret.trace.json'), join(root, 'examples', 'rules', 'fixtures', 'linked.trace.json'));
    writeFileSync(join(root, 'examples', 'rules', 'refunds.tests.json'), manifest);
    manifestUri = pathToFileURL(join(root, 'examples', 'rules', 'refunds.tests.json')).toString();
    await server.initialize(pathToFileURL(join(root, 'workspace')).toString());
    await server.configured;
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(root, { recursive: true, force: true });
  });

  it('does not read a manifest outside the workspace that the user did not open', async () => {
    const run: RuleTestsRun = await server.connection.sendRequest(RuleTestsRunRequest.method, { uri: manifestUri });
    assert.equal(run.problem, 'the manifest cannot be read: refused: the file is outside the workspace folders');
  });

  it('runs an opened manifest on the files in its folder and below, refusing a file above it and a link out of it', async () => {
    server.open(manifestUri, 'json', manifest);
    const list: RuleTestsList = await server.connection.sendRequest(RuleTestsListRequest.method, { uri: manifestUri });
    assert.equal(list.problem, undefined);
    assert.equal(list.rules?.uri, pathToFileURL(join(root, 'examples', 'rules', 'refunds.gr')).toString());
    const run: RuleTestsRun = await server.connection.sendRequest(RuleTestsRunRequest.method, { uri: manifestUri });
    assert.equal(run.problem, undefined);
    assert.deepEqual(run.cases.map((c) => [c.name, c.status, c.failures.map((f) => f.text)]), [
      ['beside the manifest', 'passed', []],
      ['above the manifest\'s folder', 'failed', ['the trace ../above.trace.json cannot be read: refused: the file is outside the workspace folders']],
      ['through a link out of the folder', 'failed', ['the trace fixtures/linked.trace.json cannot be read: refused: the file is outside the workspace folders']],
    ]);
  });
});
