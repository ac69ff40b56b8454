// Guardrail rule service benchmark: parse + diagnostics time of a realistic 10,000-line rule file, as a ratio to
// JSON.parse of a JSON text of the same size and to a plain tokenization pass over the rule text.
// Both wall-clock and CPU time of this process are shown, as the median of many runs and as the best run: on a
// shared, loaded machine the median drifts with other processes, the best run much less. The runs follow each other
// without forced collections (global.gc()) in between: after one, V8 deoptimizes much of the parser's code
// ("weak objects"), so the next runs would measure unoptimized code rather than the parser.
// Run: node esbuild.mjs && node --expose-gc out/bench/guardrail.bench.js [lines]
import { performance } from 'node:perf_hooks';
import { defaultSettings, type ServiceContext } from '../server/src/common/languageService';
import { guardrailService } from '../server/src/guardrail';
import { generateRules } from './generateRules';
import { median } from './measure';

const context: ServiceContext = { settings: defaultSettings };

interface Timing {
  /** Median wall-clock milliseconds. */
  wall: number;
  /** Median CPU milliseconds of this process (less sensitive to other processes competing for the cores). */
  cpu: number;
  /** Fastest run, wall-clock and CPU milliseconds. */
  bestWall: number;
  bestCpu: number;
}

function time(runs: number, fn: () => void): Timing {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const startCpu = process.cpuUsage();
    const start = performance.now();
    fn();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(startCpu);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu), bestWall: Math.min(...wall), bestCpu: Math.min(...cpu) };
}

/** JSON of about the same size as `text`: an array of rule-like records. */
function sameSizeJson(text: string): string {
  const records: unknown[] = [];
  let size = 2;
  let i = 0;
  while (size < text.length) {
    const record = { id: i++, rule: 'raise "x" if:', conditions: ['(call: ToolCall)', 'call is tool:send_email', 'len(x) > 2'], weight: 0.5 };
    size += JSON.stringify(record).length + 1;
    records.push(record);
  }
  return JSON.stringify(records);
}

/** A plain tokenization pass: one regular expression over the text, counting tokens. */
function plainTokenize(text: string): number {
  const re = /[A-Za-z_]\w*|\d+(?:\.\d+)?|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|#[^\n]*|:=|->|~>|==|!=|<=|>=|\*\*|\S/g;
  let count = 0;
  while (re.exec(text)) count++;
  return count;
}

const lineCount = Number(process.argv[2] ?? 10_000);
const text = generateRules(lineCount);
const json = sameSizeJson(text);
const runs = 41;

// Warm up the JIT on every path before measuring.
for (let i = 0; i < 5; i++) {
  guardrailService.validate(guardrailService.parse({ uri: 'bench.gr', version: i, text }), context);
  JSON.parse(json);
  plainTokenize(text);
}

const warnings = guardrailService.validate(guardrailService.parse({ uri: 'bench.gr', version: 0, text }), context);
const errors = warnings.filter((p) => p.severity === 'error');
const parseMs = time(runs, () => guardrailService.parse({ uri: 'bench.gr', version: 1, text }));
const model = guardrailService.parse({ uri: 'bench.gr', version: 1, text });
const validateMs = time(runs, () => guardrailService.validate(model, context));
const totalMs = time(runs, () => guardrailService.validate(guardrailService.parse({ uri: 'bench.gr', version: 1, text }), context));
// The occurrence index for hover, definition and rename is built on the first feature request, then kept.
const indexMs = time(runs, () => guardrailService.hover(guardrailService.parse({ uri: 'bench.gr', version: 1, text }), text.length >> 1, context));
const jsonMs = time(runs, () => JSON.parse(json));
const tokenizeMs = time(runs, () => plainTokenize(text));

const show = (t: Timing) =>
  `${t.wall.toFixed(2)} ms wall, ${t.cpu.toFixed(2)} ms cpu (best ${t.bestWall.toFixed(2)} wall, ${t.bestCpu.toFixed(2)} cpu)`;
console.log(`rule file: ${lineCount} lines, ${(text.length / 1024).toFixed(0)} KiB, ${model.program.statements.length} statements, ${errors.length} errors, ${warnings.length - errors.length} other problems`);
console.log(`parse (lex + parse + resolve):   ${show(parseMs)}  (median of ${runs})`);
console.log(`diagnostics on a parsed model:   ${show(validateMs)}`);
console.log(`parse + diagnostics:             ${show(totalMs)}  (target <= 50 ms)`);
console.log(`parse + first hover (builds the feature index): ${show(indexMs)}`);
console.log(`baseline JSON.parse (same size): ${show(jsonMs)}  -> ratio ${(totalMs.wall / jsonMs.wall).toFixed(1)}x wall, ${(totalMs.cpu / Math.max(jsonMs.cpu, 0.001)).toFixed(1)}x cpu`);
console.log(`baseline plain tokenization:     ${show(tokenizeMs)}  -> ratio ${(totalMs.wall / tokenizeMs.wall).toFixed(1)}x wall, ${(totalMs.cpu / Math.max(tokenizeMs.cpu, 0.001)).toFixed(1)}x cpu`);
if (errors.length > 0) {
  console.error('the generated file should be valid; first errors:', errors.slice(0, 3));
  process.exitCode = 1;
}
