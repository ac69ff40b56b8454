// JSON Lines edits: how long after a one-character edit in a big dataset the server answers again, as ratios to a
// full parse of the same text measured in the same run. Two parts, on generated datasets of 10 MB and 50 MB:
//  - hot loop (in process, CPU ms): the edited version's model from the previous one (parseLinesAfterEdit) against
//    parse; each also with the full check (validate) the server runs after the delay;
//  - end to end (the bundled server over stdio, wall-clock ms): edit → hover and definition on another line, and
//    edit → diagnostics less the 200 ms validation delay, against open → diagnostics of the same text; beside it the
//    transport floor (bench/noopServer.ts), whose editor document alone copies the whole edited text on each edit.
// Run: npm run bench -- jsonl-edit   (or node esbuild.mjs && node out/bench/jsonl-edit.bench.js [sizesInMB...])
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  createProtocolConnection, PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter, type ProtocolConnection,
} from 'vscode-languageserver/node';
import { jsonlService, type LinesModel } from '../server/src/jsonl';
import { defaultSettings, type DocumentInput, type ServiceContext, type TextChange } from '../server/src/common/languageService';
import { serverEnvironment, serverExecArgv } from '../client/src/serverProcess';
import { generateDataset } from './generateDataset';
import { cpuTime, median, random } from './measure';

/** The dispatcher's re-read after an edit (the dataset's own line reader included). */
const reparse = (previous: LinesModel, doc: DocumentInput, edit?: TextChange): LinesModel => jsonlService.reparse!(previous, doc, edit)!;

const repoRoot = resolve(__dirname, '..', '..');
const context: ServiceContext = { settings: defaultSettings };

/** A server run over stdio: ours, or the transport floor (bench/noopServer.ts: keeps the editor's document, no work). */
interface ServerKind {
  name: string;
  script: string;
  /** Milliseconds the server waits after an edit before it checks the document again. */
  validationDelayMs: number;
  /** Node options: ours gets those the client starts it with, so that this is the server users run. */
  execArgv?: readonly string[];
  /** Added to the server process's environment (ours: what the client adds). */
  env?: Record<string, string>;
}

const floor: ServerKind = { name: 'no-op server (floor)', script: resolve(repoRoot, 'out', 'bench', 'noopServer.js'), validationDelayMs: 0 };
const ours: ServerKind = {
  name: 'agent-traces', script: resolve(repoRoot, 'dist', 'server.js'), validationDelayMs: 200, execArgv: serverExecArgv,
  env: serverEnvironment(process.env, process.platform),
};

interface Edit {
  offset: number;
  insert: string;
}

/** One-character edits inside a string of a random trace line (an insertion, then its undo). */
function editsIn(text: string, count: number): Edit[] {
  const next = random(7);
  const places = [...text.matchAll(/"content":"/g)].map((match) => match.index! + 11);
  return Array.from({ length: count }, () => ({ offset: places[Math.floor(next() * places.length)], insert: 'x' }));
}

function applied(text: string, edit: Edit, undo: boolean): string {
  return undo ? text.slice(0, edit.offset) + text.slice(edit.offset + 1) : text.slice(0, edit.offset) + edit.insert + text.slice(edit.offset);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)];
}

interface HotFigures {
  fullParse: number;
  fullCheck: number;
  editParse: number[];
  editCheck: number[];
}

function hotLoop(text: string, editCount: number): HotFigures {
  const rounds = 3;
  const figures: HotFigures = { fullParse: 0, fullCheck: 0, editParse: [], editCheck: [] };
  const parse = (version: number, source: string) => jsonlService.parse({ uri: 'file:///bench.jsonl', version, text: source });
  const parses: number[] = [];
  const checks: number[] = [];
  let model!: LinesModel;
  // Warmed up first, so the full parse is not charged with compiling the parser.
  for (let round = 0; round < 2; round++) jsonlService.validate(parse(round, text), context);
  for (let round = 0; round < rounds; round++) parses.push(cpuTime(() => (model = parse(round, text))));
  for (let round = 0; round < rounds; round++) checks.push(cpuTime(() => jsonlService.validate(parse(round, text), context)));
  figures.fullParse = median(parses);
  figures.fullCheck = median(checks);
  let current = text;
  let version = 10;
  for (const edit of editsIn(text, editCount)) {
    for (const undo of [false, true]) {
      current = applied(current, edit, undo);
      // The engine copies an edited text into one piece when it is first read (about 1 ms per MB here): any reader
      // pays it, the full parse measured above read a text already in one piece, so neither is charged with it.
      current.charCodeAt(0);
      const previous = model;
      figures.editParse.push(cpuTime(() => (model = reparse(previous, { uri: 'file:///bench.jsonl', version: ++version, text: current }))));
      figures.editCheck.push(cpuTime(() => jsonlService.validate(reparse(previous, { uri: 'file:///bench.jsonl', version, text: current }), context)));
    }
  }
  return figures;
}

interface EndToEnd {
  open: number;
  hover: number[];
  definition: number[];
  diagnostics: number[];
}

async function endToEnd(kind: ServerKind, text: string, editCount: number): Promise<EndToEnd> {
  const child = spawn(process.execPath, [...(kind.execArgv ?? []), kind.script, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...kind.env } });
  const connection: ProtocolConnection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiters: { uri: string; version: number; resolve: () => void }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    for (const waiter of waiters.filter((w) => w.uri === params.uri && w.version === params.version)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } } });
  await connection.sendNotification('initialized', {});
  const uri = 'file:///bench/dataset.jsonl';
  const published = (version: number, of = uri) => new Promise<void>((resolvePromise) => waiters.push({ uri: of, version, resolve: resolvePromise }));
  // A first document warms the server up; the figure is the second open of the same text.
  const warmUp = published(1, 'file:///bench/warm.jsonl');
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: 'file:///bench/warm.jsonl', languageId: 'agent-trace-jsonl', version: 1, text } });
  await warmUp;
  await connection.sendNotification('textDocument/didClose', { textDocument: { uri: 'file:///bench/warm.jsonl' } });
  const opened = published(1);
  let start = performance.now();
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'agent-trace-jsonl', version: 1, text } });
  await opened;
  const figures: EndToEnd = { open: performance.now() - start, hover: [], definition: [], diagnostics: [] };

  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number) => {
    let line = 0;
    while (line + 1 < lineStarts.length && lineStarts[line + 1] <= offset) line++;
    return line;
  };
  const ids = [...text.matchAll(/"tool_call_id":"/g)].map((match) => match.index! + 16);
  const next = random(3);
  // The editor's document computes its line offsets on the first request that converts a position (once per
  // document, not per edit): that request is made before the edits.
  await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 5 } });
  let version = 1;
  for (const edit of editsIn(text, editCount)) {
    for (const undo of [false, true]) {
      version++;
      const line = lineOf(edit.offset);
      const position = { line, character: edit.offset - lineStarts[line] };
      const range = undo ? { start: position, end: { line, character: position.character + 1 } } : { start: position, end: position };
      let targetOffset = ids[Math.floor(next() * ids.length)];
      while (lineOf(targetOffset) === line) targetOffset = ids[Math.floor(next() * ids.length)];
      const targetLine = lineOf(targetOffset);
      const target = { line: targetLine, character: targetOffset - lineStarts[targetLine] };
      const diagnostics = published(version);
      start = performance.now();
      await connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: undo ? '' : edit.insert }] });
      await connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: target });
      figures.hover.push(performance.now() - start);
      const asked = performance.now();
      await connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: target });
      figures.definition.push(performance.now() - asked);
      await diagnostics;
      figures.diagnostics.push(performance.now() - start - kind.validationDelayMs);
    }
  }
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  connection.dispose();
  return figures;
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  for (const megabytes of sizes.length > 0 ? sizes : [10, 50]) {
    const text = generateDataset(megabytes, megabytes * 100);
    const editCount = 10;
    const lines = text.split('\n').length;
    console.log(`\n--- dataset of ${(text.length / 2 ** 20).toFixed(1)} MB, ${lines} lines; ${editCount * 2} one-character edits (insert, undo) inside a string`);
    const hot = hotLoop(text, editCount);
    const ratio = (value: number, base: number) => `${(value / base).toFixed(3)}×`;
    console.log('hot loop, CPU ms                     full parse   after an edit p50 / p95     ratio p95');
    console.log(`  parse                              ${hot.fullParse.toFixed(0).padStart(10)}   ${median(hot.editParse).toFixed(1).padStart(10)} / ${percentile(hot.editParse, 95).toFixed(1).padStart(6)}     ${ratio(percentile(hot.editParse, 95), hot.fullParse)}`);
    console.log(`  parse + diagnostics                ${hot.fullCheck.toFixed(0).padStart(10)}   ${median(hot.editCheck).toFixed(1).padStart(10)} / ${percentile(hot.editCheck, 95).toFixed(1).padStart(6)}     ${ratio(percentile(hot.editCheck, 95), hot.fullCheck)}`);
    for (const kind of [floor, ours]) {
      const e2e = await endToEnd(kind, text, editCount);
      console.log(`end to end over stdio, wall ms: ${kind.name.padEnd(21)} open → diagnostics   after an edit p50 / p95   ratio p95 to open`);
      for (const [name, values] of [['edit → hover', e2e.hover], ['edit → definition (after the hover)', e2e.definition], ['edit → diagnostics, less the delay', e2e.diagnostics]] as const) {
        console.log(`  ${name.padEnd(50)} ${e2e.open.toFixed(0).padStart(18)}   ${median(values).toFixed(1).padStart(10)} / ${percentile(values, 95).toFixed(1).padStart(6)}   ${ratio(percentile(values, 95), e2e.open)}`);
      }
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
