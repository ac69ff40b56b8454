// Generated traces the benchmarks share: pretty-printed, tool outputs of about 1.6 KB, deterministic per seed.
import { random } from './measure';

const words = ('the inbox meeting report deploy server error warning file line function value result user ' +
  'request response token cache build test passed failed retry timeout network database query index').split(' ');

function sentence(next: () => number, wordCount: number): string {
  const out: string[] = [];
  for (let i = 0; i < wordCount; i++) out.push(words[Math.floor(next() * words.length)]);
  return out.join(' ');
}

/** A tool output of a few KB: numbered lines with quotes, tabs and unicode, as real command outputs have. */
function toolOutput(next: () => number, [fewest, most]: [number, number]): string {
  const lines: string[] = [];
  const count = fewest + Math.floor(next() * (most - fewest));
  for (let i = 1; i <= count; i++) {
    lines.push(`${i}:\t${sentence(next, 6 + Math.floor(next() * 6))} "quoted" — ok`);
  }
  return lines.join('\n');
}

const files = ['src/app.py', 'src/db/models.py', 'tests/test_api.py', 'README.md', 'package.json', 'src/utils/retry.ts'];

/**
 * A tool output as a shell command prints it: `lineCount` short lines (a listing, test results, a traceback), so
 * that the JSON string is dense with `\n`, `\t` and `\"` escapes, as real tool outputs are.
 */
function commandOutput(next: () => number, lineCount: number): string {
  const lines: string[] = [];
  for (let i = 0; i < lineCount; i++) {
    const file = files[Math.floor(next() * files.length)];
    switch (Math.floor(next() * 4)) {
      case 0: lines.push(`-rw-r--r--  1 dev  staff  ${Math.floor(next() * 90_000)} Nov 27 02:${10 + (i % 50)} ${file}`); break;
      case 1: lines.push(`${file}::test_${words[i % words.length]} ${next() < 0.9 ? 'PASSED' : 'FAILED'}\t[${Math.floor((i / lineCount) * 100)}%]`); break;
      case 2: lines.push(`  File "/app/${file}", line ${1 + Math.floor(next() * 400)}, in ${words[i % words.length]}`); break;
      default: lines.push(`${file}:${1 + Math.floor(next() * 400)}: ${sentence(next, 4)}`);
    }
  }
  return lines.join('\n');
}

/** Characters an event takes as an element of the pretty-printed array (one more level of indentation). */
function printedSize(event: unknown): number {
  const printed = JSON.stringify(event, null, 2);
  let lines = 1;
  for (let i = printed.indexOf('\n'); i !== -1; i = printed.indexOf('\n', i + 1)) lines++;
  return printed.length + 2 * lines + 2;
}

export interface TraceShape {
  /** Lines of each tool output, fewest and most (numbered lines of prose by default). */
  outputLines?: [number, number];
  /** Tool outputs as command outputs of this many short lines instead (escape-heavy). */
  commandOutputLines?: number;
}

/** A pretty-printed trace of about `targetBytes` characters, with its tool_call_id value offsets. */
export function generateTrace(targetBytes: number, seed = 1, options: TraceShape = {}): string {
  const outputLines = options.outputLines ?? [20, 80];
  const next = random(seed);
  const events: unknown[] = [];
  let size = 0;
  let callNumber = 0;
  const tools = ['get_inbox', 'send_email', 'read_file', 'run_python', 'search_web'];
  events.push({ role: 'system', content: 'You are a helpful assistant with tools.' });
  events.push({ role: 'user', content: sentence(next, 20) });
  while (size < targetBytes) {
    const callCount = 1 + Math.floor(next() * 2);
    const calls = [];
    for (let c = 0; c < callCount; c++) {
      const id = `call_${(callNumber++).toString(36)}_${Math.floor(next() * 1e9).toString(36)}`;
      const name = tools[Math.floor(next() * tools.length)];
      const argumentsObject = { path: `/src/${words[c % words.length]}.py`, n: Math.floor(next() * 100), query: sentence(next, 5) };
      calls.push({
        id,
        type: 'function',
        function: { name, arguments: next() < 0.5 ? argumentsObject : JSON.stringify(argumentsObject) },
      });
    }
    const assistant = { role: 'assistant', content: sentence(next, 15), tool_calls: calls };
    events.push(assistant);
    size += printedSize(assistant);
    for (const call of calls) {
      const content = options.commandOutputLines ? commandOutput(next, options.commandOutputLines) : toolOutput(next, outputLines);
      const output = { role: 'tool', tool_call_id: call.id, content };
      events.push(output);
      size += printedSize(output);
    }
    if (next() < 0.2) events.push({ role: 'user', content: sentence(next, 12) });
  }
  events.push({ role: 'assistant', content: 'Done.' });
  return JSON.stringify(events, null, 2);
}
