// `agent-traces convert` of a big Inspect log: a generated log of about 100 MB (a screenshot inline in every
// sample's prompt and tool outputs, test/unit/inspect/logs.ts's browserAgentLog, in the shape of the corpus's
// inspect/log_read_sample.json) converted to JSON Lines, one trace per sample, in a fresh process, beside a Node
// process that reads the same file and parses it with JSON.parse, in the same run. Wall time and peak RSS come from
// /usr/bin/time -v. The log is written to a temporary folder and deleted after.
// Run: node esbuild.mjs && node out/bench/convert-inspect.bench.js [megabytes] [cli.js]
// (a second argument measures another build of the command line: an earlier one, for a before/after figure)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { browserAgentLog } from '../test/unit/inspect/logs';

const megabytes = Number(process.argv[2] ?? 100);
const cli = resolve(process.argv[3] ?? resolve(__dirname, '..', '..', 'dist', 'cli.js'));
const timeTool = '/usr/bin/time';

interface Run {
  seconds: number;
  peakMB: number;
  code: number | null;
}

function measure(args: string[], cwd: string): Run {
  const ran = spawnSync(timeTool, ['-v', process.execPath, ...args], { cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  if (ran.error) throw ran.error;
  const field = (name: string) => new RegExp(`${name}: (.+)`).exec(ran.stderr)?.[1] ?? '';
  const clock = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
  const seconds = clock.reduce((sum, part) => sum * 60 + part, 0);
  return { seconds, peakMB: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024, code: ran.status };
}

function main(): void {
  const folder = mkdtempSync(join(tmpdir(), 'convert-inspect-'));
  try {
    const { text, samples } = browserAgentLog(megabytes * 2 ** 20);
    writeFileSync(join(folder, 'log.json'), text);
    const size = statSync(join(folder, 'log.json')).size / 2 ** 20;
    console.log(`log: ${size.toFixed(1)} MB, ${samples} samples; command line: ${cli}`);
    const reference = measure(['-e', 'JSON.parse(require("node:fs").readFileSync("log.json", "utf8"))'], folder);
    const converted = measure([cli, 'convert', 'log.json', '--out', 'log.trace.jsonl', '--max-file-size', String(Math.ceil(size) + 1)], folder);
    if (converted.code !== 0) throw new Error(`convert exited ${converted.code}`);
    const out = statSync(join(folder, 'log.trace.jsonl')).size / 2 ** 20;
    console.log(`| | wall | peak RSS |\n|---|---|---|`);
    console.log(`| read + JSON.parse (reference) | ${reference.seconds.toFixed(2)} s | ${Math.round(reference.peakMB)} MB |`);
    console.log(`| convert → ${out.toFixed(1)} MB of JSON Lines | ${converted.seconds.toFixed(2)} s | ${Math.round(converted.peakMB)} MB |`);
    console.log(`convert / reference: ${(converted.seconds / reference.seconds).toFixed(2)}× the time, ${(converted.peakMB / reference.peakMB).toFixed(2)}× the peak; peak ${(converted.peakMB / size).toFixed(2)}× the log's size`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main();
