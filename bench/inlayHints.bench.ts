// Inlay hints on a 100,000-event trace: a viewport-sized range (about 60 lines, in the middle of the file) against a
// hover at a tool_call_id in the same process (the baseline: one indexed lookup), and the whole file for contrast.
// CPU time of this process (the machine is shared).
// Run: node esbuild.mjs && node out/bench/inlayHints.bench.js
import { parseTrace } from '../server/src/trace/model';
import { hover } from '../server/src/trace/hover';
import { defaultSettings, type ServiceContext } from '../server/src/common/languageService';
import { cpuTime, median } from './measure';
import { traceService } from '../server/src/trace';

const { inlayHints } = traceService;

const context: ServiceContext = { settings: defaultSettings };
const eventCount = 100_000;

const events: string[] = [];
for (let i = 0; events.length < eventCount; i++) {
  events.push(`  {"role": "user", "content": "Question ${i}"}`);
  events.push(`  {"role": "assistant", "content": null, "tool_calls": [\n    {"id": "call_${i}", "type": "function", "function": {"name": "get_inbox", "arguments": {"n": ${i}}}}\n  ]}`);
  events.push(`  {"role": "tool", "tool_call_id": "call_${i}", "content": "inbox item ${i}"}`);
}
const text = `[\n${events.slice(0, eventCount).join(',\n')}\n]\n`;
const model = parseTrace(text);
if (model.events.length !== eventCount) throw new Error(`expected ${eventCount} events, got ${model.events.length}`);

// A viewport: 60 lines from the middle.
const start = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
let end = start;
for (let line = 0; line < 60; line++) end = text.indexOf('\n', end) + 1;
const viewport = { start, end };
const hoverAt = text.indexOf('"tool_call_id": "', start) + 18;

const repeat = (run: () => unknown, times: number) => () => { for (let i = 0; i < times; i++) run(); };
const per = (ms: number, times: number) => ms / times;
const rounds = 9;
const times = 1000;
const viewportMs = median(Array.from({ length: rounds }, () => cpuTime(repeat(() => inlayHints(model, viewport, context), times))));
const hoverMs = median(Array.from({ length: rounds }, () => cpuTime(repeat(() => hover(model, hoverAt, context), times))));
const wholeMs = median(Array.from({ length: 3 }, () => cpuTime(() => inlayHints(model, { start: 0, end: text.length }, context))));
const labels = inlayHints(model, viewport, context).length;

console.log(`inlay hints, ${eventCount.toLocaleString('en')} events (${(text.length / 1e6).toFixed(1)} MB):`);
console.log(`  viewport (60 lines, ${labels} labels): ${(per(viewportMs, times) * 1000).toFixed(1)} µs cpu per request`);
console.log(`  baseline hover at a tool_call_id:    ${(per(hoverMs, times) * 1000).toFixed(1)} µs cpu per request`);
console.log(`  ratio viewport/hover: ${(viewportMs / hoverMs).toFixed(1)}x   (whole file, for contrast: ${wholeMs.toFixed(1)} ms)`);
