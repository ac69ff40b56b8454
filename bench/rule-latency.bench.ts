// How long a hover on a small file waits while rules are evaluated, end to end through the bundled server over stdio:
// (1) nothing evaluated (the floor of this run), (2) a rule file opened beside an open 9 MB trace, (3) a rule file
// whose lenses count three 9 MB trace files of the workspace, with rules that loop over every character of every
// tool output (one rule-body evaluation each, a loop of 1,350 inside it). The target: no evaluation delays a
// request by more than 50 ms. A second server script (e.g. a build of an earlier version) can be measured in the
// same run for comparison: AGENT_TRACES_BASELINE_SERVER=path/to/dist/server.js.
// Run: npm run bench -- rule-latency   (or node esbuild.mjs && node out/bench/rule-latency.bench.js)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection, PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter, type ProtocolConnection,
} from 'vscode-languageserver/node';
import { serverEnvironment, serverExecArgv } from '../client/src/serverProcess';
import { median } from './measure';

const repoRoot = resolve(__dirname, '..', '..');
const small = 'file:///bench/small.trace.json';
const smallText = JSON.stringify([{ role: 'user', content: 'hi' }]);
const loopingRules = 'raise "loops" if:\n    (m: ToolOutput)\n    len([c for c in m.content if c == "#"]) > 0\n';

function bigTrace(megabytes: number): string {
  const output = 'line of a tool output with "quotes" and\ttabs\n'.repeat(30);
  const events: string[] = [];
  for (let size = 0, i = 0; size < megabytes * 2 ** 20; i++) {
    const event = JSON.stringify({ role: 'tool', tool_call_id: `call_${i}`, content: output });
    events.push(event);
    size += event.length;
  }
  return `[\n${events.join(',\n')}\n]\n`;
}

class Server {
  readonly connection: ProtocolConnection;
  private readonly child;
  private readonly published = new Map<string, number>();
  private readonly waiters: (() => void)[] = [];
  lensRefreshes = 0;

  constructor(script: string, settings: object = {}) {
    // With the Node options the client starts the server with, so that this is the server users run.
    this.child = spawn(process.execPath, [...serverExecArgv, script, '--stdio'], {
      stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...serverEnvironment(process.env, process.platform) },
    });
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.published.set(params.uri, (this.published.get(params.uri) ?? 0) + 1);
      for (const waiter of this.waiters.splice(0)) waiter();
    });
    this.connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => settings));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('workspace/codeLens/refresh', () => {
      this.lensRefreshes++;
      for (const waiter of this.waiters.splice(0)) waiter();
      return null;
    });
    this.connection.listen();
  }

  async initialize(folder?: string): Promise<void> {
    await this.connection.sendRequest('initialize', {
      processId: process.pid, rootUri: folder ?? null,
      capabilities: { workspace: { configuration: true, codeLens: { refreshSupport: true } } },
      workspaceFolders: folder ? [{ uri: folder, name: 'bench' }] : null,
    });
    await this.connection.sendNotification('initialized', {});
  }

  open(uri: string, languageId: string, text: string): void {
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  publications(uri: string): number {
    return this.published.get(uri) ?? 0;
  }

  /** Resolves when `ready()` holds, looked at after each publication or lens refresh. */
  async until(ready: () => boolean | Promise<boolean>): Promise<void> {
    while (!(await ready())) await new Promise<void>((resolvePromise) => this.waiters.push(resolvePromise));
  }

  async hover(): Promise<number> {
    const started = performance.now();
    await this.connection.sendRequest('textDocument/hover', { textDocument: { uri: small }, position: { line: 0, character: 5 } });
    return performance.now() - started;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolvePromise) => this.child.once('exit', resolvePromise));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    await exited;
  }
}

/**
 * Waits until the server has been idle for a while: what opening a big trace or reading the workspace's trace files
 * for the tool index costs is measured elsewhere (e2e.bench.ts), not here.
 */
async function settle(server: Server): Promise<void> {
  for (let quiet = 0; quiet < 20;) quiet = (await server.hover()) < 5 ? quiet + 1 : 0, await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
}

/** Hover latencies (ms) while `work` runs, one hover after the other. */
async function hoversDuring(server: Server, work: Promise<unknown>): Promise<number[]> {
  let done = false;
  void work.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) latencies.push(await server.hover());
  await work;
  return latencies;
}

function summary(name: string, latencies: number[], elapsedMs: number): string {
  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
  return `${name.padEnd(58)} ${String(latencies.length).padStart(6)} hovers in ${(elapsedMs / 1000).toFixed(1).padStart(5)} s: `
    + `median ${median(latencies).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
}

async function measure(label: string, script: string, folder: string, bigText: string): Promise<void> {
  // (1) idle: the floor of this machine, now.
  {
    const server = new Server(script);
    await server.initialize();
    server.open(small, 'agent-trace', smallText);
    await server.until(() => server.publications(small) > 0);
    const started = performance.now();
    const idle = await hoversDuring(server, new Promise((resolvePromise) => setTimeout(resolvePromise, 3000)));
    console.log(summary(`${label}: no evaluation`, idle, performance.now() - started));
    await server.stop();
  }
  // (2) a rule file beside an open 9 MB trace.
  {
    const server = new Server(script);
    await server.initialize();
    server.open(small, 'agent-trace', smallText);
    const big = 'file:///bench/big.trace.json';
    server.open(big, 'agent-trace', bigText);
    await server.until(() => server.publications(small) > 0 && server.publications(big) > 0);
    await settle(server);
    const started = performance.now();
    const evaluated = server.until(() => server.publications(big) > 1);
    server.open('file:///bench/loops.gr', 'guardrail', loopingRules);
    const latencies = await hoversDuring(server, evaluated);
    console.log(summary(`${label}: rules on an open 9 MB trace`, latencies, performance.now() - started));
    await server.stop();
  }
  // (3) a rule file's lenses over three 9 MB trace files of the workspace.
  {
    const server = new Server(script);
    await server.initialize(pathToFileURL(folder).toString());
    server.open(small, 'agent-trace', smallText);
    await server.until(() => server.publications(small) > 0);
    await settle(server);
    const ruleUri = pathToFileURL(join(folder, 'loops.gr')).toString();
    const counted = server.until(async () => {
      if (server.lensRefreshes === 0) return false;
      const lenses = await server.connection.sendRequest<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: ruleUri } });
      return / 3 more trace files in the workspace| 3 trace files in the workspace/.test(lenses[0]?.command?.title ?? '');
    });
    const started = performance.now();
    server.open(ruleUri, 'guardrail', loopingRules);
    const latencies = await hoversDuring(server, counted);
    console.log(summary(`${label}: lenses over 3 × 9 MB workspace traces`, latencies, performance.now() - started));
    await server.stop();
  }
}

async function main(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'rule-latency-'));
  try {
    const bigText = bigTrace(9);
    for (const name of ['a', 'b', 'c']) writeFileSync(join(folder, `${name}.trace.json`), bigText);
    console.log('hovers on a small open file, one after the other, while rules are evaluated (target: max ≤ 50 ms)');
    await measure('agent-traces', resolve(repoRoot, 'dist', 'server.js'), folder, bigText);
    const baseline = process.env.AGENT_TRACES_BASELINE_SERVER;
    if (baseline) await measure('baseline', baseline, folder, bigText);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
