// JSON Lines service benchmark: a generated Invariant dataset (5,000 annotated traces, about 50 MB) timed from
// text to full diagnostics, as a ratio to JSON.parse of every line in the same process (target: at most 3x).
// Run: node esbuild.mjs && node --expose-gc out/bench/jsonl.bench.js [megabytes] [traces]
import { jsonlService, type LinesModel } from '../server/src/jsonl';
import { validateDataset } from '../server/src/dataset/validate';
import { defaultSettings, type ServiceContext } from '../server/src/common/service';
import { parseTrace } from '../server/src/trace/model';
import { collectProblems } from '../server/src/trace/validate';
import { cpuTime, median, random } from './measure';

const context: ServiceContext = { settings: defaultSettings };

const words = ('the inbox meeting report deploy server error warning file line function value result user request '
  + 'response token cache build test passed failed retry timeout network database query index café naïve').split(' ');

function sentence(next: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(words[Math.floor(next() * words.length)]);
  return out.join(' ');
}

/** One annotated trace line of about targetBytes characters: messages, tool calls, outputs, annotations. */
function traceLine(next: () => number, index: number, targetBytes: number): string {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant with tools.' },
    { role: 'user', content: `${sentence(next, 25)}\n"please" — ${sentence(next, 10)}` },
  ];
  let size = 200;
  let call = 0;
  while (size < targetBytes) {
    const id = `call_${index}_${call++}`;
    const args = { path: `/src/${words[call % words.length]}.py`, n: Math.floor(next() * 100), query: sentence(next, 5) };
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify(args) } }] });
    const lines: string[] = [];
    for (let i = 1; i <= 12; i++) lines.push(`${i}:\t${sentence(next, 8)} "quoted"`);
    const output = lines.join('\n');
    messages.push({ role: 'tool', tool_call_id: id, content: output });
    messages.push({ role: 'assistant', content: sentence(next, 30) });
    size += output.length + 420;
  }
  const annotations = [
    { content: 'user intent', address: 'messages.1.content:0-12' },
    { content: 'first call', address: 'messages.2.tool_calls.0.function.arguments' },
    { content: 'output line', address: 'messages.3.content:L2', extra_metadata: { source: 'guardrails-error' } },
  ];
  return JSON.stringify({ index, messages, annotations, metadata: { run: index, big: '9007199254740993' } });
}

function generate(megabytes: number, traces: number): string {
  const next = random(42);
  // traceLine overshoots its target by about a fifth; scale so the file comes out near the asked size.
  const perTrace = Math.floor((megabytes * 1024 * 1024 * 0.77) / traces);
  const lines = ['{"metadata": {"name": "benchmark dataset"}}'];
  for (let i = 0; i < traces; i++) lines.push(traceLine(next, i, perTrace));
  return lines.join('\n');
}

function main(): void {
  const megabytes = Number(process.argv[2] ?? 50);
  const traces = Number(process.argv[3] ?? 5000);
  const text = generate(megabytes, traces);
  const rounds = 5;
  const runs = { baseline: [] as number[], parse: [] as number[], rules: [] as number[], traceService: [] as number[], full: [] as number[] };
  let problems = 0;
  let sink = 0;
  const parse = () => jsonlService.parse({ uri: 'file:///bench.jsonl', version: 1, text });
  // Each kind of run in a block of its own, and no forced collection between timed runs: a forced full collection
  // makes V8 drop the parser's optimized code, which charged our parse (and not the native JSON.parse) with
  // recompiling it every run. The garbage each run leaves is collected within its own block.
  for (let round = 0; round < rounds; round++) {
    runs.baseline.push(cpuTime(() => {
      for (const line of text.split('\n')) if (line) sink += JSON.parse(line) ? 1 : 0;
    }));
  }
  // The headline figure: from text to every diagnostic, as the server does on open.
  for (let round = 0; round < rounds; round++) {
    runs.full.push(cpuTime(() => {
      problems = jsonlService.validate(parse(), context).length;
    }));
  }
  let model!: LinesModel;
  for (let round = 0; round < rounds; round++) {
    runs.parse.push(cpuTime(() => {
      model = parse();
    }));
  }
  // The dataset's own rules and annotation checks (addresses were resolved during the parse).
  for (let round = 0; round < rounds; round++) {
    runs.rules.push(cpuTime(() => {
      validateDataset(model, (problem) => (sink += problem.span.start, true));
    }));
  }
  // Part of the parse above: the single-trace service's parse and checks of every trace line.
  for (let round = 0; round < rounds; round++) {
    runs.traceService.push(cpuTime(() => {
      for (const line of model.contentLines) {
        if (line.kind === 'raw' || line.kind === 'annotated') sink += collectProblems(parseTrace(text, line.start, line.end), context).length;
      }
    }));
  }
  const base = median(runs.baseline);
  const row = (name: string, values: number[]): [string, string, string] => {
    const ms = median(values);
    return [name, ms.toFixed(0), `${(ms / base).toFixed(2)}x`];
  };
  const rows = [
    row('JSON.parse of every line (baseline)', runs.baseline),
    row('text to full diagnostics', runs.full),
    row('  parse: lines, kinds, trees, trace checks', runs.parse),
    row('  dataset rules and annotations', runs.rules),
    row('    of which single-trace parse and checks', runs.traceService),
  ];
  const ratio = median(runs.full) / base;
  console.log(`jsonl bench: ${(text.length / 1024 / 1024).toFixed(1)} MB, ${traces} traces, ${problems} problems, median of ${rounds} runs (sink ${sink % 7})`);
  console.log(`| ${'phase'.padEnd(40)} | ${'CPU ms'.padStart(8)} | ${'ratio'.padStart(7)} |`);
  console.log(`|${'-'.repeat(42)}|${'-'.repeat(10)}|${'-'.repeat(9)}|`);
  for (const [name, ms, r] of rows) console.log(`| ${name.padEnd(40)} | ${ms.padStart(8)} | ${r.padStart(7)} |`);
  console.log(`target: text to full diagnostics at most 3x JSON.parse — ${ratio <= 3 ? 'met' : 'not met'} (${ratio.toFixed(2)}x)`);
}

main();
