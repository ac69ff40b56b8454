// A Claude Code session of about 3 MB against an Invariant trace file of the same size, each opened in the bundled
// server over stdio as an editor opens it: open → diagnostics published and the outline answered. Cold: a fresh
// server process per open (median of several); warm: the third open of a file in one process. The session is the
// corpus's real one (../shared/corpus/formats/claude-code), or a generated one without the corpus; the session is
// opened with the generic `jsonl` language id other editors send. Ratios are session / trace, in the same run.
// Run: npm run bench -- claude-code
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateTrace } from './generateTrace';
import { repeatSession } from './generateSession';
import { compareOpens, type Subject } from './openBeside';
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

async function main(): Promise<void> {
  const { text: sessionSource, source } = sessionText();
  const bytes = Buffer.byteLength(sessionSource);
  const subjects: Subject[] = [
    { name: 'Claude Code session (jsonl)', uri: 'file:///bench/0f3c9a.jsonl', languageId: 'jsonl', text: sessionSource },
    { name: 'trace file (agent-trace)', uri: 'file:///bench/same-size.trace.json', languageId: 'agent-trace', text: generateTrace(bytes) },
  ];
  console.log(`session: ${source}, ${(bytes / 1e6).toFixed(2)} MB; trace: ${(Buffer.byteLength(subjects[1].text) / 1e6).toFixed(2)} MB`);
  await compareOpens(subjects, 5, 'session / trace of the same size');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
