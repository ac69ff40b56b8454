// Trace language service benchmark, a hot loop in process (end-to-end figures over stdio: e2e.bench.ts): diagnostics
// time against JSON.parse of the same text, heap over file size, and definition/hover latency on tool_call_id offsets.
// Run: node esbuild.mjs && node --expose-gc out/bench/trace.bench.js [sizesInMB...]
import { parseTrace } from '../server/src/trace/model';
import { validate as validateTrace } from '../server/src/trace/validate';
import { hover as traceHover } from '../server/src/trace/hover';
import { defaultSettings, type ServiceContext } from '../server/src/common/languageService';
import { collectsGarbage, cpuTime, heapAfterGc, median, random } from './measure';
import { generateTrace } from './generateTrace';
import { traceService } from '../server/src/trace';

const { definition: traceDefinition } = traceService;

const context: ServiceContext = { settings: defaultSettings };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

function time(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

interface Row {
  size: string;
  jsonParseMs: number;
  diagnosticsMs: number;
  ratio: number;
  wallRatio: number;
  heapRatio: number;
  problems: number;
}

function measure(megabytes: number): { row: Row; text: string } {
  const text = generateTrace(megabytes * 1024 * 1024);
  const runs = megabytes >= 50 ? 5 : 7;
  const parseTimes: number[] = [];
  const diagnosticTimes: number[] = [];
  const parseWall: number[] = [];
  const diagnosticWall: number[] = [];
  let problems = 0;
  // Small texts are repeated within one measurement so that it lasts long enough for the clocks to resolve it.
  const repeat = Math.max(1, Math.round(32 / megabytes));
  // Each kind of run in a block of its own, and no forced collection between timed runs: a forced full collection
  // makes V8 drop the parser's optimized code, which charged our parse (and not the native JSON.parse) with
  // recompiling it every run. The garbage each run leaves is collected within its own block.
  for (let i = 0; i < runs; i++) {
    const wall = performance.now();
    parseTimes.push(cpuTime(() => {
      for (let r = 0; r < repeat; r++) JSON.parse(text);
    }) / repeat);
    parseWall.push((performance.now() - wall) / repeat);
  }
  for (let i = 0; i < runs; i++) {
    const wall = performance.now();
    diagnosticTimes.push(cpuTime(() => {
      for (let r = 0; r < repeat; r++) problems = validateTrace(parseTrace(text), context).length;
    }) / repeat);
    diagnosticWall.push((performance.now() - wall) / repeat);
  }
  // Peak heap: the model (kept alive) plus validation's transient objects, sampled right after validation.
  const before = heapAfterGc();
  const model = parseTrace(text);
  validateTrace(model, context);
  const peak = process.memoryUsage().heapUsed - before;
  const retained = heapAfterGc() - before;
  void model.events.length;
  const jsonParseMs = median(parseTimes);
  const diagnosticsMs = median(diagnosticTimes);
  return {
    row: {
      size: `${(text.length / 1024 / 1024).toFixed(1)} MB`,
      jsonParseMs,
      diagnosticsMs,
      ratio: diagnosticsMs / jsonParseMs,
      wallRatio: median(diagnosticWall) / median(parseWall),
      heapRatio: Math.max(peak, retained) / text.length,
      problems,
    },
    text,
  };
}

function latency(text: string): { definition: number[]; hover: number[]; hits: number; slowest: string } {
  const model = parseTrace(text);
  const offsets: number[] = [];
  let at = text.indexOf('"tool_call_id": "');
  while (at !== -1) {
    offsets.push(at + '"tool_call_id": "'.length + 2);
    at = text.indexOf('"tool_call_id": "', at + 1);
  }
  const next = random(7);
  const definition: number[] = [];
  const hover: number[] = [];
  let hits = 0;
  // Warm up the code paths first, as an editor session has.
  for (let i = 0; i < 300; i++) {
    const offset = offsets[Math.floor(next() * offsets.length)];
    traceDefinition(model, offset);
    traceHover(model, offset, context);
  }
  let slowest = '';
  let slowestTime = 0;
  for (let i = 0; i < 2000; i++) {
    const offset = offsets[Math.floor(next() * offsets.length)];
    let targets = 0;
    definition.push(time(() => { targets = traceDefinition(model, offset).length; }));
    if (targets > 0) hits++;
    const took = time(() => traceHover(model, offset, context));
    hover.push(took);
    if (took > slowestTime) {
      slowestTime = took;
      slowest = `${took.toFixed(2)} ms at offset ${offset}`;
    }
  }
  return { definition, hover, hits, slowest };
}

function main(): void {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const megabytes = sizes.length > 0 ? sizes : [1, 10, 50];
  if (!collectsGarbage) console.log('note: run with node --expose-gc for heap figures');
  console.log('Hot-loop figures, in process (no transport, no editor): CPU time of this process, median of several runs');
  console.log('(wall-clock ratio in the last column). End-to-end figures over stdio: npm run bench -- e2e');
  console.log('size      JSON.parse  diagnostics  ratio (≤3)  heap/size (≤4)  problems  wall ratio');
  let largest = '';
  // Warm up the parser and the validator on a small trace so the first size is not measured cold.
  const warm = generateTrace(2 * 1024 * 1024, 99);
  for (let i = 0; i < 5; i++) {
    JSON.parse(warm);
    validateTrace(parseTrace(warm), context);
  }
  for (const mb of megabytes) {
    const { row, text } = measure(mb);
    console.log(
      `${row.size.padEnd(9)} ${row.jsonParseMs.toFixed(1).padStart(7)} ms ${row.diagnosticsMs.toFixed(1).padStart(9)} ms` +
      ` ${row.ratio.toFixed(2).padStart(8)}x ${row.heapRatio.toFixed(2).padStart(12)}x ${String(row.problems).padStart(9)}` +
      ` ${row.wallRatio.toFixed(2).padStart(10)}x`,
    );
    largest = text;
  }
  const { definition, hover, hits, slowest } = latency(largest);
  console.log(`\nlatency on the largest trace (${(largest.length / 1024 / 1024).toFixed(1)} MB), 2000 random tool_call_id offsets:`);
  console.log(`definition  p50 ${percentile(definition, 50).toFixed(3)} ms  p99 ${percentile(definition, 99).toFixed(3)} ms (≤2)  found ${hits}/2000`);
  console.log(`hover       p50 ${percentile(hover, 50).toFixed(3)} ms  p99 ${percentile(hover, 99).toFixed(3)} ms (≤2)  slowest ${slowest}`);
}

main();
