// JSON Lines service benchmark: a generated Invariant dataset (5,000 annotated traces, about 50 MB) timed from
// text to full diagnostics, as a ratio to JSON.parse of every line in the same process (target: at most 3x).
// Run: node esbuild.mjs && node --expose-gc out/bench/jsonl.bench.js [megabytes] [traces]
import { jsonlService, type LinesModel } from '../server/src/jsonl';
import { validateDataset } from '../server/src/jsonl/dataset/validate';
import { defaultSettings, type ServiceContext } from '../server/src/common/languageService';
import { parseTrace } from '../server/src/trace/model';
import { collectProblems } from '../server/src/trace/validate';
import { cpuTime, median } from './measure';
import { generateDataset as generate } from './generateDataset';

const context: ServiceContext = { settings: defaultSettings };

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
