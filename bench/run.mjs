// `npm run bench`: runs every benchmark bundled from bench/*.bench.ts, one process each (so heap figures do not
// mix), with the garbage collector exposed for heap measurements.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const only = process.argv.slice(2);
const benches = readdirSync('out/bench')
  .filter((name) => name.endsWith('.bench.js'))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort();
let failed = 0;
for (const name of benches) {
  console.log(`\n=== ${name.replace(/\.js$/, '')}`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', `out/bench/${name}`], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
