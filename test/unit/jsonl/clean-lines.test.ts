import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonlService, type LinesModel } from '../../../server/src/jsonl';
import { parseLines } from '../../../server/src/jsonl/model';
import { parseDatasetLine } from '../../../server/src/jsonl/dataset/parseLine';
import { readCleanDatasetLine } from '../../../server/src/jsonl/dataset/cleanLine';
import { context } from './helpers';

// The editor reads a dataset's lines first with JSON.parse, keeping a line only when it is certain it has no problem
// (cleanLine.ts). What a user sees must not depend on which reader took a line: every feature, at every offset, is
// compared with the same text read by the positioned reader alone.

const call = (id: string, name: string, args: unknown) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
const cleanMessages = (n: number) => [
  { role: 'system', content: 'You are a careful agent.' },
  { role: 'user', content: `Task ${n}: list the files, then read "notes.md" — twice 👋` },
  { role: 'assistant', content: null, tool_calls: [call(`c${n}a`, 'list_files', { path: '.' }), call(`c${n}b`, 'read_file', { path: 'notes.md' })] },
  { role: 'tool', tool_call_id: `c${n}a`, content: 'notes.md\nsrc/\n' },
  { role: 'tool', tool_call_id: `c${n}b`, content: [{ type: 'text', text: 'line 1\nline 2' }] },
  { role: 'assistant', content: 'Done: "notes.md" has 2 lines.' },
];

const lines = [
  JSON.stringify({ metadata: { name: 'clean and not', version: 2 } }),
  JSON.stringify({ index: 0, messages: cleanMessages(0), annotations: [{ content: 'good', address: 'messages.1.content:0-4' }], metadata: { score: 1 } }),
  JSON.stringify({ index: 1, messages: cleanMessages(1) }),
  // An output answering no call: the positioned reader takes it and places the error.
  JSON.stringify({ index: 2, messages: [...cleanMessages(2), { role: 'tool', tool_call_id: 'nowhere', content: 'x' }] }),
  // An unknown key (a hint), an annotation whose address names nothing, an index given twice.
  JSON.stringify({ index: 3, messages: [{ role: 'user', content: 'hi', colour: 'red' }] }),
  JSON.stringify({ index: 4, messages: cleanMessages(4), annotations: [{ content: 'n', address: 'messages.9.content' }] }),
  JSON.stringify({ index: 4, messages: cleanMessages(5) }),
  // A repeated key, which JSON.parse would quietly take the last of.
  `{"index": 6, "messages": [{"role": "user", "content": "a", "content": "b"}]}`,
  `{"index": 7, "messages": [{"role": "user", "content": "unfinished"}`,
  `  {"index": 8, "messages": [{"role": "user", "content": "esc\\u00e9 \\"q\\" \\ud83d\\udc4b"}]}  `,
];
const text = lines.join('\n');
const uri = 'file:///clean.jsonl';

const positioned = (source: string, version = 1): LinesModel =>
  parseLines({ uri, version, text: source }, parseDatasetLine);

/** Everything a user can ask of the document, at every offset, as plain data. */
function seen(model: LinesModel, source: string): unknown {
  const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  const perOffset = [];
  for (let offset = 0; offset <= source.length; offset++) {
    perOffset.push([
      jsonlService.hover(model, offset, context), jsonlService.definition(model, offset, context),
      jsonlService.references(model, offset, true), jsonlService.highlights(model, offset),
      jsonlService.completion(model, offset, context).map((entry) => entry.label),
    ]);
  }
  const problems = jsonlService.validate(model, context);
  const graphs = [0, 1, 2, 4].map((traceIndex) => jsonlService.graph!(model, { traceIndex, toRange }, context));
  return {
    problems, perOffset, graphs, symbols: jsonlService.symbols(model), folding: jsonlService.folding(model),
    lenses: jsonlService.codeLenses?.(model, context), tools: [...(jsonlService.calledTools?.(model) ?? [])],
  };
}

describe('dataset lines read with JSON.parse', () => {
  it('are taken for the clean lines only, so both readers are compared below', () => {
    let start = 0;
    const taken = lines.map((line, number) => {
      const read = readCleanDatasetLine(text, number, start, start, start + line.length);
      start += line.length + 1;
      return read !== undefined;
    });
    assert.deepEqual(taken, [true, true, true, false, false, false, true, false, false, true]);
  });

  it('give every feature the same answer at every offset as the positioned reader', () => {
    const model = jsonlService.parse({ uri, version: 1, text });
    const problems = jsonlService.validate(model, context).map((problem) => problem.code);
    for (const code of ['trace/unknown-call-id', 'jsonl/annotation-address', 'jsonl/index-duplicate', 'jsonl/syntax', 'trace/unknown-key']) {
      assert.ok(problems.includes(code), `${code} among ${problems.join(', ')}`);
    }
    assert.deepEqual(seen(model, text), seen(positioned(text), text));
  });

  it('stay the same through edits that make a clean line broken and clean again', () => {
    let model = jsonlService.parse({ uri, version: 1, text });
    let current = text;
    const at = text.indexOf('"index": 1') + '"index": 1'.length;
    const edits = [{ span: { start: at, end: at }, text: ', "colour": 1' }, { span: { start: at, end: at + ', "colour": 1'.length }, text: '' }];
    for (const [step, edit] of edits.entries()) {
      current = current.slice(0, edit.span.start) + edit.text + current.slice(edit.span.end);
      const change = { start: edit.span.start, oldEnd: edit.span.end, newEnd: edit.span.start + edit.text.length };
      model = jsonlService.reparse!(model, { uri, version: step + 2, text: current }, change)!;
      assert.deepEqual(seen(model, current), seen(positioned(current, step + 2), current), `after edit ${step + 1}`);
    }
  });
});
