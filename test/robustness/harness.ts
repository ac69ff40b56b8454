import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ServerProcess } from '../protocol/lspClient';

/** What every attack must stay within. */
export const bounds = { answerMs: 2000, rssBytes: 1.5 * 1024 ** 3 };

export interface Memory {
  rssBytes: number;
  /** The peak resident set size so far (VmHWM). */
  peakBytes: number;
}

/** Memory of a process as Linux counts it (/proc/<pid>/status). */
export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kB = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) * 1024;
  return { rssBytes: kB('VmRSS'), peakBytes: kB('VmHWM') };
}

/**
 * The bundled server over stdio, under attack: every request must be answered within bounds.answerMs, the
 * process must never exit, and its peak memory must stay under bounds.rssBytes.
 */
export class AttackedServer {
  readonly server: ServerProcess;
  private readonly logs: string[] = [];
  private readonly logWaiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  private crash: string | undefined;

  constructor(settings: object = {}) {
    this.server = new ServerProcess({ ...settings });
    void this.server.exited.then((how) => (this.crash = `the server exited (${how}); stderr: ${this.server.stderr.slice(-2000)}`));
    this.server.connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.logs.push(params.message);
      for (const waiter of [...this.logWaiters]) {
        if (waiter.pattern.test(params.message)) {
          this.logWaiters.splice(this.logWaiters.indexOf(waiter), 1);
          waiter.resolve(params.message);
        }
      }
    });
  }

  static async start(options: { settings?: object; folders?: string[] } = {}): Promise<AttackedServer> {
    const attacked = new AttackedServer(options.settings);
    await attacked.within('initialize', attacked.server.initialize(options.folders ?? []));
    return attacked;
  }

  /** Resolves with the answer, or rejects when it takes longer than the bound or the server dies meanwhile. */
  async within<T>(what: string, answer: Promise<T>, limitMs = bounds.answerMs): Promise<T> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${limitMs} ms${this.crash ? `; ${this.crash}` : ''}`)), limitMs);
    });
    const died = this.server.exited.then((how) => {
      throw new Error(`${what}: the server exited (${how}); stderr: ${this.server.stderr.slice(-2000)}`);
    });
    died.catch(() => undefined); // an exit after the answer is reported by assertHealthy, not as an unhandled rejection
    try {
      const result = await Promise.race([answer, late, died]);
      const elapsed = performance.now() - started;
      if (elapsed > limitMs) throw new Error(`${what}: answered after ${Math.round(elapsed)} ms`);
      return result;
    } finally {
      clearTimeout(timer);
    }
  }

  request<T = any>(method: string, params: object, limitMs?: number): Promise<T> {
    return this.within(method, this.server.connection.sendRequest(method, params) as Promise<T>, limitMs);
  }

  open(uri: string, languageId: string, text: string, version = 1): void {
    this.server.open(uri, languageId, text, version);
  }

  diagnostics(uri: string, version = 1, limitMs?: number) {
    return this.within(`diagnostics of ${uri}`, this.server.diagnosticsFor(uri, version, 600_000), limitMs);
  }

  /** The first log line matching pattern (already logged or still to come), bounded like an answer. */
  log(pattern: RegExp, limitMs?: number): Promise<string> {
    const found = this.logs.find((line) => pattern.test(line));
    if (found) return Promise.resolve(found);
    return this.within(`a log line matching ${pattern}`, new Promise<string>((resolve) => this.logWaiters.push({ pattern, resolve })), limitMs);
  }

  /** The first log line matching pattern logged after this call, bounded like an answer. */
  nextLog(pattern: RegExp, limitMs?: number): Promise<string> {
    return this.within(`a new log line matching ${pattern}`, new Promise<string>((resolve) => this.logWaiters.push({ pattern, resolve })), limitMs);
  }

  logged(): string[] {
    return [...this.logs];
  }

  /** Fails when the server has died or its peak memory went over the bound. */
  assertHealthy(): Memory {
    if (this.crash) throw new Error(this.crash);
    const memory = memoryOf(this.server.pid);
    if (memory.peakBytes > bounds.rssBytes) {
      throw new Error(`the server's peak RSS was ${Math.round(memory.peakBytes / 1024 ** 2)} MB, over ${bounds.rssBytes / 1024 ** 2} MB`);
    }
    return memory;
  }

  async stop(): Promise<void> {
    if (this.crash) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(() => (this.server.kill(), resolve()), bounds.answerMs)));
    await Promise.race([this.server.shutdown(), late]);
    clearTimeout(timer);
  }
}

/** A temporary folder for one suite's generated inputs, removed by the returned function. */
export function temporaryFolder(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `agent-traces-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
