// Runs a language server script in this process with V8's GC profiler on, and on exit writes the largest heap in use
// it saw (just before any collection, so garbage not yet collected counts too), and the most that a full collection
// left alive, to the file named by HEAP_PROBE_OUT.
// The end-to-end benchmark starts servers through it to report their peak heap beside their resident size.
// Usage: node out/bench/heapProbe.js <server script> --stdio
import { writeFileSync } from 'node:fs';
import { GCProfiler } from 'node:v8';

const profiler = new GCProfiler();
profiler.start();
process.on('exit', () => {
  let peak = 0;
  // What a full (mark-sweep) collection leaves is what was alive then: the largest such is the peak of live data
  // that the collections saw.
  let live = 0;
  for (const collection of profiler.stop()?.statistics ?? []) {
    peak = Math.max(peak, collection.beforeGC.heapStatistics.usedHeapSize);
    if (/MarkSweep/.test(collection.gcType)) live = Math.max(live, collection.afterGC.heapStatistics.usedHeapSize);
  }
  if (process.env.HEAP_PROBE_OUT) writeFileSync(process.env.HEAP_PROBE_OUT, `${peak} ${live}`);
});
const script = process.argv[2];
process.argv.splice(1, 1); // the server sees its own script as argv[1], as when started directly
require(script);
