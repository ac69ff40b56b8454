import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ServerProcess, repoRoot } from './lspClient';

/*
 * Rules are evaluated on worker threads (server/src/rulesOnTraces/evaluationWorkers.ts), from their own bundle: the
 * server's thread never loads the evaluator and its Python parser, and starts a worker only when a trace has rules
 * to check. The bundles are read for the evaluator's code; the server's log says when a worker starts.
 */
const started = /^\[guardrails\] starting a rule evaluation worker$/;

/** Runs a server, lets `use` drive it, shuts it down, and returns what it logged. */
async function logDuring(use: (server: ServerProcess) => Promise<void>): Promise<string[]> {
  const server = new ServerProcess();
  const log: string[] = [];
  server.connection.onNotification('window/logMessage', (params: { message: string }) => void log.push(params.message));
  try {
    await server.initialize();
    await server.configured;
    await use(server);
  } finally {
    assert.equal(await server.shutdown(), 0);
  }
  return log;
}

const traceUri = 'file:///workspace/chat.trace.json';
const traceText = '[{"role": "user", "content": "my password is hunter2"}]';
const ruleUri = 'file:///workspace/leaks.gr';
const ruleText = 'raise "password in a message" if:\n    (m: Message)\n    "hunter2" in m.content\n';

describe('the guardrail rule evaluator runs on a worker thread', () => {
  it('is not in the server\'s bundle, only in the worker\'s', () => {
    // Strings only the evaluator and the Python parser it uses for python_code hold.
    const marks = ['Evaluation failed at line', '@lezer/python'];
    const server = readFileSync(join(repoRoot, 'dist', 'server.js'), 'utf8');
    const worker = readFileSync(join(repoRoot, 'dist', 'evaluationWorker.js'), 'utf8');
    assert.deepEqual(marks.map((mark) => [mark, server.includes(mark), worker.includes(mark)]), marks.map((mark) => [mark, false, true]));
  });

  it('is not started by a server that checks a trace no rule file applies to', async () => {
    const log = await logDuring(async (server) => {
      server.open(traceUri, 'agent-trace', traceText);
      assert.deepEqual(await server.diagnosticsFor(traceUri, 1), []);
    });
    assert.deepEqual(log.filter((line) => started.test(line)), []);
  });

  it('is started, once, when a rule file applies to an open trace', async () => {
    const log = await logDuring(async (server) => {
      server.open(traceUri, 'agent-trace', traceText);
      server.open(ruleUri, 'guardrail', ruleText);
      let diagnostics = await server.diagnosticsFor(traceUri, 1);
      while (!diagnostics.some((d) => d.source === 'guardrails')) diagnostics = await server.nextDiagnostics(traceUri);
      assert.deepEqual(diagnostics.map((d) => d.message), ['password in a message']);
    });
    assert.equal(log.filter((line) => started.test(line)).length, 1, log.join('\n'));
  });
});
