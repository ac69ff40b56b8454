// The reference for the streaming CLI benchmark: a plain single-threaded readline + JSON.parse pass over a JSON Lines
// file, the least any tool that reads every trace must do. Run: node out/bench/readlineBaseline.js <file.jsonl>
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

async function pass(path: string): Promise<void> {
  let traces = 0;
  let messages = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    const value = JSON.parse(line) as { messages?: unknown[] };
    traces++;
    messages += Array.isArray(value.messages) ? value.messages.length : 0;
  }
  console.log(`${traces} lines, ${messages} messages`);
}

void pass(process.argv[2]);
