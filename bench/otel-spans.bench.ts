// A file of OpenTelemetry spans of about 3 MB (the collector's file exporter's JSON Lines: runs of a model span asking
// for a tool, the tool span, a model span repeating the history, one trace) against an Invariant trace file of the
// same size, each opened in the bundled server over stdio as an editor opens it: open → diagnostics published and the
// outline answered. Cold: a fresh server process per open (median of several); warm: the third open of a file in one
// process. The spans are opened with the generic `jsonl` language id other editors send. Ratios are spans / trace, in
// the same run. The runs are generated as test/unit/otel/samples.ts writes them (imitating the corpus's
// otel-any-agent/OPENAI_trace.json run, in OTLP).
// Run: npm run bench -- otel
import { performance } from 'node:perf_hooks';
import { ServerProcess } from '../test/protocol/lspClient';
import { conventionsRun, otlpLine } from '../test/unit/otel/samples';
import { generateTrace } from './generateTrace';
import { median } from './measure';

/** Batches of one run each, every span id new, all in one trace, until the file has about `targetBytes`. */
function spansFile(targetBytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let run = 0; size < targetBytes; run++) {
    const specs = conventionsRun().map((spec) => ({ ...spec, id: spec.id + run * 10, parent: spec.parent === undefined ? undefined : spec.parent + run * 10, at: spec.at + run * 2000 }));
    const line = otlpLine(specs);
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

interface Subject {
  name: string;
  uri: string;
  languageId: string;
  text: string;
}

/** Milliseconds from didOpen to both the diagnostics and the outline. */
async function openOnce(server: ServerProcess, subject: Subject, version: number): Promise<number> {
  const started = performance.now();
  server.open(subject.uri, subject.languageId, subject.text, version);
  const diagnostics = server.diagnosticsFor(subject.uri, version, 60_000);
  const outline = server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: subject.uri } }) as Promise<unknown[]>;
  const [, symbols] = await Promise.all([diagnostics, outline]);
  if (!Array.isArray(symbols) || symbols.length === 0) throw new Error(`${subject.name}: no outline`);
  return performance.now() - started;
}

async function cold(subject: Subject): Promise<number> {
  const server = new ServerProcess();
  await server.initialize();
  await server.configured;
  const time = await openOnce(server, subject, 1);
  await server.shutdown();
  return time;
}

async function warm(subject: Subject): Promise<number> {
  const server = new ServerProcess();
  await server.initialize();
  await server.configured;
  let time = 0;
  for (let round = 1; round <= 3; round++) {
    time = await openOnce(server, subject, 1);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: subject.uri } });
  }
  await server.shutdown();
  return time;
}

async function main(): Promise<void> {
  const spans = spansFile(3_000_000);
  const bytes = Buffer.byteLength(spans);
  const subjects: Subject[] = [
    { name: 'OTLP spans (jsonl)', uri: 'file:///bench/spans.jsonl', languageId: 'jsonl', text: spans },
    { name: 'trace file (agent-trace)', uri: 'file:///bench/same-size.trace.json', languageId: 'agent-trace', text: generateTrace(bytes) },
  ];
  console.log(`spans: ${(bytes / 1e6).toFixed(2)} MB, ${spans.split('\n').length - 1} lines of 6 spans; trace: ${(Buffer.byteLength(subjects[1].text) / 1e6).toFixed(2)} MB`);
  const rounds = 5;
  const colds = new Map<Subject, number[]>(subjects.map((s) => [s, []]));
  const warms = new Map<Subject, number[]>(subjects.map((s) => [s, []]));
  // Interleaved, so that the machine's load weighs on both alike.
  for (let round = 0; round < rounds; round++) {
    for (const subject of subjects) colds.get(subject)!.push(await cold(subject));
    for (const subject of subjects) warms.get(subject)!.push(await warm(subject));
  }
  console.log(`open → diagnostics + outline, median of ${rounds} (ms): cold (fresh process) and warm (third open in one process)`);
  for (const subject of subjects) {
    console.log(`${subject.name.padEnd(30)} cold ${median(colds.get(subject)!).toFixed(0).padStart(6)}   warm ${median(warms.get(subject)!).toFixed(0).padStart(6)}`);
  }
  const ratio = (values: Map<Subject, number[]>) => (median(values.get(subjects[0])!) / median(values.get(subjects[1])!)).toFixed(2);
  console.log(`spans / trace of the same size: cold ${ratio(colds)}×, warm ${ratio(warms)}×`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
