// Guardrail evaluation benchmark: the evaluation corpus (parse + evaluate every case), each distinct corpus policy
// on a generated ~10 MB trace of 12,000 events, and flow rules on 100,000 events. CPU time of this process (the
// machine is shared); the official analyzer's figure for the corpus on this machine is 209 s.
// Run: node esbuild.mjs && node --expose-gc out/bench/evaluation.bench.js
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { guardrailService } from '../server/src/guardrail';
import { evaluateRules } from '../server/src/guardrail/evaluate';
import { cpuTime, median, random } from './measure';

const corpus = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus', 'evaluation', 'cases');

interface Case {
  policy: string;
  parameters: Record<string, unknown>;
  trace: unknown[];
  api: string;
  pending_start?: number;
}

const parse = (text: string) => guardrailService.parse({ uri: 'bench.gr', version: 0, text });

/** A trace of `events` events (user question, assistant call, tool output), with outputs of a few hundred bytes. */
function generateTrace(events: number, outputBytes: number): unknown[] {
  const next = random(11);
  const tools = ['get_inbox', 'send_email', 'read_file', 'search_web', 'ipython'];
  const filler = 'The quick brown fox jumps over the lazy dog. ';
  const trace: unknown[] = [];
  for (let i = 0; trace.length < events; i++) {
    trace.push({ role: 'user', content: `Question ${i}: please check item ${Math.floor(next() * 1e6)}` });
    const name = tools[i % tools.length];
    trace.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name, arguments: { to: `user${i}@example.com`, code: 'print(1)', arg: 'x = 1', url: `https://example.com/${i}` } } }] });
    trace.push({ role: 'tool', tool_call_id: `call_${i}`, content: filler.repeat(Math.ceil(outputBytes / filler.length)).slice(0, outputBytes) });
  }
  return trace.slice(0, events);
}

if (existsSync(corpus)) {
  const cases = readdirSync(corpus).sort().map((f) => JSON.parse(readFileSync(path.join(corpus, f), 'utf8')) as Case);
  const run = () => {
    for (const c of cases) {
      evaluateRules(parse(c.policy), c.trace, { parameters: c.parameters, pendingStart: c.api === 'analyze_pending' ? c.pending_start : undefined });
    }
  };
  run();
  const times = Array.from({ length: 5 }, () => cpuTime(run));
  console.log(`evaluation corpus: ${cases.length} cases, parse + evaluate: ${median(times).toFixed(0)} ms cpu (median of 5, best ${Math.min(...times).toFixed(0)})  (target <= 2000 ms; official analyzer 209,000 ms)`);

  const trace = generateTrace(12_000, 2_400);
  const size = JSON.stringify(trace).length;
  const policies = [...new Set(cases.filter((c) => Object.keys(c.parameters).length === 0).map((c) => c.policy))];
  const results: { ms: number; policy: string; errors: number; note: string }[] = [];
  for (const policy of policies) {
    const model = parse(policy);
    let errors = 0;
    let note = '';
    const ms = cpuTime(() => {
      const r = evaluateRules(model, trace, {});
      errors = r.errors.length;
      note = r.failure ? `fails: ${r.failure.pyType}` : r.notices.length > 0 ? r.notices[0].kind : '';
    });
    results.push({ ms, policy, errors, note });
  }
  results.sort((a, b) => b.ms - a.ms);
  console.log(`each distinct corpus policy (${policies.length}) on a ${(size / 1e6).toFixed(1)} MB trace of 12,000 events: median ${median(results.map((r) => r.ms)).toFixed(0)} ms cpu, ${results.filter((r) => r.ms <= 1000).length} within 1 s; slowest:`);
  for (const r of results.slice(0, 5)) console.log(`  ${r.ms.toFixed(0)} ms, ${r.errors} errors${r.note ? `, ${r.note}` : ''}: ${JSON.stringify(r.policy.trim().split('\n').filter((l) => !l.startsWith('from ') && l.trim() !== '').slice(0, 3).join(' / ')).slice(0, 150)}`);
} else {
  console.log(`evaluation corpus not found at ${corpus}: corpus figures skipped`);
}

const big = generateTrace(100_000, 200);
for (const policy of [
  'raise PolicyViolation("x", a, b) if:\n    (a: ToolCall) ~> (b: ToolOutput)\n    a is tool:get_inbox\n',
  'raise PolicyViolation("x", out, call) if:\n    (out: ToolOutput) -> (call: ToolCall)\n    out is tool:get_inbox\n    call is tool:send_email\n    "zzz" in out.content\n',
  'raise PolicyViolation("x", m) if:\n    (m: Message)\n    "Question 99999:" in m.content\n',
]) {
  const model = parse(policy);
  let errors = 0;
  let work = 0;
  const ms = cpuTime(() => {
    const r = evaluateRules(model, big);
    errors = r.errors.length;
    work = r.work;
  });
  console.log(`100,000 events: ${ms.toFixed(0)} ms cpu, ${work} body evaluations, ${errors} errors: ${JSON.stringify(policy.split('\n')[1].trim())}`);
}
