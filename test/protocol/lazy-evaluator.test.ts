import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { ServerProcess, repoRoot } from './lspClient';

/*
 * The server loads the guardrail rule evaluator (and its Python parser) only when a trace has rules to check
 * (server/src/lsp/ruleChecks.ts). esbuild keeps that `require` lazy inside dist/server.js itself: the evaluator is no
 * file of its own, so a preload hook on `require` cannot see it load. What can is V8's precise coverage, which Node
 * writes for the whole process at exit when NODE_V8_COVERAGE names a folder: esbuild puts each lazily loaded
 * module's top-level code in a function named by its source path (`"server/src/guardrail/evaluate/evaluator.ts"() {…}`),
 * called once when the module loads. Its call count says whether the evaluator was loaded. The test first finds the
 * function (so a bundling change fails it loudly instead of letting it pass), and checks it ran once rules applied.
 */
const evaluatorModules = ['server/src/rulesOnTraces/evaluateOnTrace.ts', 'server/src/guardrail/evaluate/evaluator.ts'];

interface FunctionCoverage {
  functionName: string;
  ranges: { count: number }[];
}

/** How often each evaluator module's top-level code ran in the server process that wrote coverage to `dir`. */
function evaluatorLoads(dir: string): Record<string, number | undefined> {
  const bundle = pathToFileURL(join(repoRoot, 'dist', 'server.js')).href;
  const scripts = readdirSync(dir).flatMap((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')).result as { url: string; functions: FunctionCoverage[] }[]));
  const server = scripts.filter((script) => script.url === bundle);
  assert.equal(server.length, 1, `coverage of ${bundle} in ${dir}`);
  const loads: Record<string, number | undefined> = {};
  for (const module of evaluatorModules) {
    const found = server[0].functions.filter((f) => f.functionName === module);
    loads[module] = found.length === 1 ? found[0].ranges[0].count : undefined;
  }
  return loads;
}

/** Runs a server that writes its coverage, lets `use` drive it, shuts it down, and returns the evaluator's loads. */
async function loadsDuring(use: (server: ServerProcess) => Promise<void>): Promise<Record<string, number | undefined>> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-traces-coverage-'));
  try {
    const server = new ServerProcess({}, { NODE_V8_COVERAGE: dir });
    try {
      await server.initialize();
      await server.configured;
      await use(server);
    } finally {
      assert.equal(await server.shutdown(), 0);
    }
    return evaluatorLoads(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const traceUri = 'file:///workspace/chat.trace.json';
const traceText = '[{"role": "user", "content": "my password is hunter2"}]';
const ruleUri = 'file:///workspace/leaks.gr';
const ruleText = 'raise "password in a message" if:\n    (m: Message)\n    "hunter2" in m.content\n';

describe('the guardrail rule evaluator is loaded lazily', () => {
  it('is not loaded by a server that starts and checks a trace no rule file applies to', async () => {
    const loads = await loadsDuring(async (server) => {
      server.open(traceUri, 'agent-trace', traceText);
      assert.deepEqual(await server.diagnosticsFor(traceUri, 1), []);
    });
    assert.deepEqual(loads, Object.fromEntries(evaluatorModules.map((module) => [module, 0])));
  });

  it('is loaded, once, when a rule file applies to an open trace', async () => {
    const loads = await loadsDuring(async (server) => {
      server.open(traceUri, 'agent-trace', traceText);
      server.open(ruleUri, 'guardrail', ruleText);
      let diagnostics = await server.diagnosticsFor(traceUri, 1);
      while (!diagnostics.some((d) => d.source === 'guardrails')) diagnostics = await server.nextDiagnostics(traceUri);
      assert.deepEqual(diagnostics.map((d) => d.message), ['password in a message']);
    });
    assert.deepEqual(loads, Object.fromEntries(evaluatorModules.map((module) => [module, 1])));
  });
});
