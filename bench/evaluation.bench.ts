// Guardrail evaluation benchmark: the evaluation corpus (parse + evaluate every case), each distinct corpus policy
// on a generated ~10 MB trace of 12,000 events, and flow rules on 100,000 events. CPU time of this process (the
// machine is shared); the official analyzer's figure for the corpus on this machine is 209 s.
// Heap: the peak of an evaluation (sampled as it runs) against the heap the trace's own model keeps.
// Run: node esbuild.mjs && node --expose-gc out/bench/evaluation.bench.js (EVAL_BENCH_POLICY=text: only policies containing it)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { guardrailService } from '../server/src/guardrail';
import { evaluateRules } from '../server/src/guardrail/evaluate';
import { buildInput } from '../server/src/guardrail/evaluate/input';
import { parseTrace } from '../server/src/trace/model';
import { cpuTime, heapAfterGc, median, random, retainedBy } from './measure';
import * as v8 from 'node:v8';

const corpus = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus', 'evaluation', 'cases');

interface Case {
  policy: string;
  parameters: Record<string, unknown>;
  trace: unknown[];
  api: string;
  pending_start?: number;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const describe = (policy: string) => JSON.stringify(policy.trim().split('\n').filter((l) => !l.startsWith('from ') && l.trim() !== '').slice(0, 3).join(' / ')).slice(0, 120);

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
  const text = JSON.stringify(trace);
  const documentModelHeap = retainedBy(() => parseTrace(text));
  const parsed = JSON.parse(text);
  const modelHeap = retainedBy(() => buildInput(parsed));
  const only = process.env.EVAL_BENCH_POLICY;
  const policies = [...new Set(cases.filter((c) => Object.keys(c.parameters).length === 0).map((c) => c.policy))].filter((p) => !only || p.includes(only));
  type Figure = { ms: number; policy: string; errors: number; note: string; heap: number };
  const measure = (policy: string, maxErrors?: number): Figure => {
    const model = parse(policy);
    let errors = 0;
    let note = '';
    const before = heapAfterGc();
    let peak = before;
    let checks = 0;
    // Every 16th cancellation check: reading the heap's size at each of them (every 32 evaluations) took a tenth to
    // a third of the time of an evaluation stopped by its work budget, which the figure below counted as the rule's.
    const sample = (): boolean => {
      if (checks++ % 16 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
      return false;
    };
    // What a reader of the result needs: the evaluation, and the ranges each error is placed by.
    const ms = cpuTime(() => {
      const r = evaluateRules(model, parsed, { isCancelled: sample, maxErrors });
      for (const e of r.errors) e.placeRanges();
      sample();
      errors = r.errors.length;
      note = r.failure ? `fails: ${r.failure.pyType}` : r.notices.length > 0 ? r.notices[0].kind : '';
    });
    return { ms, policy, errors, note, heap: peak - before };
  };
  // As the editor runs a rule: at most agentTraces.maxProblems (default 1,000) violations per rule and trace.
  const editorLimit = 1000;
  const results = policies.map((policy) => measure(policy, editorLimit));
  results.sort((a, b) => b.ms - a.ms);
  const within = results.filter((r) => r.ms <= 1000).length;
  const heaviest = results.reduce((a, b) => (b.heap > a.heap ? b : a), results[0]);
  console.log(`each distinct corpus policy (${policies.length}) on a ${(text.length / 1e6).toFixed(1)} MB trace of 12,000 events (errors placed, at most ${editorLimit} per rule as in the editor): median ${median(results.map((r) => r.ms)).toFixed(0)} ms cpu, ${within} within 1 s: ${within === results.length ? 'PASS' : 'FAIL'}`);
  for (const r of results.filter((x) => x.ms > 500).slice(0, 12)) console.log(`  ${r.ms > 1000 ? 'FAIL' : 'pass'} ${r.ms.toFixed(0)} ms, ${r.errors} errors${r.note ? `, ${r.note}` : ''}, heap ${mb(r.heap)}: ${describe(r.policy)}`);
  console.log(`peak heap of an evaluation (sampled as it runs, garbage included, above the parsed trace) vs the evaluator's trace model (${mb(modelHeap)}; the editor's trace document model: ${mb(documentModelHeap)}): at most ${mb(heaviest.heap)} (${(heaviest.heap / modelHeap).toFixed(2)}×) for ${describe(heaviest.policy)}; median ${mb(median(results.map((r) => r.heap)))}`);
  console.log(`  (garbage not yet collected counts here: up to the young generation's size, ${mb(youngGenerationBytes())} in this process, whatever the evaluation keeps; the target is judged on the live peak below)`);
  // Live heap: the same peak with the garbage collected at the sample points (every 16th check of the evaluation, and
  // at its end with the result still held), for the policies whose sampled peak was highest.
  const live = (policy: string): number => {
    const model = parse(policy);
    const before = heapAfterGc();
    let peak = before;
    let calls = 0;
    const sample = (): boolean => {
      if (calls++ % 16 === 0) peak = Math.max(peak, heapAfterGc());
      return false;
    };
    const r = evaluateRules(model, parsed, { isCancelled: sample, maxErrors: editorLimit });
    for (const e of r.errors) e.placeRanges();
    peak = Math.max(peak, heapAfterGc());
    return r.errors.length >= 0 ? peak - before : 0;
  };
  const heaviestLive = [...results].sort((a, b) => b.heap - a.heap).slice(0, 8).map((r) => ({ policy: r.policy, heap: live(r.policy) }))
    .reduce((a, b) => (b.heap > a.heap ? b : a));
  console.log(`  live (garbage collected at the sample points), the 8 highest: at most ${mb(heaviestLive.heap)} (${(heaviestLive.heap / modelHeap).toFixed(2)}× the evaluator's trace model, ${(heaviestLive.heap / documentModelHeap).toFixed(2)}× the document model; target <= 2×: ${heaviestLive.heap <= 2 * modelHeap ? 'PASS' : 'FAIL'}) for ${describe(heaviestLive.policy)}`);
  const uncapped = results.filter((r) => r.note === 'error-limit').map((r) => measure(r.policy));
  for (const r of uncapped) console.log(`  without the violation limit (agent-traces eval): ${r.ms.toFixed(0)} ms, ${r.errors} errors${r.note ? `, ${r.note}` : ''}, heap ${mb(r.heap)}: ${describe(r.policy)}`);
  const placing = results.find((r) => r.policy.includes('unicode(out) contains_only'));
  if (placing) {
    const model = parse(placing.policy);
    let ranges = 0;
    const ms = cpuTime(() => {
      for (const e of evaluateRules(model, parsed).errors) ranges += e.ranges.length;
    });
    console.log(`  spelling out every range (agent-traces eval --json): ${ms.toFixed(0)} ms cpu for ${ranges.toLocaleString('en-US')} ranges of ${describe(placing.policy)}`);
  }
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

/** The young generation's capacity: garbage up to this size may be alive in a sample taken without a collection. */
function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics()
    .filter((space) => space.space_name === 'new_space' || space.space_name === 'new_large_object_space')
    .reduce((sum, space) => sum + space.space_size, 0);
}
