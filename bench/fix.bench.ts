// `check --fix` on many fixes: the fixing (every pass: parse, check, combine the safe fixes, apply them, splice them
// into the bytes) as a ratio to checking the same text once, at 4,000 and 40,000 fixes (linear fixing keeps the
// ratio flat and the 40,000 run 10× the 4,000 one); then the CLI end to end, `check --fix` beside `check` of the same
// file, fresh processes; and the check the editor makes before it offers fix-all or marks a fix preferred (does
// the text still read?) on big traces, beside JSON.parse of the same text. CPU ms of this process in process (median
// of runs), wall ms for the CLI (median).
// Run: node esbuild.mjs && node --expose-gc out/bench/fix.bench.js
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { spliceBytes } from '../server/src/cli/byteEdits';
import { fixFile } from '../server/src/cli/fix';
import { defaultSettings, type LanguageService } from '../server/src/common/languageService';
import { traceService } from '../server/src/trace';
import { parsesWithEdits } from '../server/src/trace/codeActions';
import { parseTrace } from '../server/src/trace/model';
import { generateTrace } from './generateTrace';
import { cpuTime, median } from './measure';

const context = { settings: { ...defaultSettings, maxProblems: Number.MAX_SAFE_INTEGER } };
const service = traceService as LanguageService<unknown>;

/** A trace of `count` events, each with one fault a safe fix repairs (a trailing comma), about 57 bytes an event. */
function traceWithFixes(count: number): string {
  const events = Array.from({ length: count }, (_, i) => `  {"role": "user", "content": "message number ${String(i).padStart(6, '0')}",}`);
  return `[\n${events.join(',\n')}\n]\n`;
}

function check(text: string): void {
  service.validate(service.parse({ uri: 'file:///bench.trace.json', version: 0, text }), context);
}

function fix(text: string, bytes: Buffer): void {
  const result = fixFile(service, 'file:///bench.trace.json', text, context);
  let spliced = bytes;
  for (const edits of result.passes) spliced = spliceBytes(spliced, edits);
  if (spliced.length !== Buffer.byteLength(result.text)) throw new Error('the spliced bytes are not the fixed text');
}

const runs = 5;
console.log('in process, CPU ms (median of 5)          check   --fix   ratio');
const perFix: number[] = [];
for (const count of [4_000, 40_000]) {
  const text = traceWithFixes(count);
  const bytes = Buffer.from(text);
  check(text);
  fix(text, bytes);
  const checked = median(Array.from({ length: runs }, () => cpuTime(() => check(text))));
  const fixed = median(Array.from({ length: runs }, () => cpuTime(() => fix(text, bytes))));
  perFix.push(fixed / count);
  console.log(`${count.toLocaleString('en').padStart(6)} fixes, ${(text.length / 1e6).toFixed(1)} MB`.padEnd(40)
    + `${checked.toFixed(0).padStart(7)} ${fixed.toFixed(0).padStart(7)} ${(fixed / checked).toFixed(1).padStart(6)}×`);
}
console.log(`cost per fix, 40,000 against 4,000: ${(perFix[1] / perFix[0]).toFixed(2)}× (1.00: linear)`);

const cli = resolve(__dirname, '..', '..', 'dist', 'cli.js');
const folder = mkdtempSync(join(tmpdir(), 'agent-traces-fix-bench-'));
try {
  const text = traceWithFixes(40_000);
  const path = join(folder, 'many.trace.json');
  const wall = (args: string[]) => {
    writeFileSync(path, text);
    const start = performance.now();
    const result = spawnSync(process.execPath, [cli, 'check', '--quiet', ...args, path], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0 && result.status !== 1) throw new Error(result.stderr);
    return performance.now() - start;
  };
  const plain = median(Array.from({ length: 3 }, () => wall([])));
  const withFix = median(Array.from({ length: 3 }, () => wall(['--fix'])));
  console.log(`\nCLI end to end, 40,000 fixes in a ${(text.length / 1e6).toFixed(1)} MB trace (wall ms, median of 3 fresh processes):`);
  console.log(`  check ${plain.toFixed(0)}, check --fix ${withFix.toFixed(0)} (${(withFix / plain).toFixed(1)}×)`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}

console.log('\nthe editor\'s check that a fix leaves a readable trace (CPU ms, median of 5)   JSON.parse   check   ratio');
for (const mb of [10, 50]) {
  const text = generateTrace(mb * 1024 * 1024);
  const model = parseTrace(text);
  const comma = text.indexOf(',');
  const edits = [{ span: { start: comma, end: comma + 1 }, newText: ',' }];
  if (!parsesWithEdits(model, edits)) throw new Error('the generated trace does not read');
  const parsed = median(Array.from({ length: runs }, () => cpuTime(() => JSON.parse(text))));
  const checked = median(Array.from({ length: runs }, () => cpuTime(() => parsesWithEdits(model, edits))));
  console.log(`${mb} MB trace`.padEnd(78) + `${parsed.toFixed(0).padStart(10)} ${checked.toFixed(0).padStart(7)} ${(checked / parsed).toFixed(2).padStart(6)}×`);
}
