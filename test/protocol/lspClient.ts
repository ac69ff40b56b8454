import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  createProtocolConnection, PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter,
  type Diagnostic, type ProtocolConnection, type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { serverEnvironment, serverExecArgv } from '../../client/src/serverProcess';

/** The checkout this file was bundled from (out/test/protocol/ for the tests, out/bench/ for the benchmarks). */
function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'server'))) return dir;
    if (dirname(dir) === dir) return resolve(start, '..', '..', '..');
  }
}

export const repoRoot = findRepoRoot(__dirname);

/**
 * The bundled server as a separate process, spoken to over stdio, as another editor would, started with the Node
 * options the VS Code client starts it with (so the tests and benchmarks run what users run).
 */
export class ServerProcess {
  readonly connection: ProtocolConnection;
  private readonly child: ChildProcess;
  private readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  private readonly waiters: { check: () => boolean; resolve: () => void }[] = [];
  stderr = '';
  private markConfigured: () => void = () => undefined;
  /** Settles once the server has asked for the settings and been answered (open documents after it to use them). */
  readonly configured = new Promise<void>((resolvePromise) => (this.markConfigured = resolvePromise));

  /**
   * `configuration` is what the client answers for the `agentTraces` section (empty: every default); `env` adds to the
   * server process's environment.
   */
  constructor(private readonly configuration: unknown = {}, env: Record<string, string> = {}) {
    this.child = spawn(process.execPath, [...serverExecArgv, resolve(repoRoot, 'dist', 'server.js'), '--stdio'], { stdio: 'pipe', env: { ...process.env, ...serverEnvironment(process.env, process.platform), ...env } });
    this.child.stderr!.on('data', (chunk) => (this.stderr += chunk));
    this.exited = new Promise((resolvePromise) => this.child.once('exit', (code, signal) => resolvePromise(signal ?? `exit code ${code}`)));
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      this.diagnostics.set(params.uri, params);
      for (const waiter of [...this.waiters]) {
        if (waiter.check()) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
    this.connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => {
      setImmediate(this.markConfigured);
      return params.items.map(() => this.configuration);
    });
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('workspace/codeLens/refresh', () => {
      this.lensRefreshes++;
      for (const waiter of this.lensWaiters.splice(0)) waiter();
      return null;
    });
    this.connection.listen();
  }

  private lensRefreshes = 0;
  private readonly lensWaiters: (() => void)[] = [];

  /** Resolves when the server next asks the editor to refresh its code lenses (no sleeping, a timeout instead). */
  nextLensRefresh(timeoutMs = 10_000): Promise<void> {
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error(`no code lens refresh within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      this.lensWaiters.push(() => (clearTimeout(timer), resolvePromise()));
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Resolves with the exit code or signal when the process ends (a crash shows up here). */
  readonly exited: Promise<string>;

  /**
   * `workspaceFolders`: file URIs of the folders the server is told about (the first is also the root);
   * `initializationOptions`: as the VS Code client sends them (shared/requests.ts InitializationOptions).
   */
  async initialize(workspaceFolders: string | string[] = [], initializationOptions?: unknown): Promise<any> {
    const folders = typeof workspaceFolders === 'string' ? [workspaceFolders] : workspaceFolders;
    const result = await this.connection.sendRequest('initialize', {
      processId: process.pid,
      initializationOptions,
      rootUri: folders[0] ?? null,
      capabilities: { workspace: { configuration: true, codeLens: { refreshSupport: true } }, textDocument: { definition: { linkSupport: true } } },
      workspaceFolders: folders.length > 0 ? folders.map((uri) => ({ uri, name: uri })) : null,
    });
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  open(uri: string, languageId: string, text: string, version = 1): void {
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
  }

  /** Resolves with the diagnostics published for exactly this document version (no sleeping, a timeout instead). */
  diagnosticsFor(uri: string, version: number, timeoutMs = 10_000): Promise<Diagnostic[]> {
    const current = () => this.diagnostics.get(uri)?.version === version;
    return new Promise((resolvePromise, reject) => {
      const done = () => resolvePromise(this.diagnostics.get(uri)!.diagnostics);
      if (current()) return done();
      const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri}@${version} within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      this.waiters.push({ check: current, resolve: () => (clearTimeout(timer), done()) });
    });
  }

  /** Resolves with the next diagnostics published for a document after this call (e.g. a re-check of the same version). */
  nextDiagnostics(uri: string, timeoutMs = 10_000): Promise<Diagnostic[]> {
    const before = this.diagnostics.get(uri);
    const fresh = () => this.diagnostics.get(uri) !== before;
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => reject(new Error(`no new diagnostics for ${uri} within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      this.waiters.push({ check: fresh, resolve: () => (clearTimeout(timer), resolvePromise(this.diagnostics.get(uri)!.diagnostics)) });
    });
  }

  async shutdown(): Promise<number | null> {
    const exited = new Promise<number | null>((resolvePromise) => this.child.once('exit', (code) => resolvePromise(code)));
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    const code = await exited;
    this.connection.dispose();
    return code;
  }

  kill(): void {
    this.child.kill();
  }

  /** Closes the server's input, as an editor that goes away without a shutdown does. */
  endInput(): void {
    this.child.stdin!.end();
  }
}
