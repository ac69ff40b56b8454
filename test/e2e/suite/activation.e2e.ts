import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, EXTENSION_ID, openFile, waitFor } from './helpers';

describe('activation and languages', () => {
  after(closeAllEditors);

  it('activates on a .trace.json file and exposes its API', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded from the extension development path`);
    const { document } = await openFile('inbox-assistant.trace.json');
    assert.equal(document.languageId, 'agent-trace');
    const api = await activeApi();
    assert.equal(typeof api.preview.onDidRender, 'function');
    assert.equal(typeof api.preview.lastRendered, 'function');
    const info = await api.serverInfo();
    assert.ok(Number.isInteger(info.pid) && info.pid > 0, `serverInfo().pid is a process id: ${info.pid}`);
    assert.equal(info.version, extension.packageJSON.version);
  });

  it('gives .gr files the guardrail language', async () => {
    const { document } = await openFile('rules', 'data-leak.gr');
    assert.equal(document.languageId, 'guardrail');
  });

  it('gives Explorer datasets (.trace.jsonl) the agent-trace-jsonl language', async () => {
    const { document } = await openFile('datasets', 'support-evals.trace.jsonl');
    assert.equal(document.languageId, 'agent-trace-jsonl');
  });

  it('recognises an agentguard log (.jsonl) by its first line as agent-trace-jsonl', async () => {
    const { document } = await openFile('agentguard', 'checkout-session.jsonl');
    // A plain .jsonl name alone says nothing; the first line {"call":{"call_id": does.
    await waitFor(() => document.languageId === 'agent-trace-jsonl', 5_000, `agent-trace-jsonl language (is ${document.languageId})`);
  });

  it('registers its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const command of ['agentTraces.showPreview', 'agentTraces.showPreviewToSide', 'agentTraces.checkWithRules', 'agentTraces.evaluateRules', 'agentTraces.restartServer']) {
      assert.ok(commands.includes(command), `command ${command} is registered`);
    }
  });
});
