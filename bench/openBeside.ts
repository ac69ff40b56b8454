// Opens files in the bundled server over stdio as an editor opens them (open → diagnostics published and the outline
// answered), cold (a fresh server process per open) and warm (the third open of a file in one process), interleaved
// so that the machine's load weighs on every subject alike; prints the medians and the first subject's ratio to the
// second, measured in the same run.
import { performance } from 'node:perf_hooks';
import { ServerProcess } from '../test/protocol/lspClient';
import { median } from './measure';

export interface Subject {
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
  const outline = within(
    server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: subject.uri } }) as Promise<unknown[]>,
    60_000, `${subject.name}: no outline within 60 s`,
  );
  const [, symbols] = await Promise.all([diagnostics, outline]);
  // An empty outline is the server's answer past its request time budget (its log says so): a figure without it is no figure.
  if (!Array.isArray(symbols) || symbols.length === 0) throw new Error(`${subject.name}: no outline; server log: ${server.stderr}`);
  return performance.now() - started;
}

function within<T>(promise: Promise<T>, ms: number, failure: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(failure)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `use` on a fresh server; a failed measurement kills the server, so the benchmark ends instead of waiting on it. */
async function withServer(use: (server: ServerProcess) => Promise<number>): Promise<number> {
  const server = new ServerProcess();
  try {
    await server.initialize();
    await server.configured;
    const time = await use(server);
    await server.shutdown();
    return time;
  } catch (error) {
    server.kill();
    throw error;
  }
}

const cold = (subject: Subject) => withServer((server) => openOnce(server, subject, 1));

const warm = (subject: Subject) => withServer(async (server) => {
  let time = 0;
  for (let round = 1; round <= 3; round++) {
    time = await openOnce(server, subject, 1);
    await server.connection.sendNotification('textDocument/didClose', { textDocument: { uri: subject.uri } });
  }
  return time;
});

/** `ratioLabel`: what the ratio compares (`session / trace of the same size`). */
export async function compareOpens(subjects: Subject[], rounds: number, ratioLabel: string): Promise<void> {
  const colds = new Map<Subject, number[]>(subjects.map((s) => [s, []]));
  const warms = new Map<Subject, number[]>(subjects.map((s) => [s, []]));
  for (let round = 0; round < rounds; round++) {
    for (const subject of subjects) colds.get(subject)!.push(await cold(subject));
    for (const subject of subjects) warms.get(subject)!.push(await warm(subject));
  }
  console.log(`open → diagnostics + outline, median of ${rounds} (ms): cold (fresh process) and warm (third open in one process)`);
  for (const subject of subjects) {
    console.log(`${subject.name.padEnd(30)} cold ${median(colds.get(subject)!).toFixed(0).padStart(6)}   warm ${median(warms.get(subject)!).toFixed(0).padStart(6)}`);
  }
  const ratio = (values: Map<Subject, number[]>) => (median(values.get(subjects[0])!) / median(values.get(subjects[1])!)).toFixed(2);
  console.log(`${ratioLabel}: cold ${ratio(colds)}×, warm ${ratio(warms)}×`);
}
