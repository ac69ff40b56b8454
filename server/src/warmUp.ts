import { defaultSettings } from './common/service';
import { traceService } from './trace';

/**
 * Reads and checks a small made-up trace a few times, a turn of the event loop each, right after the server starts:
 * V8 optimizes the scanner, the tree builder and the checks while the client is still busy starting, so the first
 * big trace a user opens is read by optimized code (read by unoptimized code, a 10 MB trace took up to twice as
 * long). About 170 KB per round, a few milliseconds each once optimized.
 */
export function warmUpTraceReading(rounds = 3): void {
  const text = sampleTrace(250);
  let left = rounds;
  const round = () => {
    try {
      const model = traceService.parse({ uri: 'warm-up:trace', version: 0, text, maxLines: 0 });
      traceService.validate(model, { settings: defaultSettings });
    } catch {
      return; // a warm-up that fails costs nothing more: the real reading reports its own failures
    }
    if (--left > 0) setImmediate(round);
  };
  setImmediate(round);
}

/** A trace of `turns` user turns, each with a tool call and its output, in the shapes and escapes real traces have. */
export function sampleTrace(turns: number): string {
  const events: unknown[] = [{ role: 'system', content: 'You are a helpful assistant with tools.' }];
  for (let i = 0; i < turns; i++) {
    const id = `call_${i.toString(36)}`;
    events.push({ role: 'user', content: `Request ${i}: read "notes.txt"\tand summarise — ok` });
    events.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: i % 2 ? 'read_file' : 'send_email', arguments: JSON.stringify({ path: `notes-${i}.txt`, limit: i }) } }],
    });
    events.push({ role: 'tool', tool_call_id: id, content: `1:\tline "quoted" ${i}\n2:\tünïcödé 🙂 ${i * 1.5}\n3:\ttrue false null` });
    events.push({ role: 'assistant', content: `Done with ${i}.`, metadata: { n: i, ok: i % 3 === 0, tags: ['a', 'b'] } });
  }
  return JSON.stringify(events, null, 2);
}
