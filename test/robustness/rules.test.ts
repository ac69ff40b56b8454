// Attacks on rule files (and the offset lookups of JSON Lines) against the bundled server over stdio: deep and long
// expressions, huge names, many rules, deeply nested arguments, and the request time budget. Every case fails on a
// crash, an error logged by the server, an answer slower than 2 s, or a peak RSS over 1.5 GB.
// Run alone: node esbuild.mjs && node --test out/test/robustness/rules.test.js
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver/node';
import { ServerProcess } from '../protocol/lspClient';

const MAX_ANSWER_MS = 2_000;
const MAX_RSS_BYTES = 1.5 * 1024 ** 3;
/** How long a request may take before the case fails instead of waiting for ever (a hung server). */
const GIVE_UP_MS = 30_000;

/** The shared ServerProcess, with the settings it is given, its log, its pid and health checks. */
class Attacked {
  readonly server = new ServerProcess();
  readonly log: { type: number; message: string }[] = [];
  pid = 0;
  private configured!: Promise<void>;

  async start(settings: Record<string, unknown> = {}): Promise<void> {
    let configuredNow!: () => void;
    this.configured = new Promise((resolve) => (configuredNow = resolve));
    this.server.connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => {
      configuredNow();
      return params.items.map(() => settings);
    });
    this.server.connection.onNotification('window/logMessage', (entry: { type: number; message: string }) => {
      this.log.push(entry);
    });
    await this.server.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: { workspace: { configuration: true, workspaceFolders: true } },
      workspaceFolders: [],
    });
    await this.server.connection.sendNotification('initialized', {});
    await this.configured;
    this.pid = (await this.server.connection.sendRequest<{ pid: number }>('agentTraces/serverInfo')).pid;
  }

  /** Sends a request and checks the answer came within MAX_ANSWER_MS from a healthy server. */
  async request<R>(method: string, params: unknown, label = method): Promise<R> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${label}: no answer within ${GIVE_UP_MS} ms; stderr: ${this.server.stderr}`)), GIVE_UP_MS);
    });
    try {
      const result = await Promise.race([this.server.connection.sendRequest<R>(method, params), giveUp]);
      const elapsed = performance.now() - started;
      assert.ok(elapsed < MAX_ANSWER_MS, `${label} took ${Math.round(elapsed)} ms`);
      return result;
    } finally {
      clearTimeout(timer);
      this.assertHealthy(label);
    }
  }

  diagnostics(uri: string, version: number): Promise<Diagnostic[]> {
    return this.server.diagnosticsFor(uri, version, GIVE_UP_MS);
  }

  /** Alive, nothing logged as an error (a caught stack overflow is still a failure), peak RSS within bounds. */
  assertHealthy(label: string): void {
    assert.doesNotThrow(() => process.kill(this.pid, 0), `${label}: the server process is gone; stderr: ${this.server.stderr}`);
    const errors = this.log.filter((entry) => entry.type === 1).map((entry) => entry.message.split('\n')[0]);
    assert.deepEqual(errors, [], `${label}: the server logged errors`);
    const peak = peakRss(this.pid);
    if (peak !== undefined) assert.ok(peak < MAX_RSS_BYTES, `${label}: peak RSS ${Math.round(peak / 2 ** 20)} MB`);
  }
}

/** The peak resident set size of a process (Linux: VmHWM), or undefined where /proc is not available. */
function peakRss(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const end = (text: string) => {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1].length };
};

/** Opens a rule file, waits for its diagnostics and asks for every feature at `position`; returns the diagnostics. */
async function exercise(target: Attacked, uri: string, text: string, position = end(text)): Promise<Diagnostic[]> {
  target.server.open(uri, 'guardrail', text);
  const diagnostics = await target.diagnostics(uri, 1);
  const textDocument = { uri };
  for (const [method, params] of [
    ['textDocument/hover', { textDocument, position }],
    ['textDocument/definition', { textDocument, position }],
    ['textDocument/references', { textDocument, position, context: { includeDeclaration: true } }],
    ['textDocument/documentHighlight', { textDocument, position }],
    ['textDocument/documentSymbol', { textDocument }],
    ['textDocument/foldingRange', { textDocument }],
    ['textDocument/completion', { textDocument, position }],
    ['textDocument/prepareRename', { textDocument, position: { line: 0, character: 0 } }],
    ['textDocument/rename', { textDocument, position: { line: 0, character: 0 }, newName: 'renamed' }],
  ] as const) {
    await target.request(method, params, `${method} on ${uri}`);
  }
  return diagnostics;
}

const codes = (diagnostics: Diagnostic[]) => [...new Set(diagnostics.map((d) => d.code))].sort();

describe('rule files under attack, over stdio', () => {
  const target = new Attacked();

  before(() => target.start());
  after(async () => {
    assert.equal(await target.server.shutdown(), 0);
  });

  it('2,500 fields after one name: diagnostics published, every feature answers', async () => {
    const diagnostics = await exercise(target, 'file:///w/member.gr', 'x := call' + '.a'.repeat(2_500) + '\n');
    assert.deepEqual(diagnostics.map((d) => [d.code, d.message]), [['gr/unknown-identifier', 'Failed to resolve identifier call']]);
  });

  it('2,500 chained calls', async () => {
    const diagnostics = await exercise(target, 'file:///w/calls.gr', 'x := call' + '()'.repeat(2_500) + '\n');
    assert.deepEqual(diagnostics.map((d) => d.code), ['gr/unknown-identifier']);
  });

  it('3,000 chained + and 3,000 chained **', async () => {
    assert.deepEqual(await exercise(target, 'file:///w/plus.gr', 'a := 1\nx := a' + ' + a'.repeat(3_000) + '\n'), []);
    assert.deepEqual(await exercise(target, 'file:///w/power.gr', 'a := 1\nx := a' + ' ** a'.repeat(3_000) + '\n'), []);
  });

  it('a ternary chain of 9,000: one problem past the operator limit', async () => {
    const diagnostics = await exercise(target, 'file:///w/ternary.gr', 'x := ' + 'a if b else '.repeat(9_000) + 'c\n');
    assert.deepEqual(diagnostics.map((d) => [d.code, d.message]), [['gr/syntax', 'This line has too many operators to check']]);
  });

  it('parentheses, lists, objects, calls and unary operators nested 5,000 deep: gr/too-deep', async () => {
    const deep = [
      '('.repeat(5_000) + 'a' + ')'.repeat(5_000),
      '['.repeat(5_000) + 'a' + ']'.repeat(5_000),
      '{"k": '.repeat(5_000) + '1' + '}'.repeat(5_000),
      'f('.repeat(5_000) + ')'.repeat(5_000),
      'not '.repeat(5_000) + 'a',
    ];
    for (const [i, expression] of deep.entries()) {
      const diagnostics = await exercise(target, `file:///w/deep${i}.gr`, `x := ${expression}\n`);
      assert.deepEqual(codes(diagnostics), ['gr/too-deep']);
    }
  });

  it('completion at the end of `x := ` and 50,000 and 100,000 letters', async () => {
    for (const length of [50_000, 100_000]) {
      const uri = `file:///w/letters${length}.gr`;
      const text = 'x := ' + 'a'.repeat(length);
      target.server.open(uri, 'guardrail', text);
      await target.diagnostics(uri, 1);
      const items = await target.request<{ label: string }[]>('textDocument/completion', { textDocument: { uri }, position: end(text) }, `completion after ${length} letters`);
      assert.ok(items.some((item) => item.label === 'len'));
    }
  });

  // 50,000 rules: listing them all answered with 22 MB of JSON, 1.2 s idle and about 7 s on a loaded 2-core machine.
  // The outline lists the first 10,000 (agentTraces.guardrails.maxOutlineEntries) and says how many more there are.
  it('the outline of 50,000 rules: the first 10,000 and a last entry for the rest', async () => {
    const uri = 'file:///w/many.gr';
    const text = Array.from({ length: 50_000 }, (_, i) => `raise "r${i}" if:\n    (m${i}: Message)\n`).join('');
    target.server.open(uri, 'guardrail', text);
    await target.diagnostics(uri, 1);
    const symbols = await target.request<{ name: string; detail: string; range: unknown; children?: unknown[] }[]>(
      'textDocument/documentSymbol', { textDocument: { uri } }, 'outline of 50,000 rules');
    assert.equal(symbols.length, 10_001);
    assert.equal(symbols[9_999].name, 'r9999');
    assert.deepEqual([symbols[10_000].name, symbols[10_000].detail, symbols[10_000].range], [
      '40000 more rules and declarations are not listed: the outline lists the first 10000',
      'setting agentTraces.guardrails.maxOutlineEntries',
      { start: { line: 20_000, character: 0 }, end: { line: 99_999, character: 21 } },
    ]);
  });

  it('hover, definition and highlights inside agentguard and dataset arguments nested 5,000 deep around 100,000 items', async () => {
    const nested = '{"a":'.repeat(5_000) + '[' + Array.from({ length: 100_000 }, () => '1').join(',') + ']' + '}'.repeat(5_000);
    const agentguard = `{"call":{"call_id":"c1","tool_name":"t","args":[${nested}],"kwargs":{},"timestamp":"2026-11-22T11:36:17.813113Z","session_id":null,"metadata":{}},`
      + '"result":{"call_id":"c1","tool_name":"t","status":"success","return_value":null,"exception":null,"exception_type":null,"execution_time_ms":1,'
      + '"retry_count":0,"validations":[],"hallucination":null,"cost":null,"provider":null,"model":null,"usage":null,"cost_breakdown":null,'
      + '"cost_estimated":false,"cost_known":false,"timestamp":"2026-11-22T11:36:17.846354Z"}}\n';
    const dataset = `{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":${nested}}}]}]}\n`;
    for (const [name, text] of [['agentguard', agentguard], ['dataset', dataset]]) {
      const uri = `file:///w/${name}.jsonl`;
      target.server.open(uri, 'agent-trace-jsonl', text);
      await target.diagnostics(uri, 1);
      const textDocument = { uri };
      const position = { line: 0, character: text.indexOf('[1,1') + 2 * 50_000 + 1 };
      for (const method of ['textDocument/hover', 'textDocument/definition', 'textDocument/documentHighlight']) {
        // A fresh version each time: the first request on a version pays for building the nodes it walks.
        const version = 2 + ['textDocument/hover', 'textDocument/definition', 'textDocument/documentHighlight'].indexOf(method);
        await target.server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
        await target.request(method, { textDocument, position }, `${method} in ${name} arguments`);
      }
    }
  });
});

describe('the request time budget, over stdio', () => {
  const target = new Attacked();

  // Requests get 1 ms for their work on a model, so outlining a large file runs out of time; checks after edits wait
  // 10 minutes.
  before(() => target.start({ requestTimeBudget: 1, validation: { delay: 600_000 } }));
  after(async () => {
    assert.equal(await target.server.shutdown(), 0);
  });

  it('a request that runs out of time answers its fallback and the log says so', async () => {
    const uri = 'file:///w/budget.gr';
    // Opening and changing a file only schedules its check (600 s away): the request below reads the file (not
    // counted) and then lists its 50,000 rules (counted).
    target.server.open(uri, 'guardrail', 'x := 1\n');
    const text = Array.from({ length: 50_000 }, (_, i) => `raise "r${i}" if:\n    (m${i}: Message)\n`).join('');
    await target.server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
    const symbols = await target.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } }, 'outline past its budget');
    assert.deepEqual(symbols, []);
    const notices = target.log.filter((entry) => entry.message.startsWith(`[symbols] ${uri}@2: stopped after `));
    assert.equal(notices.length, 1, JSON.stringify(target.log));
    assert.match(notices[0].message, /past its time budget \(agentTraces\.requestTimeBudget = 1 ms\); answered with no result$/);
  });
});

describe('the rule-file outline cap from the settings, over stdio', () => {
  const target = new Attacked();

  before(() => target.start({ guardrails: { maxOutlineEntries: 2 } }));
  after(async () => {
    assert.equal(await target.server.shutdown(), 0);
  });

  it('agentTraces.guardrails.maxOutlineEntries = 2 lists two entries and says how many more there are', async () => {
    const uri = 'file:///w/capped.gr';
    const text = 'from invariant.detectors import secrets\nraise "one" if:\n    (m: Message)\nraise "two" if:\n    (n: Message)\n';
    target.server.open(uri, 'guardrail', text);
    await target.diagnostics(uri, 1);
    const symbols = await target.request<{ name: string; range: unknown }[]>('textDocument/documentSymbol', { textDocument: { uri } }, 'capped outline');
    assert.deepEqual(symbols.map((symbol) => symbol.name), ['secrets', 'one', '1 more rules and declarations are not listed: the outline lists the first 2']);
    assert.deepEqual(symbols[2].range, { start: { line: 3, character: 0 }, end: { line: 4, character: 16 } });
  });
});
