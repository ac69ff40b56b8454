// Runs a language server script in this process with V8's GC profiler on, and on exit writes the largest heap in use
// it saw (just before any collection, so garbage not yet collected counts too), the heap a full collection leaves at
// exit while the document is still open (what the server keeps), and the most memory outside the heap that V8
// accounted for before a collection (buffers, and a big string Node made from a buffer: an external string), to the
// file named by HEAP_PROBE_OUT.
// The end-to-end benchmark starts servers through it to report their peak heap beside their resident size.
// Usage: node out/bench/heapProbe.js <server script> --stdio
import { writeFileSync } from 'node:fs';
import { getHeapStatistics, GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const profiler = new GCProfiler();
profiler.start();
process.on('exit', () => {
  let peak = 0;
  let peakExternal = 0;
  for (const collection of profiler.stop()?.statistics ?? []) {
    peak = Math.max(peak, collection.beforeGC.heapStatistics.usedHeapSize);
    peakExternal = Math.max(peakExternal, collection.beforeGC.heapStatistics.externalMemory);
  }
  collectGarbage();
  const kept = getHeapStatistics().used_heap_size;
  if (process.env.HEAP_PROBE_OUT) writeFileSync(process.env.HEAP_PROBE_OUT, `${peak} ${kept} ${peakExternal}`);
});
const script = process.argv[2];
process.argv.splice(1, 1); // the server sees its own script as argv[1], as when started directly
require(script);
