import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver/node';
import { ServerProcess } from './lspClient';

/**
 * A rule file that imports Python modules, over stdio: json is evaluated (its rule finds its violation), os is never
 * run (an information on the import, the rule's code lens and the trace say why).
 */

const traceUri = 'file:///workspace/pay.trace.json';
const traceText = '[\n  {"role": "user", "content": "{\\"amount\\": 150}"}\n]\n';
const ruleUri = 'file:///workspace/rules/pay.gr';
const ruleText = [
  'import os',
  'import json',
  '',
  'raise "host checked" if:',
  '    (m: Message)',
  '    os.path.exists("/etc/hosts")',
  '',
  'raise "large amount" if:',
  '    (m: Message)',
  '    json.loads(m.content)["amount"] > 100',
  '',
].join('\n');
const why = 'it calls os.path.exists, which could act on the machine or the network (module os): the local evaluator never runs it, where the official analyzer would';

describe('rules that import Python modules, over stdio', () => {
  const server = new ServerProcess();

  before(async () => {
    await server.initialize();
    server.open(traceUri, 'agent-trace', traceText);
    server.open(ruleUri, 'guardrail', ruleText);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('says on the import that os is never run', async () => {
    const diagnostics = await server.diagnosticsFor(ruleUri, 1);
    assert.deepEqual(diagnostics.filter((d) => d.code === 'gr/module-never-run').map((d) => [d.range, d.severity]), [
      [{ start: { line: 0, character: 7 }, end: { line: 0, character: 9 } }, 3],
    ]);
  });

  it('evaluates the json rule on the trace and reports the os rule as not evaluated, on the trace and on its lens', async () => {
    let diagnostics: Diagnostic[] = await server.diagnosticsFor(traceUri, 1);
    while (!diagnostics.some((d) => d.source === 'guardrails' && d.severity === 2)) diagnostics = await server.nextDiagnostics(traceUri);
    const guardrails = diagnostics.filter((d) => d.source === 'guardrails').map((d) => [d.severity, d.code, d.message]);
    const byCode = (a: unknown[], b: unknown[]) => String(a[1]).localeCompare(String(b[1]));
    assert.deepEqual(guardrails.sort(byCode), [
      [3, 'guardrails/not-evaluated', `pay.gr: Rule 1 is not evaluated: ${why}`],
      [2, 'guardrails/pay.gr:8', 'large amount'],
    ].sort(byCode));
    const titles = (await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: ruleUri } }) as { command?: { title: string } }[]).map((l) => l.command?.title);
    assert.equal(titles.length, 2);
    assert.match(titles[0]!, /^Not evaluated: pay\.gr: Rule 1 is not evaluated: it calls os\.path\.exists, which could act on the machine/);
    assert.equal(titles[1], '1 violation in 1 trace (of 1 open trace file)');
  });
});
