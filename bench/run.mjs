// `npm run bench`: runs every benchmark (bench/*.bench.ts bundled, bench/*.bench.mjs as they are), one process each
// (so heap figures do not mix), with the garbage collector exposed for heap measurements.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

// Bundled from bench/*.bench.ts into out/bench/, and scripts that drive a browser (bench/*.bench.mjs) as they are.
const all = [
  ...readdirSync('out/bench').filter((name) => name.endsWith('.bench.js')).map((name) => `out/bench/${name}`),
  ...readdirSync('bench').filter((name) => name.endsWith('.bench.mjs')).map((name) => `bench/${name}`),
];
const fileName = (path) => path.split('/').pop();
// Words that are part of a benchmark's name choose the benchmarks; the others are passed to them
// (`npm run bench -- e2e 50 edits`: the end-to-end benchmark's edits on the 50 MB trace).
const words = process.argv.slice(2);
const only = words.filter((word) => all.some((path) => fileName(path).includes(word)));
const passed = words.filter((word) => !only.includes(word));
const benches = all
  .filter((path) => only.length === 0 || only.some((word) => fileName(path).includes(word)))
  .sort((a, b) => fileName(a).localeCompare(fileName(b)));
let failed = 0;
for (const path of benches) {
  console.log(`\n=== ${fileName(path).replace(/\.m?js$/, '')}`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', path, ...passed], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
