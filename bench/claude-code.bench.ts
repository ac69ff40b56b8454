// A Claude Code session of about 3 MB against an Invariant trace file of the same size, each opened in the bundled
// server over stdio as an editor opens it: open → diagnostics published and the outline answered. Cold: a fresh
// server process per open (median of several); warm: the third open of a file in one process. The session is the
// corpus's real one (../shared/corpus/formats/claude-code), or a generated one without the corpus; the session is
// opened with the generic `jsonl` language id other editors send. Ratios are session / trace, in the same run.
// Run: npm run bench -- claude-code
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ServerProcess } from '../test/protocol/lspClient';
import { generateTrace } from './generateTrace';
import { repeatSession } from './generateSession';
import { median } from './measure';
import { prompt, reply, result, session, text, toolUse } from '../test/unit/jsonl/claudeCodeSessions';

const corpusSession = resolve(__dirname, '..', '..', '..', 'shared', 'corpus', 'formats', 'claude-code', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');

function sessionText(): { text: string; source: string } {
  if (existsSync(corpusSession)) return { text: readFileSync(corpusSession, 'utf8'), source: 'the corpus session 4d5611e5 (real)' };
  const seed = session(
    prompt('u1', 'run the tests and fix what fails'),
    reply('a1', 'msg_01AAAAAAAAAA', text('Running the tests.'), { parent: 'u1' }),
    reply('a2', 'msg_01AAAAAAAAAA', toolUse('toolu_01AAAAAAAAAA', 'Bash', { command: 'npm test' }), { parent: 'a1' }),
    result('r1', 'toolu_01AAAAAAAAAA', 'FAIL src/app.test.ts\n'.repeat(200), { parent: 'a2' }),
  );
  return { text: repeatSession(seed, 3_000_000), source: 'generated (no corpus)' };
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
  const { text: sessionSource, source } = sessionText();
  const bytes = Buffer.byteLength(sessionSource);
  const subjects: Subject[] = [
    { name: 'Claude Code session (jsonl)', uri: 'file:///bench/0f3c9a.jsonl', languageId: 'jsonl', text: sessionSource },
    { name: 'trace file (agent-trace)', uri: 'file:///bench/same-size.trace.json', languageId: 'agent-trace', text: generateTrace(bytes) },
  ];
  console.log(`session: ${source}, ${(bytes / 1e6).toFixed(2)} MB; trace: ${(Buffer.byteLength(subjects[1].text) / 1e6).toFixed(2)} MB`);
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
  console.log(`session / trace of the same size: cold ${ratio(colds)}×, warm ${ratio(warms)}×`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
