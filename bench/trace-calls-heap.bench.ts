/**
 * Heap kept by the model of a call-dense trace (500,000 short tool-call events, 64 MB): bytes per event and the
 * ratio to the file size, for the JSON tree alone and for the whole trace model. Short events are the worst case:
 * the model's fixed cost per value is large against a few dozen bytes of text.
 * Run: node esbuild.mjs && node --expose-gc out/bench/trace-calls-heap.bench.js
 */
import { parseTrace } from '../server/src/trace/model';
import { parseJson } from '../server/src/trace/parser';
import { collectsGarbage, retainedBy } from './measure';

const EVENTS = 500_000;
function main(): void {
  if (!collectsGarbage) {
    console.log('run with node --expose-gc for heap figures');
    return;
  }
  const events: string[] = [];
  for (let i = 0; i < EVENTS; i++) {
    events.push(`{"role":"assistant","content":null,"tool_calls":[{"id":"c${i}","type":"function","function":{"name":"t","arguments":"{}"}}]}`);
  }
  const text = `[${events.join(',\n')}]`;
  events.length = 0;
  const rows: Record<string, string>[] = [];
  for (const [what, parse] of [['trace model', () => parseTrace(text)], ['JSON tree alone', () => parseJson(text)]] as const) {
    const bytes = retainedBy(parse);
    rows.push({ what, 'file MB': (text.length / 2 ** 20).toFixed(1), 'bytes/event': String(Math.round(bytes / EVENTS)), 'heap/file': `${(bytes / text.length).toFixed(1)}×` });
  }
  console.table(rows);
}

main();
