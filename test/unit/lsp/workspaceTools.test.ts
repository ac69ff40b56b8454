import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { WorkspaceToolIndex } from '../../../server/src/lsp/workspaceTools';
import { traceService } from '../../../server/src/trace';

const call = (id: string, name: string) =>
  `{"role": "assistant", "tool_calls": [{"id": "${id}", "type": "function", "function": {"name": "${name}", "arguments": {}}}]}`;

describe('workspace tool index', () => {
  let root: string;

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-traces-tools-'));
    mkdirSync(join(root, 'a', 'node_modules'), { recursive: true });
    writeFileSync(join(root, 'a', 'one.trace.json'), `[${call('1', 'send_email')}, ${call('2', 'send_email')}, ${call('3', 'get_inbox')}]`);
    writeFileSync(join(root, 'two.trace.json'), `[${call('1', 'send_email')}]`);
    writeFileSync(join(root, 'a', 'node_modules', 'skipped.trace.json'), `[${call('1', 'rm_rf')}]`);
    writeFileSync(join(root, 'rules.gr'), 'raise "x" if:\n    (c: ToolCall)\n');
  });

  after(() => rmSync(root, { recursive: true, force: true }));

  it('counts the calls of each tool per trace file, skipping dependency folders', async () => {
    const index = new WorkspaceToolIndex(() => undefined);
    await index.rebuild([pathToFileURL(root).toString()], 100);
    const one = pathToFileURL(join(root, 'a', 'one.trace.json')).toString();
    const two = pathToFileURL(join(root, 'two.trace.json')).toString();
    assert.deepEqual(index.tools(), [
      { name: 'get_inbox', files: [{ uri: one, count: 1 }] },
      { name: 'send_email', files: [{ uri: one, count: 2 }, { uri: two, count: 1 }] },
    ]);
    assert.equal(index.truncated, false);
  });

  it('stops at the file limit and says so', async () => {
    const messages: string[] = [];
    const index = new WorkspaceToolIndex((message) => messages.push(message));
    await index.rebuild([pathToFileURL(root).toString()], 1);
    assert.equal(index.truncated, true);
    assert.equal(index.tools().reduce((sum, tool) => sum + tool.files.length, 0) >= 1, true);
    assert.deepEqual(messages, ['Tool index: stopped at 1 trace files (setting agentTraces.workspace.maxTraceFiles).']);
  });

  it('replaces a file\'s entry when its document changes, and forgets removed files', () => {
    const index = new WorkspaceToolIndex(() => undefined);
    const uri = 'file:///open.trace.json';
    index.update(uri, 'agent-trace', traceService.parse({ uri, version: 1, text: `[${call('1', 'lookup')}]` }));
    assert.deepEqual(index.tools(), [{ name: 'lookup', files: [{ uri, count: 1 }] }]);
    index.update(uri, 'agent-trace', traceService.parse({ uri, version: 2, text: `[${call('1', 'refund')}]` }));
    assert.deepEqual(index.tools(), [{ name: 'refund', files: [{ uri, count: 1 }] }]);
    index.remove(uri);
    assert.deepEqual(index.tools(), []);
  });
});
