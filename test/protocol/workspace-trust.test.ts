import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver/node';
import { ServerProcess } from './lspClient';

const traceText = '[{"role": "user", "content": "pw hunter2, key sk-live-1"}]';
const ruleText = (literal: string) => `raise "found ${literal}" if:\n    (m: Message)\n    "${literal}" in m.content\n`;
const restricted = (names: string) => ({
  severity: 3,
  code: 'guardrails/restricted-mode',
  source: 'agent-traces',
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
  message: `${names} to this trace but, in Restricted Mode, rules are evaluated only when you ask: run "Agent Traces: Evaluate Rules on Open Traces" or click the rule file's code lens`,
});

/** The guardrail diagnostics of a trace and the notice of rules held back, as `message` lines in order. */
const summary = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.source === 'guardrails' || d.code === 'guardrails/restricted-mode').map((d) => String(d.message));

/**
 * A workspace with a rule file open beside a trace, a policy bound by the settings (as user settings may still bind
 * one in Restricted Mode) and a second trace on disk that the rule files' lenses count.
 */
function workspace(): { folder: string; uri: (name: string) => string } {
  const folder = mkdtempSync(join(tmpdir(), 'agent-traces-trust-'));
  mkdirSync(join(folder, 'policies'));
  writeFileSync(join(folder, 'policies', 'keys.gr'), ruleText('sk-live'));
  writeFileSync(join(folder, 'disk.trace.json'), traceText);
  return { folder, uri: (name) => pathToFileURL(join(folder, name)).toString() };
}

describe('Workspace Trust over stdio: an untrusted workspace evaluates rules only when the user asks', () => {
  const server = new ServerProcess({ guardrails: { policies: ['policies/*.gr'] } });
  const { folder, uri } = workspace();
  const trace = uri('open.trace.json');
  const rules = uri('leaks.gr');

  /** The trace's diagnostics once `ready` holds for them (each rule change re-checks the trace). */
  async function traceSummary(ready: (lines: string[]) => boolean): Promise<string[]> {
    let diagnostics = await server.diagnosticsFor(trace, 1);
    while (!ready(summary(diagnostics))) diagnostics = await server.nextDiagnostics(trace);
    return summary(diagnostics);
  }

  async function lenses(): Promise<{ title: string; command: string; arguments?: unknown[] }[]> {
    return (await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: rules } }) as any[]).map((lens) => lens.command);
  }

  before(async () => {
    await server.initialize(pathToFileURL(folder).toString(), { workspaceTrusted: false });
    await server.configured;
    server.open(trace, 'agent-trace', traceText);
    server.open(rules, 'guardrail', ruleText('hunter2'));
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads and checks the trace and the rule file, evaluates nothing, and says which rule files wait on the trace', async () => {
    const lines = await traceSummary((list) => list.some((line) => line.includes('leaks.gr') && line.includes('keys.gr')));
    assert.deepEqual(lines, [restricted('2 rule files apply (leaks.gr, keys.gr)').message]);
    const diagnostics = await server.diagnosticsFor(trace, 1);
    assert.deepEqual(diagnostics.find((d) => d.code === 'guardrails/restricted-mode'), restricted('2 rule files apply (leaks.gr, keys.gr)'));
    assert.deepEqual(await server.diagnosticsFor(rules, 1), [], 'the rule file is checked as usual');
  });

  it('puts a lens on each rule that asks, instead of a count', async () => {
    assert.deepEqual(await lenses(), [{
      title: 'Restricted Mode: rules run only when you ask · Evaluate on the open traces',
      command: 'agentTraces.evaluateRules',
      arguments: [rules],
    }]);
  });

  it('evaluates a rule file once the user asks for it (its lens), on the open trace and for its lens on the workspace\'s traces', async () => {
    const answer = await server.connection.sendRequest('agentTraces/evaluateRules', { rules: [rules] });
    assert.deepEqual(answer, { rules: 1, traces: 1 });
    const lines = await traceSummary((list) => list.includes('found hunter2'));
    assert.deepEqual(lines, [restricted('The rule file keys.gr applies').message, 'found hunter2']);
    let titles = (await lenses()).map((lens) => lens.title);
    while (!titles.some((title) => title.includes('workspace'))) {
      await server.nextLensRefresh();
      titles = (await lenses()).map((lens) => lens.title);
    }
    assert.deepEqual(titles, ['2 violations in 2 traces (of 1 open trace file and 1 more trace file in the workspace)']);
  });

  it('evaluates every rule file that applies when asked without naming one (the command)', async () => {
    const answer = await server.connection.sendRequest('agentTraces/evaluateRules', {});
    assert.deepEqual(answer, { rules: 2, traces: 1 });
    const lines = await traceSummary((list) => list.includes('found sk-live'));
    assert.deepEqual(lines, ['found hunter2', 'found sk-live']);
  });
});

describe('Workspace Trust over stdio: trusted, and trust granted later', () => {
  it('evaluates at once when the client says the workspace is trusted, as for a client that says nothing', async () => {
    for (const options of [{ workspaceTrusted: true }, undefined]) {
      const server = new ServerProcess();
      await server.initialize([], options);
      server.open('file:///w/t.trace.json', 'agent-trace', traceText);
      server.open('file:///w/leaks.gr', 'guardrail', ruleText('hunter2'));
      let diagnostics = await server.diagnosticsFor('file:///w/t.trace.json', 1);
      while (summary(diagnostics).length === 0) diagnostics = await server.nextDiagnostics('file:///w/t.trace.json');
      assert.deepEqual(summary(diagnostics), ['found hunter2'], JSON.stringify(options));
      assert.equal(await server.shutdown(), 0);
    }
  });

  it('evaluates the rule files the user picks for a trace with "Check with Rules…" (an ask)', async () => {
    const server = new ServerProcess();
    const { folder, uri } = workspace();
    await server.initialize(pathToFileURL(folder).toString(), { workspaceTrusted: false });
    const trace = uri('open.trace.json');
    server.open(trace, 'agent-trace', traceText);
    await server.diagnosticsFor(trace, 1);
    assert.deepEqual(await server.connection.sendRequest('agentTraces/rulesForTrace', { uri: trace, rules: [uri('policies/keys.gr')] }), { bound: 1, problems: [] });
    let diagnostics = await server.nextDiagnostics(trace);
    while (summary(diagnostics).length === 0) diagnostics = await server.nextDiagnostics(trace);
    assert.deepEqual(summary(diagnostics), ['found sk-live']);
    assert.equal(await server.shutdown(), 0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('evaluates without being asked once the client says the user trusted the workspace', async () => {
    const server = new ServerProcess();
    await server.initialize([], { workspaceTrusted: false });
    const trace = 'file:///w/t.trace.json';
    server.open(trace, 'agent-trace', traceText);
    server.open('file:///w/leaks.gr', 'guardrail', ruleText('hunter2'));
    let diagnostics = await server.diagnosticsFor(trace, 1);
    while (summary(diagnostics).length === 0) diagnostics = await server.nextDiagnostics(trace);
    assert.deepEqual(summary(diagnostics), [restricted('The rule file leaks.gr applies').message]);
    await server.connection.sendNotification('agentTraces/workspaceTrust', { trusted: true });
    while (!summary(diagnostics).includes('found hunter2')) diagnostics = await server.nextDiagnostics(trace);
    assert.deepEqual(summary(diagnostics), ['found hunter2']);
    assert.equal(await server.shutdown(), 0);
  });
});
