// A generated Invariant Explorer dataset (annotated traces with tool calls and outputs), the same text every run.
import { random } from './measure';

const words = ('the inbox meeting report deploy server error warning file line function value result user request '
  + 'response token cache build test passed failed retry timeout network database query index café naïve').split(' ');

function sentence(next: () => number, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(words[Math.floor(next() * words.length)]);
  return out.join(' ');
}

/** One annotated trace line of about targetBytes characters: messages, tool calls, outputs, annotations. */
export function traceLine(next: () => number, index: number, targetBytes: number): string {
  const messages: unknown[] = [
    { role: 'system', content: 'You are a helpful assistant with tools.' },
    { role: 'user', content: `${sentence(next, 25)}\n"please" — ${sentence(next, 10)}` },
  ];
  let size = 200;
  let call = 0;
  while (size < targetBytes) {
    const id = `call_${index}_${call++}`;
    const args = { path: `/src/${words[call % words.length]}.py`, n: Math.floor(next() * 100), query: sentence(next, 5) };
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify(args) } }] });
    const lines: string[] = [];
    for (let i = 1; i <= 12; i++) lines.push(`${i}:\t${sentence(next, 8)} "quoted"`);
    const output = lines.join('\n');
    messages.push({ role: 'tool', tool_call_id: id, content: output });
    messages.push({ role: 'assistant', content: sentence(next, 30) });
    size += output.length + 420;
  }
  const annotations = [
    { content: 'user intent', address: 'messages.1.content:0-12' },
    { content: 'first call', address: 'messages.2.tool_calls.0.function.arguments' },
    { content: 'output line', address: 'messages.3.content:L2', extra_metadata: { source: 'guardrails-error' } },
  ];
  return JSON.stringify({ index, messages, annotations, metadata: { run: index, big: '9007199254740993' } });
}

/** An Invariant dataset of about `megabytes`: a metadata line, then `traces` annotated traces of equal size. */
export function generateDataset(megabytes: number, traces: number): string {
  const next = random(42);
  // traceLine overshoots its target by about a fifth; scale so the file comes out near the asked size.
  const perTrace = Math.floor((megabytes * 1024 * 1024 * 0.77) / traces);
  const lines = ['{"metadata": {"name": "benchmark dataset"}}'];
  for (let i = 0; i < traces; i++) lines.push(traceLine(next, i, perTrace));
  return lines.join('\n');
}
