import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { CodeLens, Diagnostic } from 'vscode-languageserver/node';
import { RuleTestsListRequest, RuleTestsRunRequest, type RuleTestsList, type RuleTestsRun } from '../../shared/requests';
import { ServerProcess } from './lspClient';

const rules = [
  'raise PolicyViolation("refund needs approval", call) if:',
  '    (call: ToolCall)',
  '    call is tool:issue_refund',
  '    call.function.arguments.amount > input.limit',
  '',
  'raise "never" if:',
  '    (m: Message)',
  '    m.role == "nobody"',
  '',
].join('\n');

const trace = (amount: number) => JSON.stringify([
  { role: 'user', content: 'refund it' },
  { role: 'assistant', content: null, tool_calls: [{ id: '1', type: 'function', function: { name: 'issue_refund', arguments: { amount } } }] },
], null, 2);

const manifest = JSON.stringify({
  params: { limit: 100 },
  cases: [
    { name: 'caught', trace: 'big.trace.json', expect: [{ message: 'refund needs approval', at: 1 }] },
    { name: 'wrongly expects nothing', trace: 'big.trace.json', expect: [] },
    { name: 'passes', trace: 'small.trace.json', expect: [] },
  ],
}, null, 2);

describe('rule tests over stdio: manifests checked, listed and run, coverage on the rule file', () => {
  const server = new ServerProcess();
  let dir: string;
  let manifestUri: string;
  let rulesUri: string;

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-traces-rule-tests-')));
    mkdirSync(join(dir, 'rules'));
    writeFileSync(join(dir, 'rules', 'refunds.gr'), rules);
    writeFileSync(join(dir, 'rules', 'big.trace.json'), trace(500));
    writeFileSync(join(dir, 'rules', 'small.trace.json'), trace(5));
    writeFileSync(join(dir, 'rules', 'refunds.tests.json'), manifest);
    manifestUri = pathToFileURL(join(dir, 'rules', 'refunds.tests.json')).toString();
    rulesUri = pathToFileURL(join(dir, 'rules', 'refunds.gr')).toString();
    await server.initialize(pathToFileURL(dir).toString());
    await server.configured;
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks a manifest VS Code opens as JSON: a trace file that does not exist, a message no rule raises, a rule line that holds none', async () => {
    const text = JSON.stringify({
      cases: [{ name: 'x', trace: 'gone.trace.json', expect: [{ message: 'refund needs aproval' }, { message: 'never', rule: 3 }] }],
    }, null, 2);
    server.open(manifestUri, 'json', text);
    const diagnostics = await server.diagnosticsFor(manifestUri, 1);
    const shown = diagnostics.map((d: Diagnostic) => [d.code, d.message, text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character)]);
    assert.deepEqual(shown, [
      ['tests/missing-file', 'The trace file gone.trace.json does not exist', '"gone.trace.json"'],
      ['tests/unknown-message', 'No rule of refunds.gr raises "refund needs aproval"; its rules raise "refund needs approval", "never"', '"refund needs aproval"'],
      ['tests/unknown-rule', 'No rule of refunds.gr raises on line 3 (its raises are on lines 1, 6)', '3'],
    ]);
    void server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: manifestUri } });
  });

  it('lists the cases of a manifest on disk, with the rule file where its first rule is', async () => {
    const list: RuleTestsList = await server.connection.sendRequest(RuleTestsListRequest.method, { uri: manifestUri });
    assert.equal(list.problem, undefined);
    assert.deepEqual(list.rules, { uri: rulesUri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } });
    assert.deepEqual(list.cases.map((c) => [c.index, c.name, c.range.start.line, c.skipped]), [[0, 'caught', 6, false], [1, 'wrongly expects nothing', 16, false], [2, 'passes', 21, false]]);
  });

  it('runs the cases: one passes, one fails at the unexpected violation in the trace with the difference of expected and found', async () => {
    const lenses = server.nextLensRefresh();
    const run: RuleTestsRun = await server.connection.sendRequest(RuleTestsRunRequest.method, { uri: manifestUri });
    assert.equal(run.problem, undefined);
    assert.deepEqual(run.cases.map((c) => [c.name, c.status]), [['caught', 'passed'], ['wrongly expects nothing', 'failed'], ['passes', 'passed']]);
    const failed = run.cases[1];
    assert.deepEqual(failed.failures, [{
      kind: 'unexpected', text: 'unexpected "refund needs approval" at event 1, rule line 1',
      location: { uri: pathToFileURL(join(dir, 'rules', 'big.trace.json')).toString(), range: { start: { line: 9, character: 6 }, end: { line: 18, character: 7 } } },
    }]);
    assert.equal(failed.expected, '(no violations)\n');
    assert.equal(failed.found, '"refund needs approval" at event 1, rule line 1\n');
    assert.deepEqual(run.coverage && [run.coverage.rulesUri, run.coverage.cases, run.coverage.rules.map((r) => [r.line, r.label, r.cases])], [rulesUri, 3, [[1, 'refund needs approval', 2], [6, 'never', 0]]]);
    await lenses;
  });

  it('shows on the rule file the cases each rule fired in, and fades the rule no case exercised', async () => {
    server.open(rulesUri, 'guardrail', rules);
    const diagnostics = await server.diagnosticsFor(rulesUri, 1);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.message, d.range.start.line, d.range.end.line, d.tags]), [
      ['tests/never-fires', 'This rule fired in none of the 3 cases of refunds.tests.json: no test exercises it', 5, 7, [1]],
    ]);
    const lenses: CodeLens[] = await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: rulesUri } });
    const titles = lenses.map((lens) => [lens.range.start.line, lens.command?.title]).filter(([, title]) => String(title).startsWith('Tests:'));
    assert.deepEqual(titles, [[0, 'Tests: fired in 2 of 3 cases (refunds.tests.json)'], [5, 'Tests: never fires in 3 cases (refunds.tests.json)']]);
  });

  it('runs only the cases asked for, and says why a manifest that does not parse cannot run', async () => {
    const one: RuleTestsRun = await server.connection.sendRequest(RuleTestsRunRequest.method, { uri: manifestUri, cases: [2] });
    assert.deepEqual(one.cases.map((c) => [c.index, c.status]), [[2, 'passed']]);
    const broken = pathToFileURL(join(dir, 'broken.tests.json')).toString();
    writeFileSync(join(dir, 'broken.tests.json'), '{"cases": [');
    const list: RuleTestsList = await server.connection.sendRequest(RuleTestsListRequest.method, { uri: broken });
    assert.match(list.problem ?? '', /\(line 1\)$/);
    const run: RuleTestsRun = await server.connection.sendRequest(RuleTestsRunRequest.method, { uri: broken });
    assert.match(run.problem ?? '', /^the manifest does not parse: /);
  });
});

describe('rule tests over stdio: a rule file that does not load, and a rule that backtracks past its time limit', () => {
  const server = new ServerProcess({ guardrails: { timeout: 1000 } });
  let dir: string;
  const uriOf = (name: string) => pathToFileURL(join(dir, name)).toString();

  before(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-traces-rule-tests-limits-')));
    const user = (content: string) => JSON.stringify([{ role: 'user', content }]);
    writeFileSync(join(dir, 'backtracks.trace.json'), user('a'.repeat(30) + '!'));
    writeFileSync(join(dir, 'hello.trace.json'), user('hello'));
    writeFileSync(join(dir, 'regex.gr'), 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n\nraise "hello" if:\n    (m: Message)\n    "hello" in m.content\n');
    writeFileSync(join(dir, 'unknown.gr'), 'raise "x" if:\n    (m: Message)\n    m.content == undefined_name\n');
    const cases = [
      { name: 'backtracking input', trace: 'backtracks.trace.json', expect: [] },
      { name: 'hello is caught', trace: 'hello.trace.json', expect: [{ message: 'hello' }] },
    ];
    writeFileSync(join(dir, 'regex.tests.json'), JSON.stringify({ rules: 'regex.gr', cases }));
    writeFileSync(join(dir, 'unknown.tests.json'), JSON.stringify({ rules: 'unknown.gr', cases }));
    await server.initialize(pathToFileURL(dir).toString());
    await server.configured;
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops the rule at the time limit on its worker: that case fails with the limit, the next one runs, the server answers meanwhile', async () => {
    const running: Promise<RuleTestsRun> = server.connection.sendRequest(RuleTestsRunRequest.method, { uri: uriOf('regex.tests.json') });
    const hover = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: uriOf('regex.gr') }, position: { line: 1, character: 8 } });
    assert.notEqual(hover, undefined);
    const run = await running;
    assert.deepEqual(run.cases.map((c) => [c.name, c.status, c.failures.map((f) => f.text)]), [
      ['backtracking input', 'failed', ['regex.gr:1: Rule 1 stopped after running 1 s on this trace (the time limit); its violations are not reported']],
      ['hello is caught', 'passed', []],
    ]);
  });

  it('says the rule file does not load, and runs no case', async () => {
    const run: RuleTestsRun = await server.connection.sendRequest(RuleTestsRunRequest.method, { uri: uriOf('unknown.tests.json') });
    assert.deepEqual([run.problem, run.cases.length], ['the rule file unknown.gr does not load: The rules cannot be loaded: Failed to resolve identifier undefined_name (line 3)', 0]);
  });
});
