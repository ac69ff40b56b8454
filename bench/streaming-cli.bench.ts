// The streaming command line on big datasets: `eval` of a flow rule and `check` over generated JSON Lines datasets of
// 8-10 KB traces (250 MB and 1 GB, written to a temporary folder and deleted after), each beside a plain
// single-threaded readline + JSON.parse pass over the same file in the same run. Every command runs in a fresh
// process; wall time and peak RSS (of the whole process, worker threads included) come from /usr/bin/time -v.
// Run: node esbuild.mjs && node out/bench/streaming-cli.bench.js [megabytes...] (default: 250 1024)
// STREAMING_BENCH_JOBS=1,2 also runs eval and check with those --jobs counts. CPU time (user + system, all threads) is printed
// beside the wall time, and the load average before each dataset: on a shared machine the wall-time ratios of a
// command with several threads against the single-threaded reference move with the load.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { random } from './measure';
import { traceLine } from './generateDataset';

const dist = resolve(__dirname, '..', '..', 'dist', 'cli.js');
const baseline = resolve(__dirname, 'readlineBaseline.js');
const timeTool = '/usr/bin/time';

/** Every 50th trace has a tool output that says `rm -rf`: the rule's violations are rare, as in a real corpus. */
function writeDataset(path: string, megabytes: number): { traces: number; bytes: number } {
  const next = random(42);
  const fd = openSync(path, 'w');
  let bytes = 0;
  let traces = 0;
  const first = '{"metadata": {"name": "streaming benchmark"}}\n';
  writeSync(fd, first);
  bytes += first.length;
  const batch: string[] = [];
  while (bytes < megabytes * 2 ** 20) {
    let line = traceLine(next, traces, 7_000);
    if (traces % 50 === 0) line = line.replace('quoted', 'rm -rf /');
    line += '\n';
    batch.push(line);
    bytes += Buffer.byteLength(line);
    traces++;
    if (batch.length === 500) writeSync(fd, batch.splice(0).join(''));
  }
  writeSync(fd, batch.join(''));
  closeSync(fd);
  return { traces, bytes };
}

const rules = `raise "a tool output that deletes files flows into a later call" if:
    (out: ToolOutput) -> (call: ToolCall)
    "rm -rf" in out.content
    call.function.name == "read_file"
`;

interface Run {
  seconds: number;
  cpuSeconds: number;
  peakMB: number;
  code: number | null;
  stdoutBytes: number;
}

function measure(args: string[]): Run {
  const ran = spawnSync(timeTool, ['-v', process.execPath, ...args], { encoding: 'utf8', maxBuffer: 1024 * 2 ** 20 });
  const field = (name: string) => new RegExp(`${name}: (.+)`).exec(ran.stderr)?.[1] ?? '';
  const [h, m, s] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number).reverse().concat([0, 0]).slice(0, 3).reverse();
  const seconds = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').length === 3 ? h * 3600 + m * 60 + s : m * 60 + s;
  const cpuSeconds = Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)'));
  return { seconds, cpuSeconds, peakMB: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024, code: ran.status, stdoutBytes: ran.stdout.length };
}

const row = (name: string, run: Run, reference: Run) =>
  `  ${name.padEnd(34)} ${run.seconds.toFixed(2).padStart(7)} s ${(run.seconds / reference.seconds).toFixed(2).padStart(5)}x  CPU ${run.cpuSeconds.toFixed(2).padStart(6)} s ${(run.cpuSeconds / reference.cpuSeconds).toFixed(2).padStart(5)}x  peak RSS ${run.peakMB.toFixed(0).padStart(4)} MB  (exit ${run.code})`;

if (!existsSync(timeTool)) {
  console.log(`streaming CLI: skipped, ${timeTool} (GNU time) is not installed`);
} else {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const jobCounts = (process.env.STREAMING_BENCH_JOBS ?? '').split(',').map(Number).filter((n) => n > 0);
  const folder = mkdtempSync(join(tmpdir(), 'agent-traces-streaming-'));
  try {
    const rulesPath = join(folder, 'flow.gr');
    writeFileSync(rulesPath, rules);
    const peaks: Record<string, number[]> = {};
    for (const megabytes of sizes.length > 0 ? sizes : [250, 1024]) {
      const dataset = join(folder, `dataset-${megabytes}.jsonl`);
      const { traces } = writeDataset(dataset, megabytes);
      const size = statSync(dataset).size;
      console.log(`dataset of ${(size / 2 ** 20).toFixed(0)} MB, ${traces} traces of ~${(size / traces / 1024).toFixed(1)} KB (${Math.ceil(traces / 50)} with a violation); load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
      const reference = measure([baseline, dataset]);
      console.log(row('readline + JSON.parse (reference)', reference, reference));
      const runs: [string, string[]][] = [
        ['eval (flow rule, --jobs default)', [dist, 'eval', rulesPath, dataset]],
        ...jobCounts.map((jobs): [string, string[]] => [`eval --jobs ${jobs}`, [dist, 'eval', rulesPath, dataset, '--jobs', String(jobs)]]),
        ['check (--jobs default)', [dist, 'check', dataset]],
        ...jobCounts.map((jobs): [string, string[]] => [`check --jobs ${jobs}`, [dist, 'check', dataset, '--jobs', String(jobs)]]),
      ];
      for (const [name, args] of runs) {
        const run = measure(args);
        (peaks[name] ??= []).push(run.peakMB);
        console.log(row(name, run, reference));
      }
      rmSync(dataset);
    }
    for (const [name, values] of Object.entries(peaks)) {
      if (values.length > 1) console.log(`  ${name}: peak RSS ${values.map((v) => v.toFixed(0)).join(' MB → ')} MB over the sizes (${((Math.max(...values) / Math.min(...values) - 1) * 100).toFixed(0)}% apart; target: same ±20%, <= 300 MB)`);
    }
    console.log(`  targets: eval <= 1.2x the reference, check <= 2.0x (load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
