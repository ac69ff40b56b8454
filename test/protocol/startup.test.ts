import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ServerProcess } from './lspClient';

const traceUri = 'file:///workspace/opened.trace.json';
const traceText = '[{"role": "tool", "tool_call_id": "call_9", "content": "orphan"}]';

describe('server start and open, as editors other than VS Code drive it', () => {
  it('checks a newly opened document at once, not after the typing delay', async () => {
    // With an hour's typing delay, diagnostics that arrive at all prove the open was not put behind it.
    const server = new ServerProcess({ validation: { delay: 3_600_000 } });
    try {
      await server.initialize();
      await server.configured;
      server.open(traceUri, 'agent-trace', traceText);
      const diagnostics = await server.diagnosticsFor(traceUri, 1);
      assert.deepEqual(diagnostics.map((d) => d.code), ['trace/unknown-call-id']);
    } finally {
      assert.equal(await server.shutdown(), 0);
    }
  });

  it('logs no error for a client that does not report workspace folder changes', async () => {
    const server = new ServerProcess();
    const errors: string[] = [];
    server.connection.onNotification('window/logMessage', (params: { type: number; message: string }) => {
      if (params.type === 1) errors.push(params.message);
    });
    try {
      await server.initialize();
      await server.configured;
      server.open(traceUri, 'agent-trace', traceText);
      await server.diagnosticsFor(traceUri, 1);
      assert.deepEqual(errors, []);
    } finally {
      assert.equal(await server.shutdown(), 0);
    }
  });
});
