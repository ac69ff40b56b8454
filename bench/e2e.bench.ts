// End-to-end benchmark: each server runs as a separate process spoken to over stdio, as an editor would, on the
// same generated traces. Reports open → diagnostics (cold: the first document of a fresh process; warm: the third),
// edit → answer (a one-character edit, then definition and hover), edit → diagnostics once the server's validation
// delay has passed, and how long a hover on a small file waits while a big document is opened. The no-op server
// (bench/noopServer.ts) is the transport floor; VS Code's JSON language server shows what plain JSON costs.
// Cold opens are repeated in fresh processes (their medians are steadier than one run's); the last one of each server
// runs under bench/heapProbe.ts for its peak heap. A 10,000-line rule file is
// opened and edited the same way (edit → diagnostics).
// Beside the generated traces of 10 and 50 MB, a 12.8 MB trace whose tool outputs are 40-line command outputs (a
// listing, test results, a traceback: every output dense with `\n`, `\t` and `\"` escapes, as real tool outputs are).
// Run: npm run bench -- e2e   (or node esbuild.mjs && node out/bench/e2e.bench.js [sizesInMB...] [cold] [rules] [escapes] [decoder] [edits])
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createProtocolConnection, PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter,
  type ProtocolConnection, type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';
import { serverEnvironment, serverExecArgv } from '../client/src/serverProcess';
import { LineStarts } from '../server/src/common/lineIndex';
import { generateRules } from './generateRules';
import { generateTrace, type TraceShape } from './generateTrace';
import { random } from './measure';

const repoRoot = resolve(__dirname, '..', '..');

interface ServerKind {
  name: string;
  script: string;
  languageId: string;
  extension: string;
  /** Milliseconds the server waits after an edit before it checks the document again. */
  validationDelayMs: number;
  /** Added to the server process's environment (ours: what the client adds). */
  env?: Record<string, string>;
  /** Node options the server process starts with (ours: the client's). */
  execArgv?: readonly string[];
}

const floor: ServerKind = {
  name: 'no-op server (floor)', script: resolve(repoRoot, 'out', 'bench', 'noopServer.js'),
  languageId: 'agent-trace', extension: '.trace.json', validationDelayMs: 0,
};
const jsonServer: ServerKind = {
  name: 'vscode-json-languageserver', script: resolve(repoRoot, 'node_modules', 'vscode-json-languageserver', 'bin', 'vscode-json-languageserver'),
  languageId: 'json', extension: '.json', validationDelayMs: 300,
};
const ours: ServerKind = {
  name: 'agent-traces', script: resolve(repoRoot, 'dist', 'server.js'),
  languageId: 'agent-trace', extension: '.trace.json', validationDelayMs: 200, execArgv: serverExecArgv,
  env: serverEnvironment(process.env, process.platform),
};
/** The same server reading every edited version in full (no incremental re-read), for comparison. */
const oursFull: ServerKind = { ...ours, name: 'agent-traces, full re-read', env: { ...ours.env, AGENT_TRACES_FULL_REREAD: '1' } };
/** The same server leaving stdio's message decoding to the library (see server/src/transport/connection.ts). */
const oursLibraryDecoding: ServerKind = { ...ours, name: 'agent-traces, library decoding', env: { ...ours.env, AGENT_TRACES_LIBRARY_DECODER: '1' } };

interface ServerUsage {
  cpuMs: number;
  systemMs: number;
  faults: number;
}

/** One server process and the diagnostics it has published. */
class Client {
  readonly connection: ProtocolConnection;
  private readonly child;
  private readonly waiters: { uri: string; version?: number; resolve: () => void }[] = [];

  /** `heapFile`: run the server through bench/heapProbe.ts, which writes its peak heap there when it exits. */
  constructor(readonly kind: ServerKind, heapFile?: string) {
    const script = heapFile ? [resolve(repoRoot, 'out', 'bench', 'heapProbe.js'), kind.script] : [kind.script];
    const args = [...(kind.execArgv ?? []), ...script, '--stdio'];
    const env = { ...process.env, ...kind.env, ...(heapFile ? { HEAP_PROBE_OUT: heapFile } : {}) };
    this.child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'], env });
    this.connection = createProtocolConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification(PublishDiagnosticsNotification.type, (params: PublishDiagnosticsParams) => {
      for (const waiter of [...this.waiters]) {
        // The JSON server publishes without a version (it drops results of versions edited since).
        if (waiter.uri === params.uri && (params.version === undefined || params.version === waiter.version)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
    this.connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.listen();
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** `settle`: wait for a round trip after `initialized`; without it, the first open follows at once, as in VS Code. */
  async initialize(settle = true): Promise<void> {
    await this.connection.sendRequest('initialize', {
      processId: process.pid, rootUri: null, workspaceFolders: null,
      capabilities: { workspace: { configuration: true }, textDocument: { definition: { linkSupport: true } } },
    });
    await this.connection.sendNotification('initialized', {});
    if (!settle) return;
    // Settings are pulled after `initialized`: a round trip that lets them arrive before the first open.
    await this.connection.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///none.json' }, position: { line: 0, character: 0 } })
      .catch(() => undefined);
  }

  /** Resolves once diagnostics for this version of the document are published. */
  diagnostics(uri: string, version: number): Promise<void> {
    return new Promise((resolvePromise) => this.waiters.push({ uri, version, resolve: resolvePromise }));
  }

  open(uri: string, text: string, languageId = this.kind.languageId): Promise<void> {
    const published = this.diagnostics(uri, 1);
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    return published;
  }

  request(method: string, uri: string, position: Position): Promise<unknown> {
    return this.connection.sendRequest(method, { textDocument: { uri }, position });
  }

  /** Peak resident set size (VmHWM) in bytes, since the start or the last resetPeakMemory. */
  peakMemory(): number {
    return this.status('VmHWM');
  }

  /** Resident set size (VmRSS) in bytes. */
  memory(): number {
    return this.status('VmRSS');
  }

  /**
   * The server's CPU time so far (all its threads, user and system, in ms) and its minor page faults, from
   * /proc/<pid>/stat (clock ticks of 10 ms, Linux's USER_HZ): less moved by the machine's load than wall time, and
   * they tell work from the kernel's filling of memory touched for the first time.
   */
  usage(): ServerUsage {
    const fields = readFileSync(`/proc/${this.child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { cpuMs: (Number(fields[11]) + Number(fields[12])) * 10, systemMs: Number(fields[12]) * 10, faults: Number(fields[7]) };
  }

  /** Starts the peak (VmHWM) again from the current resident size. */
  resetPeakMemory(): void {
    writeFileSync(`/proc/${this.child.pid}/clear_refs`, '5');
  }

  private status(field: string): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, 'utf8');
    return Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) * 1024;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolvePromise) => this.child.once('exit', resolvePromise));
    const late = setTimeout(() => this.child.kill(), 5000);
    await this.connection.sendRequest('shutdown').catch(() => undefined);
    await this.connection.sendNotification('exit').catch(() => undefined);
    await exited;
    clearTimeout(late);
    this.connection.dispose();
  }
}

interface Position {
  line: number;
  character: number;
}

/** Line and character of offsets in one text. */
function positionsIn(text: string): (offset: number) => Position {
  const lines = new LineStarts(text);
  return (offset) => lines.positionAt(offset);
}

interface Edit {
  kind: string;
  offset: number;
  insert: string;
}

/** One-character edits of every kind the issue names: inside a string, a key, a number, between events. */
function editsIn(text: string, count: number): Edit[] {
  const next = random(11);
  const find = (pattern: RegExp, shift: number, insert: string, kind: string): Edit[] => {
    const found: Edit[] = [];
    for (const match of text.matchAll(pattern)) found.push({ kind, offset: match.index! + shift, insert });
    return found;
  };
  const pools = [
    find(/"content": "/g, 14, 'x', 'string'),
    find(/"role"/g, 3, 'x', 'key'),
    find(/"n": \d/g, 6, '7', 'number'),
    find(/\n {2}\},\n/g, 5, ' ', 'between events'),
  ];
  const edits: Edit[] = [];
  for (let i = 0; i < count; i++) {
    const pool = pools[i % pools.length];
    edits.push(pool[Math.floor(next() * pool.length)]);
  }
  return edits;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)];
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

/** Milliseconds to the answer, or undefined when the server answered with an error. */
async function timedAnswer(run: () => Promise<unknown>): Promise<number | undefined> {
  const start = performance.now();
  try {
    await run();
  } catch {
    return undefined;
  }
  return performance.now() - start;
}

interface Figures {
  cold: number;
  warm: number;
  definition: number[];
  hover: number[];
  /** Edit → diagnostics, less the server's validation delay. */
  diagnostics: number[];
  /** The same two, by where the edit is (inside a string, a key, a number, between events). */
  byKind: Map<string, { definition: number[]; diagnostics: number[] }>;
  /** A hover on a small open file sent right after a big document's open, and the hovers after it until it is checked. */
  firstSmallHover: number;
  smallHover: number[];
  peakBytes: number;
  /** How far the resident size rose above its size before the cold open, at its peak during it. */
  coldGrowthBytes: number;
}

const smallTrace = '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant", "content": "hello"}\n]\n';

async function measure(kind: ServerKind, text: string, editCount: number): Promise<Figures> {
  const client = new Client(kind);
  await client.initialize();
  const uri = (name: string) => `file:///bench/${name}${kind.extension}`;
  const before = client.memory();
  client.resetPeakMemory();
  const cold = await timed(() => client.open(uri('first'), text));
  const coldGrowthBytes = client.peakMemory() - before;
  await client.open(uri('second'), text);
  const warm = await timed(() => client.open(uri('third'), text));

  // Edits on the third document: each inserts one character, the next takes it out again (an undo).
  const at = positionsIn(text);
  const idOffsets = [...text.matchAll(/"tool_call_id": "/g)].map((match) => match.index! + 19);
  const next = random(5);
  const figures: Figures = { cold, warm, definition: [], hover: [], diagnostics: [], byKind: new Map(), firstSmallHover: 0, smallHover: [], peakBytes: 0, coldGrowthBytes };
  const edited = uri('third');
  let version = 1;
  for (const edit of editsIn(text, editCount)) {
    for (const undo of [false, true]) {
      version++;
      const start = at(edit.offset);
      const range = undo ? { start, end: { line: start.line, character: start.character + 1 } } : { start, end: start };
      const published = client.diagnostics(edited, version);
      const editedAt = performance.now();
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: edited, version }, contentChanges: [{ range, text: undo ? '' : edit.insert }],
      });
      // A tool_call_id on another line, so the edit does not move it.
      let target = at(idOffsets[Math.floor(next() * idOffsets.length)]);
      while (target.line === start.line) target = at(idOffsets[Math.floor(next() * idOffsets.length)]);
      // The JSON server has no definitions: its answer is an error, not counted.
      const definition = await timedAnswer(() => client.request('textDocument/definition', edited, target));
      const ofKind = figures.byKind.get(edit.kind) ?? { definition: [], diagnostics: [] };
      figures.byKind.set(edit.kind, ofKind);
      if (definition !== undefined) {
        figures.definition.push(definition);
        ofKind.definition.push(definition);
      }
      figures.hover.push(await timed(() => client.request('textDocument/hover', edited, target)));
      await published;
      const diagnostics = performance.now() - editedAt - kind.validationDelayMs;
      figures.diagnostics.push(diagnostics);
      ofKind.diagnostics.push(diagnostics);
    }
  }

  // A small file answers hovers while another big document is opened and checked.
  const small = `file:///bench/small${kind.extension}`;
  await client.open(small, smallTrace);
  const bigChecked = client.open(uri('fourth'), text);
  let checked = false;
  void bigChecked.then(() => (checked = true));
  // The first hover waits for the big document's text to arrive (the transport's share); the later ones wait only
  // for the server's own work on it.
  figures.firstSmallHover = await timed(() => client.request('textDocument/hover', small, { line: 1, character: 5 }));
  while (!checked) figures.smallHover.push(await timed(() => client.request('textDocument/hover', small, { line: 1, character: 5 })));
  figures.peakBytes = client.peakMemory();
  await client.stop();
  return figures;
}

/** Cold opens only: a fresh process of each server in turn, `rounds` times, one document each. */
async function compareColdOpens(text: string, rounds: number, kinds = [floor, jsonServer, ours], targets: { coldTarget: number; jsonTarget: number } = { coldTarget: 2, jsonTarget: 4 }): Promise<void> {
  const bytes = Buffer.byteLength(text);
  const times = new Map<ServerKind, number[]>(kinds.map((kind) => [kind, []]));
  const startingTimes = new Map<ServerKind, number[]>(kinds.map((kind) => [kind, []]));
  const rises = new Map<ServerKind, number[]>(kinds.map((kind) => [kind, []]));
  const residents = new Map<ServerKind, number[]>(kinds.map((kind) => [kind, []]));
  const heaps = new Map<ServerKind, number[]>(kinds.map((kind) => [kind, []]));
  const usages = new Map<ServerKind, ServerUsage[]>(kinds.map((kind) => [kind, []]));
  const keptHeaps = new Map<ServerKind, number>();
  const externals = new Map<ServerKind, number>();
  const heapFile = join(tmpdir(), `agent-traces-heap-${process.pid}`);
  for (let round = 0; round < rounds; round++) {
    for (const kind of kinds) {
      // The last round runs the server under the heap probe (its GC profiler costs a little time).
      const probed = round === rounds - 1;
      const client = new Client(kind, probed ? heapFile : undefined);
      await client.initialize();
      const before = client.memory();
      client.resetPeakMemory();
      const usageBefore = client.usage();
      const time = await timed(() => client.open(`file:///bench/cold${kind.extension}`, text));
      const usageAfter = client.usage();
      rises.get(kind)!.push(client.peakMemory() - before);
      residents.get(kind)!.push(client.memory());
      await client.stop();
      if (probed) {
        const [peak, kept, external] = readFileSync(heapFile, 'utf8').split(' ').map(Number);
        externals.set(kind, external);
        heaps.get(kind)!.push(peak);
        keptHeaps.set(kind, kept);
        rmSync(heapFile, { force: true });
      } else {
        times.get(kind)!.push(time);
        usages.get(kind)!.push({ cpuMs: usageAfter.cpuMs - usageBefore.cpuMs, systemMs: usageAfter.systemMs - usageBefore.systemMs, faults: usageAfter.faults - usageBefore.faults });
        // The document that started the server, its open sent right after `initialized` (as VS Code sends it):
        // what the server does at start (its warm-up) and the client's sending of the text overlap.
        const starting = new Client(kind);
        await starting.initialize(false);
        startingTimes.get(kind)!.push(await timed(() => starting.open(`file:///bench/cold${kind.extension}`, text)));
        await starting.stop();
      }
    }
  }
  const median = (values: number[]) => percentile(values, 50);
  console.log(`cold opens, ${rounds} fresh processes each: time (median and fastest of ${rounds - 1}), the resident size's rise at its peak`);
  console.log('over the file size and the resident size once the document is checked (MB), both medians of all processes; the peak heap');
  console.log('in use over the file size, then what a full collection leaves at exit with the document open, then the most memory');
  console.log('outside the heap that V8 counted at a collection (buffers; external strings) (the last process, under bench/heapProbe.ts):');
  for (const kind of kinds) {
    console.log(
      `${kind.name.padEnd(31)} ${ms(median(times.get(kind)!))} ${ms(Math.min(...times.get(kind)!))}   ${(median(rises.get(kind)!) / bytes).toFixed(1).padStart(6)}x`
      + `   resident ${inMB(median(residents.get(kind)!))} MB`
      + `   heap ${(heaps.get(kind)![0] / bytes).toFixed(1).padStart(5)}x   kept ${((keptHeaps.get(kind) ?? 0) / bytes).toFixed(1).padStart(5)}x`
      + `   outside the heap ${((externals.get(kind) ?? 0) / bytes).toFixed(1).padStart(5)}x`,
    );
  }
  console.log(`the server's CPU during those opens (all its threads, user and system), of it system time, and its minor page faults, medians of ${rounds - 1}:`);
  for (const kind of kinds) {
    const of = (pick: (usage: ServerUsage) => number) => median(usages.get(kind)!.map(pick));
    console.log(`${kind.name.padEnd(31)} ${ms(of((usage) => usage.cpuMs))} ${ms(of((usage) => usage.systemMs))}   ${String(of((usage) => usage.faults)).padStart(7)} faults`);
  }
  const mine = median(times.get(ours)!);
  if (kinds.includes(floor) && kinds.includes(jsonServer)) {
    console.log(`the same opens sent right after \`initialized\` (the document that started the server), median and fastest of ${rounds - 1}:`);
    for (const kind of kinds) console.log(`${kind.name.padEnd(31)} ${ms(median(startingTimes.get(kind)!))} ${ms(Math.min(...startingTimes.get(kind)!))}`);
    const starting = median(startingTimes.get(ours)!);
    console.log(
      `agent-traces: cold (medians) ${(mine / median(times.get(floor)!)).toFixed(2)}× the floor (≤ ${targets.coldTarget}), `
      + `${(median(times.get(jsonServer)!) / mine).toFixed(2)}× faster than JSON (≥ ${targets.jsonTarget}), peak heap ${(heaps.get(ours)![0] / bytes).toFixed(1)}× the file size (≤ 4); `
      + `sent right after \`initialized\`: ${(starting / median(startingTimes.get(floor)!)).toFixed(2)}× the floor, ${(median(startingTimes.get(jsonServer)!) / starting).toFixed(2)}× faster than JSON\n`,
    );
  }
  if (kinds.includes(oursLibraryDecoding)) {
    const library = median(residents.get(oursLibraryDecoding)!);
    console.log(
      `agent-traces' own decoding: resident ${inMB(median(residents.get(ours)!))} MB against ${inMB(library)} MB with the library's `
      + `(≤ the library's), cold open ${(mine / median(times.get(oursLibraryDecoding)!)).toFixed(2)}× the library's time, `
      + `peak rise ${(median(rises.get(ours)!) / median(rises.get(oursLibraryDecoding)!)).toFixed(2)}× the library's\n`,
    );
  }
}

/** The stdio message decoding, ours against the library's, on the same server: an ASCII trace and one with characters beyond it. */
async function compareDecoders(megabytesOfTrace: number, rounds: number): Promise<void> {
  const text = generateTrace(megabytesOfTrace * 1024 * 1024, 1, { outputLines: [10, 30] });
  const ascii = text.replaceAll('—', '-');
  for (const [name, trace] of [['ASCII', ascii], ['with characters beyond ASCII (—)', text]] as const) {
    console.log(`--- message decoding, ${(Buffer.byteLength(trace) / 2 ** 20).toFixed(1)} MB trace, ${name}`);
    await compareColdOpens(trace, rounds, [ours, oursLibraryDecoding]);
  }
}

const inMB = (value: number) => `${Math.round(value / 2 ** 20)}`.padStart(5);

/** One-character edits in a rule file: inside a string, a name, a comment, and on the empty line between two statements. */
function ruleEditsIn(text: string, count: number): Edit[] {
  const next = random(13);
  const find = (pattern: RegExp, shift: number, insert: string, kind: string): Edit[] =>
    [...text.matchAll(pattern)].map((match) => ({ kind, offset: match.index! + shift, insert }));
  const pools = [
    find(/raise "/g, 8, 'x', 'string'),
    find(/call\.function/g, 2, 'x', 'name'),
    find(/# a tool/g, 4, 'x', 'comment'),
    find(/\n\n/g, 1, ' ', 'between statements'),
  ];
  const edits: Edit[] = [];
  for (let i = 0; i < count; i++) {
    const pool = pools[i % pools.length];
    edits.push(pool[Math.floor(next() * pool.length)]);
  }
  return edits;
}

interface RuleFigures {
  open: number;
  /** Edit → diagnostics, less the server's validation delay. */
  diagnostics: number[];
}

/** A big rule file opened, then edited one character at a time (each edit taken out again by the next). */
async function measureRules(kind: ServerKind, text: string, editCount: number): Promise<RuleFigures> {
  const client = new Client(kind);
  await client.initialize();
  const uri = 'file:///bench/rules.gr';
  const open = await timed(() => client.open(uri, text, 'guardrail'));
  const at = positionsIn(text);
  const figures: RuleFigures = { open, diagnostics: [] };
  let version = 1;
  for (const edit of ruleEditsIn(text, editCount)) {
    for (const undo of [false, true]) {
      version++;
      const start = at(edit.offset);
      const range = undo ? { start, end: { line: start.line, character: start.character + 1 } } : { start, end: start };
      const published = client.diagnostics(uri, version);
      const editedAt = performance.now();
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version }, contentChanges: [{ range, text: undo ? '' : edit.insert }],
      });
      await published;
      figures.diagnostics.push(performance.now() - editedAt - kind.validationDelayMs);
    }
  }
  await client.stop();
  return figures;
}

async function compareRuleFiles(lineCount: number): Promise<void> {
  const text = generateRules(lineCount);
  const editCount = 20;
  console.log(`--- rule file: ${lineCount} lines, ${(text.length / 1024).toFixed(0)} KiB, ${editCount * 2} edits (string, name, comment, between statements)`);
  console.log('server                        open   edit → diagnostics p50/p95 (less the delay)');
  for (const kind of [floor, ours]) {
    const figures = await measureRules(kind, text, editCount);
    console.log(`${kind.name.padEnd(27)} ${ms(figures.open)}          ${pair(figures.diagnostics)}`);
    if (kind === ours) console.log(`agent-traces: edit → diagnostics p95 ${Math.round(percentile(figures.diagnostics, 95))} ms after the delay (≤ 10)\n`);
  }
}

const slowest = (values: number[]) => (values.length === 0 ? 0 : Math.max(...values));
const ms = (value: number) => `${Math.round(value)}`.padStart(6);
const pair = (values: number[]) => (values.length === 0 ? '     n/a     ' : `${ms(percentile(values, 50))} /${ms(percentile(values, 95))}`);

/**
 * The edits alone (`edits`): our server's edit → definition and edit → diagnostics on the third open document, as in
 * the full run (three copies of the trace open), each edit's figures in the order they were made.
 */
async function compareEdits(sizes: number[]): Promise<void> {
  for (const mb of sizes) {
    const text = generateTrace(mb * 1024 * 1024, 1, { outputLines: [10, 30] });
    const editCount = mb >= 50 ? 8 : 16;
    console.log(`--- ${mb} MB: ${editCount * 2} edits (string, key, number, between events; each then taken out), edit → definition / diagnostics after the delay`);
    const figures = await measure(ours, text, editCount);
    const kinds = editsIn(text, editCount).flatMap((edit) => [edit.kind, `${edit.kind} (undo)`]);
    console.log(kinds.map((kind, i) => `${kind}: ${Math.round(figures.definition[i])} / ${Math.round(figures.diagnostics[i])}`).join(', '));
    const byKind = [...figures.byKind].map(([where, f]) => `${where} ${Math.round(percentile(f.definition, 95))} / ${Math.round(percentile(f.diagnostics, 95))}`);
    console.log(`p95 by kind: ${byKind.join(', ')}`);
    console.log(
      `agent-traces, ${mb} MB: definition p50 / p95 ${pair(figures.definition)}, diagnostics p50 / p95 ${pair(figures.diagnostics)} `
      + `(≤ ${mb >= 50 ? 50 : 20}), hover p95 ${Math.round(percentile(figures.hover, 95))}\n`,
    );
  }
}

async function main(): Promise<void> {
  // Arguments: trace sizes in MB (default 10 and 50), `cold` for the repeated cold opens only, `rules` for the rule
  // file case only (both run by default too), `decoder` for the message decoding alone, ours against the library's
  // (on a 40 MB trace unless a size is given), `edits` for our server's edits alone.
  const args = process.argv.slice(2);
  const sizes = args.map(Number).filter((n) => n > 0);
  if (args.includes('decoder')) {
    await compareDecoders(sizes[0] ?? 40, 5);
    return;
  }
  if (args.includes('edits')) {
    await compareEdits(sizes.length > 0 ? sizes : [10, 50]);
    return;
  }
  const only = args.includes('rules') || args.includes('cold') || args.includes('escapes');
  const megabytes = sizes.length > 0 ? sizes : only && !args.includes('cold') ? [] : [10, 50];
  const everything = !only;
  const rules = everything || args.includes('rules');
  const traces: { title: string; megabytes: number; shape: TraceShape; coldTarget: number; jsonTarget: number; definitionTarget?: number }[] =
    megabytes.map((mb) => ({ title: `${mb} MB`, megabytes: mb, shape: { outputLines: [10, 30] }, coldTarget: 2, jsonTarget: 4 }));
  if (everything || args.includes('escapes')) {
    traces.push({ title: 'escape-heavy, tool outputs of 40 command-output lines', megabytes: 12.8, shape: { commandOutputLines: 40 }, coldTarget: 2, jsonTarget: 2, definitionTarget: 30 });
  }
  const measureAll = everything || args.includes('escapes');
  console.log('End to end over stdio, wall-clock ms (the machine may be shared: compare within one run).');
  console.log('edit: one character inserted or taken out (string, key, number, between events), then definition and hover');
  console.log('on a tool_call_id; diagnostics: edit → published, less the validation delay (ours 200 ms, JSON 300 ms).');
  console.log('small hover: hovers on a small open file while a big one is opened: the first (it waits for the text to arrive)');
  console.log('and the slowest of those sent after it until the big one is checked (the server\'s own work). Peak RSS: 5 documents open;');
  console.log('cold rise: how far the resident size rose above its size before the cold open, at its peak, over the file size.\n');
  for (const trace of traces) {
    const mb = trace.megabytes;
    const text = generateTrace(mb * 1024 * 1024, 1, trace.shape);
    const editCount = mb >= 50 ? 8 : 16;
    const events = (text.match(/\n {2}\{/g) ?? []).length;
    const escapes = (text.match(/\\[nt"]/g) ?? []).length;
    console.log(`--- ${trace.title}: ${(text.length / 2 ** 20).toFixed(1)} MB, ${events} events, ${escapes} escapes (\\n \\t \\"), ${editCount * 2} edits`);
    if (everything || args.includes('cold') || args.includes('escapes')) await compareColdOpens(text, 4, undefined, trace);
    if (!measureAll) continue;
    const bytes = Buffer.byteLength(text);
    console.log('server                        cold   warm   definition p50/p95   hover p50/p95   diagnostics p50/p95   small hover first/max   peak RSS/size   cold rise/size');
    const results = new Map<ServerKind, Figures>();
    for (const kind of [floor, jsonServer, ours, oursFull]) {
      const figures = await measure(kind, text, editCount);
      results.set(kind, figures);
      console.log(
        `${kind.name.padEnd(27)} ${ms(figures.cold)} ${ms(figures.warm)}      ${pair(figures.definition)}    ${pair(figures.hover)}`
        + `       ${pair(figures.diagnostics)}         ${ms(figures.firstSmallHover)} /${ms(slowest(figures.smallHover))}   ${(figures.peakBytes / text.length).toFixed(1).padStart(10)}x   ${(figures.coldGrowthBytes / bytes).toFixed(1).padStart(12)}x`,
      );
    }
    const base = results.get(floor)!;
    const plain = results.get(jsonServer)!;
    const mine = results.get(ours)!;
    const full = results.get(oursFull)!;
    for (const [name, figures] of [['incremental', mine], ['full re-read', full]] as const) {
      const kinds = [...figures.byKind].map(([where, f]) => `${where} ${Math.round(percentile(f.definition, 95))} / ${Math.round(percentile(f.diagnostics, 95))}`);
      console.log(`agent-traces, ${name}: p95 definition / diagnostics by edit: ${kinds.join(', ')}`);
    }
    console.log(
      `agent-traces: cold ${(mine.cold / base.cold).toFixed(2)}× the floor (≤ ${trace.coldTarget}), ${(plain.cold / mine.cold).toFixed(2)}× faster than JSON (≥ ${trace.jsonTarget}); `
      + `warm ${(mine.warm / base.warm).toFixed(2)}× the floor, ${(plain.warm / mine.warm).toFixed(2)}× faster than JSON`,
    );
    console.log(
      `  after an edit: definition p95 ${Math.round(percentile(mine.definition, 95))} ms${trace.definitionTarget ? ` (≤ ${trace.definitionTarget})` : ''}, hover p95 ${Math.round(percentile(mine.hover, 95))} ms, `
      + `diagnostics p95 ${Math.round(percentile(mine.diagnostics, 95))} ms after the delay (≤ ${mb >= 50 ? 50 : 20}); `
      + `small-file hover while a big one is checked: max ${Math.round(slowest(mine.smallHover))} ms (≤ 50)`,
    );
    console.log(
      `  cold open memory: the resident size rose ${(mine.coldGrowthBytes / bytes).toFixed(1)}× the file size at its peak `
      + `(floor ${(base.coldGrowthBytes / bytes).toFixed(1)}×, JSON ${(plain.coldGrowthBytes / bytes).toFixed(1)}×; `
      + `ours beyond the floor ${((mine.coldGrowthBytes - base.coldGrowthBytes) / bytes).toFixed(1)}×, target ≤ 4)\n`,
    );
  }
  if (rules) await compareRuleFiles(10_000);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
