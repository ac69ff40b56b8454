// `npm run bench`: runs every benchmark (bench/*.bench.ts bundled, bench/*.bench.mjs as they are), one process each
// (so heap figures do not mix), with the garbage collector exposed for heap measurements.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
// Bundled from bench/*.bench.ts into out/bench/, and scripts that drive a browser (bench/*.bench.mjs) as they are.
const benches = [
  ...readdirSync('out/bench').filter((name) => name.endsWith('.bench.js')).map((name) => `out/bench/${name}`),
  ...readdirSync('bench').filter((name) => name.endsWith('.bench.mjs')).map((name) => `bench/${name}`),
]
  .filter((path) => only.length === 0 || only.some((word) => path.split('/').pop().includes(word)))
  .sort((a, b) => a.split('/').pop().localeCompare(b.split('/').pop()));
let failed = 0;
for (const path of benches) {
  console.log(`\n=== ${path.split('/').pop().replace(/\.m?js$/, '')}`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', path], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
