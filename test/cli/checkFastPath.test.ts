import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { corpusOrSkip, runCli } from './cliRun';
import { checkFile, type CheckOptions } from '../../server/src/cli/check';
import { readCleanDatasetLine } from '../../server/src/jsonl/dataset/cleanLine';
import { parseDatasetLine } from '../../server/src/jsonl/dataset/parseLine';
import { parseLine } from '../../server/src/jsonl/model';
import { ChunkReaders } from '../../server/src/cli/chunkReaders';
import { lineChunks } from '../../server/src/cli/streamedInputs';

const corpus = resolve(__dirname, '../../..', '../shared/corpus');

/** The traces of the corpus (its trace files, and the trace of each evaluation case), each on one line as written. */
function corpusLines(): string[] {
  const lines: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) {
        const text = readFileSync(path, 'utf8');
        // A line break outside a string is white space, and JSON strings hold none: the text as written, on one line.
        lines.push(text.replace(/\r?\n/g, ' '));
        try {
          const value = JSON.parse(text) as { trace?: unknown };
          if (value && typeof value === 'object' && 'trace' in value) lines.push(JSON.stringify(value.trace));
        } catch {
          // kept as written: a broken file is a broken line
        }
      }
    }
  };
  walk(join(corpus, 'traces'));
  walk(join(corpus, 'evaluation'));
  return lines;
}

/** A clean annotated trace: a call, its output, an answer, annotations that name them. */
function cleanLine(index: number): Record<string, unknown> {
  return {
    index,
    messages: [
      { role: 'system', content: 'You help.' },
      { role: 'user', content: [{ type: 'text', text: `question ${index}: what is in /tmp?` }] },
      { role: 'assistant', content: null, tool_calls: [{ id: `c${index}`, type: 'function', function: { name: 'ls', arguments: '{"path": "/tmp"}' } }] },
      { role: 'tool', tool_call_id: `c${index}`, content: 'a\nb\nc' },
      { role: 'assistant', content: 'Three files: a, b and c.' },
    ],
    annotations: [
      { content: 'the question', address: 'messages.1.content.0.text:0-8' },
      { content: 'second line', address: 'messages.3.content:L1', extra_metadata: { by: 'test' } },
      { content: 'the call', address: 'messages.2.tool_calls.0.function.arguments' },
    ],
    metadata: { run: index },
  };
}

/**
 * Lines where JSON.parse and the positioned reader may disagree, or where one check of the line finds something:
 * each a variation of a clean line, as text.
 */
function variations(): string[] {
  const base = JSON.stringify(cleanLine(7));
  const raw = JSON.stringify((cleanLine(7) as { messages: unknown[] }).messages);
  const swap = (from: string, to: string, text = base) => {
    assert.ok(text.includes(from), `${from} is in the line`);
    return text.replace(from, to);
  };
  const deep = (levels: number) => swap('"metadata":{"run":7}', `"metadata":{"run":${'['.repeat(levels)}1${']'.repeat(levels)}}`);
  return [
    base, raw, ` \t${base}\t `, `\uFEFF${base}`, swap('{"index":7,', '{"index":7,\r'),
    // Repeated keys: JSON.parse keeps the last, the checks read the first.
    swap('"role":"tool"', '"role":"tool","role":"user"'), swap('"role":"tool"', '"role":"user","role":"tool"'),
    swap('"index":7', '"index":7,"index":7'), swap('"messages":', '"messages":[],"messages":'), swap('"name":"ls"', '"name":"ls","name":1'),
    swap('"id":"c7"', '"id":"c7","id":"c8"'), swap('{\\"path\\": \\"/tmp\\"}', '{\\"path\\": \\"/tmp\\", \\"path\\": 1}'), swap('"run":7', '"run":7,"run":8'),
    swap('"content":"the question"', '"content":"the question","content":1'), swap('"type":"text"', '"type":"text","type":"image_url"'),
    swap('"run":7', '"a:b":1,"a:b":2'), swap('"run":7', '"a\\u003ab":1,"a:b":2'), swap('"run":7', '"x":"a:b","x":"c"'),
    swap('"run":7', '"\\u0072un":1,"run":2'), swap('"role":"tool"', '"\\u0072ole":"tool"'), swap('"role":"tool"', '"role":"tool","\\u0072ole":"user"'),
    // Characters and escapes.
    swap('a\\nb\\nc', 'a\\ud800b\\nc'), swap('"You help."', '"\\udc00"'), swap('"c7"', '"c\\ud83d7"'), swap('You help.', 'You \\u0000 help.'),
    swap('You help.', 'You \u0000 help.'), swap('You help.', 'You \u0001 help.'), swap('You help.', 'You \u2028 help.'), swap('You help.', 'You \\/ help.'),
    swap('You help.', 'You \\x41 help.'), swap('You help.', 'You \\u12 help.'), swap('{"index":7,', '{"index":7,\f'), swap('{"index":7,', '{"index":7,\u00a0'),
    swap('"role":"tool"', '"role":"tool","__proto__":{"x":1}'), swap('"run":7', '"constructor":1,"toString":2'),
    swap('"role":"system"', '"role":"system","constructor":"x"'), swap('"type":"function"', '"type":"function","toString":1'),
    // Numbers JSON.parse reads otherwise, or not at all.
    swap('"index":7', '"index":7.0'), swap('"index":7', '"index":7e0'), swap('"index":7', '"index":-0'), swap('"index":7', '"index":12345678901234567890123'),
    swap('"index":7', '"index":1e400'), swap('"index":7', '"index":"7"'), swap('"index":7', '"index":07'), swap('"index":7', '"index":+7'),
    swap('"run":7', '"run":.5'), swap('"run":7', '"run":1.'), swap('"run":7', '"run":NaN'), swap('"run":7', '"run":-Infinity'),
    // Nesting.
    deep(150), deep(250), deep(999), deep(1001), deep(5000),
    // What the trace's checks find.
    swap('"role":"system"', '"role":"sytem"'), swap('"role":"system"', '"role":"narrator"'), swap('"role":"system",', ''), swap('"role":"system"', '"role":1'),
    swap('"tool_call_id":"c7",', ''), swap('"tool_call_id":"c7"', '"tool_call_id":null'), swap('"tool_call_id":"c7"', '"tool_call_id":"c9"'),
    swap('"tool_call_id":"c7"', '"tool_call_id":7'), swap('"id":"c7",', ''), swap('"id":"c7"', '"id":null'), swap('"id":"c7"', '"id":7'),
    swap('"content":"Three files: a, b and c."', '"content":"x","tool_calls":[{"id":"c7","type":"function","function":{"name":"ls","arguments":{}}}]'),
    swap('{"role":"system","content":"You help."}', '{"role":"tool","tool_call_id":"c7","content":"early"}'),
    swap('"arguments":"{\\"path\\": \\"/tmp\\"}"', '"arguments":"[1]"'), swap('"arguments":"{\\"path\\": \\"/tmp\\"}"', '"arguments":"{broken"'),
    swap('"arguments":"{\\"path\\": \\"/tmp\\"}"', '"arguments":7'), swap('"arguments":"{\\"path\\": \\"/tmp\\"}"', '"arguments":{}'),
    swap(',"arguments":"{\\"path\\": \\"/tmp\\"}"', ''), swap('"name":"ls",', ''), swap('"name":"ls"', '"name":null'), swap('"type":"function",', ''),
    swap('"type":"function"', '"type":1'), swap('"function":{"name":"ls",', '"fn":{"name":"ls",'), swap('"tool_calls":[', '"tool_calls":{"x":['),
    swap('"tool_calls":[{', '"tool_calls":[1,{'), swap('"tool_calls":[{', '"tool_calls":null,"x":[{'),
    swap('{"type":"text","text":', '{"type":"image_url","image_url":{"url":"https://x"},"text":'), swap('"type":"text"', '"type":"input_text"'),
    swap('"type":"text"', '"type":"txt"'), swap('"type":"text",', ''), swap('"type":"text"', '"type":7'), swap('"type":"text"', '"type":"text","cache_control":{}'),
    swap('"content":"You help."', '"content":7'), swap('"content":"You help."', '"content":{"a":1}'), swap('"content":"a\\nb\\nc"', '"content":{"a":1}'),
    swap('"content":"You help."', '"content":["x"]'), swap('"role":"system"', '"role":"system","extra_key":1'), swap('"index":7,', '"index":7,"odd":1,'),
    swap('{"role":"system","content":"You help."}', '{"metadata":{"a":1}}'), swap('{"role":"system","content":"You help."},', ''),
    swap('{"role":"system","content":"You help."}', '{"type":"function","function":{"name":"x","arguments":{}}}'),
    swap('{"role":"system","content":"You help."}', '{"tools":[]}'), swap('{"role":"system","content":"You help."}', '7'),
    swap('"messages":[', '"messages":{"x":['), '{"messages":7}', '{"index":1}', '[]', '{}', '7', '"text"', 'null', '[1,2]', '{"call":{"call_id":"x"},"messages":[]}',
    '{"\\u0063all":{"call_id":"x","tool_name":"t"},"messages":[]}', '{"metadata":{"name":"again"}}', '{"metadata":{"name":"again"},"messages":[]}',
    // What the annotations' checks find.
    swap(':0-8', ':8-0'), swap(':0-8', ':0-800'), swap(':L1', ':L9'), swap(':L1', ':Lx'), swap('messages.3.content', 'messages.9.content'),
    swap('messages.3.content', 'messages.3.nothing'), swap('messages.3.content', 'messages.x.content'), swap('messages.3.content', 'messages..content'),
    swap('function.arguments"', 'function.arguments.path"'), swap('function.arguments"', 'function.arguments.path:0-2"'), swap('function.arguments"', 'function.name.x"'),
    swap('function.arguments"', 'function.arguments:bbox-1,2,3,4"'), swap('"content":"the question",', ''), swap('"content":"the question"', '"content":1'),
    swap('"address":"messages.1.content.0.text:0-8"', '"address":7'), swap('"extra_metadata":{"by":"test"}', '"extra_metadata":[1]'),
    swap('"extra_metadata":{"by":"test"}', '"extra_metadata":null'), swap('"annotations":[', '"annotations":{"x":['), swap('"annotations":[', '"annotations":[7,'),
    swap('"address":"messages.1.content.0.text:0-8"', '"address":"messages[1].content[0].text:0-8"'), swap('question 7', 'question 😀7'),
    swap(':0-8', ':0-23'), swap(':0-8', ':0-24'), swap('"annotations":[', '"annotations":null,"x":['), swap('"annotations":[', '"annotations":[],"y":['),
    // Broken lines.
    base.slice(0, -1), `${base},`, swap('"index":7,', '"index":7,,'), swap('{"index":7,', '{"index":7,//x\n'), swap(']}', '],}'), `${base}${base}`,
  ];
}

describe('check: lines read with JSON.parse are those the positioned reader finds no problem in', () => {
  it('takes a line only when the positioned reader finds it the same kind, with no problem of its own, at the same place', (t) => {
    const lines = [...variations(), ...(corpusOrSkip(t, corpus) ? corpusLines() : [])];
    let taken = 0;
    for (const [i, text] of lines.entries()) {
      for (const number of [0, 1]) {
        const positioned = parseLine(text, number, 0, text.length, parseDatasetLine);
        const valueStart = number === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
        const clean = readCleanDatasetLine(text, number, 0, valueStart, text.length);
        if (!clean) continue;
        taken++;
        const what = `line ${i} (${number}): ${text.slice(0, 200)}`;
        assert.deepEqual(positioned.errors, [], what);
        assert.equal(clean.kind, positioned.kind, what);
        assert.deepEqual(positioned.traceProblems ?? [], [], what);
        assert.deepEqual(positioned.annotationProblems ?? [], [], what);
        assert.equal(clean.root?.start, positioned.root?.start, what);
        assert.equal(clean.root?.end, positioned.root?.end, what);
      }
    }
    assert.ok(taken >= 20, `only ${taken} lines were taken by the fast reading`);
    assert.ok(taken < lines.length * 2, 'some lines are left to the positioned reader');
  });
});

describe('check: a streamed dataset reports the same read fast, read positioned, and on any number of workers', () => {
  let folder: string;
  let dataset: string;
  before((t) => {
    folder = mkdtempSync(join(tmpdir(), 'check-fast-'));
    dataset = join(folder, 'mixed.jsonl');
    // Several chunks of clean traces, with every variation (and the corpus's traces) spread over them: problems
    // within lines, and between lines across chunks (a repeated index, metadata rows, a raw trace among annotated ones).
    const write = (path: string, odd: string[], padding: number) => {
      const lines = ['{"metadata": {"name": "mixed"}}'];
      let index = 0;
      for (const [i, text] of odd.entries()) {
        lines.push(JSON.stringify(cleanLine(index++)).replace('"run":', `"padding":"${'p'.repeat(padding + (i % 7) * 300)}","run":`));
        lines.push(text);
      }
      writeFileSync(path, `${lines.join('\n')}\n`);
    };
    write(dataset, [...variations(), ...(existsCorpus() ? corpusLines() : [])], 500);
    // For the command line, run eight times: the variations alone, over as many chunks.
    write(join(folder, 'variations.jsonl'), variations(), 8000);
    void t;
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  const options = (extra: Partial<CheckOptions>): CheckOptions => ({ maxProblems: 100_000, maxBytes: 100 * 2 ** 20, cwd: folder, ...extra });

  it('gives the same report as each chunk read as a document (the positioned reader), with --jobs 1 and 2', async () => {
    assert.ok(statSync(dataset).size > 4 * 256 * 1024, 'the dataset spans several chunks');
    const reference = await checkFile(dataset, options({ positionedOnly: true }), 'mixed.jsonl');
    const one = await checkFile(dataset, options({ jobs: 1 }), 'mixed.jsonl');
    const two = await checkFile(dataset, options({ jobs: 2 }), 'mixed.jsonl');
    assert.ok(reference && one && two);
    assert.ok(reference.problems.length > 100, `${reference.problems.length} problems found`);
    const codes = new Set(reference.problems.map((p) => p.problem.code));
    for (const code of ['jsonl/syntax', 'jsonl/index-duplicate', 'jsonl/metadata-repeated', 'jsonl/mixed-kinds', 'trace/unknown-call-id', 'jsonl/annotation-range']) {
      assert.ok(codes.has(code), `${code} is among the problems`);
    }
    assert.deepEqual(one, reference);
    assert.deepEqual(two, reference);
  });

  it('keeps the same problems under --max-problems and --max-indexes', async () => {
    for (const limited of [{ maxIndexes: 100 }, { maxProblems: 40 }]) {
      const reference = await checkFile(dataset, options({ ...limited, positionedOnly: true }), 'mixed.jsonl');
      const notice = 'maxIndexes' in limited ? 'jsonl/too-many-indexes' : 'jsonl/too-many-problems';
      assert.ok(reference?.problems.some((p) => p.problem.code === notice), notice);
      assert.deepEqual(await checkFile(dataset, options({ ...limited, jobs: 1 }), 'mixed.jsonl'), reference);
      assert.deepEqual(await checkFile(dataset, options({ ...limited, jobs: 2 }), 'mixed.jsonl'), reference);
    }
  });

  it('prints the same with --jobs 1 and --jobs 2: lines, --json, --json-lines, exit codes', () => {
    assert.ok(statSync(join(folder, 'variations.jsonl')).size > 4 * 256 * 1024, 'the dataset spans several chunks');
    for (const form of [[], ['--json'], ['--json-lines'], ['-q']]) {
      const one = runCli(folder, 'check', 'variations.jsonl', '--jobs', '1', ...form);
      const two = runCli(folder, 'check', 'variations.jsonl', '--jobs', '2', ...form);
      assert.equal(one.code, 1);
      assert.ok(one.stdout.length > 1000);
      assert.equal(two.stdout, one.stdout);
      assert.equal(two.stderr, one.stderr);
      assert.equal(two.code, one.code);
    }
  });

  it('prints the same with --jobs 1 and --jobs 2 over the corpus', (t) => {
    if (!corpusOrSkip(t, corpus)) return;
    const one = runCli(corpus, 'check', 'traces/**/*.json', 'formats', 'agentguard', '--jobs', '1', '--json');
    const two = runCli(corpus, 'check', 'traces/**/*.json', 'formats', 'agentguard', '--jobs', '2', '--json');
    assert.ok((JSON.parse(one.stdout) as unknown[]).length > 50);
    assert.equal(two.stdout, one.stdout);
    assert.equal(two.code, one.code);
  });

  it('--jobs takes a whole number from 1 to 256', () => {
    const ran = runCli(folder, 'check', 'mixed.jsonl', '--jobs', '0');
    assert.equal(ran.code, 2);
    assert.match(ran.stderr, /--jobs takes a whole number from 1 to 256/);
  });
});

describe('check: a worker that runs out of its heap on a huge line', () => {
  it('leaves its chunks to the main thread, which reads them as --jobs 1 does', async () => {
    // A line of 300,000 small objects: its parsed value and its reading outgrow a worker given a 16 MB old generation.
    const huge = JSON.stringify({ messages: Array.from({ length: 300_000 }, (_, i) => ({ role: 'user', content: `m${i}` })) });
    const text = `${JSON.stringify(cleanLine(0))}\n${huge}\n${JSON.stringify(cleanLine(1))}\n{"messages": [ broken\n`;
    const chunks = async function* () {
      yield Buffer.from(text, 'utf8');
    };
    const read = async (readers: ChunkReaders) => {
      try {
        const results = [];
        for await (const chunk of lineChunks(chunks(), { maxBytes: 100 * 2 ** 20 })) {
          const { read: found, text: decoded } = await readers.read(chunk);
          results.push({ found, text: decoded() });
        }
        return results;
      } finally {
        readers.close();
      }
    };
    const reference = await read(new ChunkReaders(1));
    const exits: string[] = [];
    const starved = new ChunkReaders(2, { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 }, (why) => exits.push(why));
    assert.deepEqual(await read(starved), reference);
    assert.deepEqual(exits, ['ERR_WORKER_OUT_OF_MEMORY'], 'the worker ran out of its heap (the test would not test the fallback otherwise)');
    const lines = reference[0].found.whole ? [] : reference[0].found.lines;
    assert.equal(lines.length, 4);
    assert.ok('again' in lines[3], 'the broken line is read again by the positioned reader');
  });
});

function existsCorpus(): boolean {
  try {
    return statSync(corpus).isDirectory();
  } catch {
    return false;
  }
}
