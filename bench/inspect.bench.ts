// An Inspect AI log of about 3 MB (generated in the shape of the corpus's inspect/log_read_sample.json, made agentic:
// 40 samples of tool calls with their outputs and events) against an Invariant trace file of the same size, each
// opened in the bundled server over stdio as an editor opens it (the log with the generic `json` language id):
// open → diagnostics published and the outline answered, cold and warm. Ratios are log / trace, in the same run.
// Run: npm run bench -- inspect
import { generateTrace } from './generateTrace';
import { compareOpens, type Subject } from './openBeside';
import { assistant, log, modelEvent, sample, system, tool, toolEvent, user } from '../test/unit/inspect/logs';

function agentLog(targetBytes: number): string {
  const samples: Record<string, unknown>[] = [];
  const output = 'total 48\n-rw-r--r-- 1 agent agent 1204 README.md\n'.repeat(30);
  for (let i = 0; JSON.stringify(samples).length < targetBytes; i++) {
    const calls = Array.from({ length: 10 }, (_, n) => `call_${i}_${n}`);
    samples.push(sample({
      id: i + 1, total_time: 40,
      model_usage: { 'openai/gpt-4o': { input_tokens: 20_000, output_tokens: 900, total_tokens: 20_900 } },
      messages: [
        system('You are a careful agent.'),
        user(`Task ${i + 1}: tidy the repository.`),
        ...calls.flatMap((id, n) => [
          assistant(`m_${i}_${n}`, `Step ${n}`, [{ id, fn: 'bash', args: { cmd: `ls -la src/${n}` } }]),
          tool(`t_${i}_${n}`, id, 'bash', output),
        ]),
        assistant(`m_${i}_end`, 'Done.'),
      ],
      events: calls.flatMap((id, n) => [
        modelEvent(`m_${i}_${n}`, `2025-07-05T14:00:${String(n * 4).padStart(2, '0')}.000Z`, { input_tokens: 2000, output_tokens: 90 }),
        toolEvent(id, 'bash', `2025-07-05T14:00:${String(n * 4).padStart(2, '0')}.000Z`, `2025-07-05T14:00:${String(n * 4 + 2).padStart(2, '0')}.000Z`),
      ]),
    }));
  }
  return log(samples);
}

async function main(): Promise<void> {
  const text = agentLog(3_000_000);
  const bytes = Buffer.byteLength(text);
  const subjects: Subject[] = [
    { name: 'Inspect log (json)', uri: 'file:///bench/2025-07-05_tidy.json', languageId: 'json', text },
    { name: 'trace file (agent-trace)', uri: 'file:///bench/same-size.trace.json', languageId: 'agent-trace', text: generateTrace(bytes) },
  ];
  console.log(`log: generated, ${(bytes / 1e6).toFixed(2)} MB; trace: ${(Buffer.byteLength(subjects[1].text) / 1e6).toFixed(2)} MB`);
  await compareOpens(subjects, 5, 'log / trace of the same size');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
