import type { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultSettings } from '../common/languageService';
import { EditorDocument } from './editorDocument';
import { traceService } from '../trace';
import type { TraceModel } from '../trace/model';
import { afterEvents } from '../common/steps';

/**
 * Reads and checks a small made-up trace a few times, a turn of the event loop each, right after the server starts:
 * V8 optimizes the scanner, the tree builder and the checks while the client is still busy starting, so the first
 * big trace a user opens is read by optimized code (read by unoptimized code, a 10 MB trace took up to twice as
 * long). The message decoder is warmed up the same way, on the trace as a message. About 170 KB per round, a few
 * milliseconds each once optimized.
 */
export function warmUpTraceReading(decodeMessage: (message: string) => void, rounds = 3): void {
  const text = sampleTrace(250);
  const message = JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'warm-up:trace', text } } });
  inRounds(rounds, () => {
    decodeMessage(message);
    readAndCheck(text);
  });
}

/**
 * After a big trace is checked, while its user reads it: its line starts are counted (else the first edit counts them,
 * about 20 ms in a 50 MB trace; a trace without problems has not needed them yet) and editing is warmed up.
 */
export function prepareForTyping(document: TextDocument): void {
  afterEvents(() => document.lineCount);
  warmUpEditing();
}

let editingWarmedUp = false;

/**
 * Once per server, after the first big trace is checked: types into a small made-up trace in a few short rounds,
 * so the first edit of the big trace runs an optimized incremental re-read (unoptimized, the first edit of a 50 MB
 * trace took half as long again as the next). Not at start-up: there it would hold up the first open.
 */
export function warmUpEditing(rounds = 4): void {
  if (editingWarmedUp) return;
  editingWarmedUp = true;
  const text = sampleTrace(60);
  inRounds(rounds, () => typeInto(text, 5));
}

/** `round` run `count` times, a turn of the event loop each; a round that throws ends the warm-up. */
function inRounds(count: number, round: () => unknown): void {
  let left = count;
  const next = () => {
    try {
      round();
    } catch {
      return; // a warm-up that fails costs nothing more: the real reading reports its own failures
    }
    if (--left > 0) afterEvents(next);
  };
  afterEvents(next);
}

function readAndCheck(text: string): void {
  const model = traceService.parse({ uri: 'warm-up:trace', version: 0, text, maxLines: 0 });
  traceService.validate(model, { settings: defaultSettings });
}

/**
 * `edits` one-character edits inside events' strings of the editor's document, each taken out again, each read
 * incrementally and checked, with a definition asked after each: what the server does while a user types.
 */
export function typeInto(text: string, edits: number): TraceModel | undefined {
  const context = { settings: defaultSettings };
  const document = EditorDocument.create('warm-up:trace', 'agent-trace', 0, text, 4096);
  let model: TraceModel | undefined = traceService.parse({ uri: document.uri, version: 0, text });
  traceService.validate(model, context);
  const places = [...text.matchAll(/"content": "/g)].map((match) => match.index! + 13);
  for (let i = 0; i < edits * 2 && model; i++) {
    const at = places[Math.floor(i / 2) * 37 % places.length];
    const undo = i % 2 === 1;
    const start = document.positionAt(at);
    const range = undo ? { start, end: document.positionAt(at + 1) } : { start, end: start };
    EditorDocument.update(document, [{ range, text: undo ? '' : 'x' }], i + 1);
    const change = { start: at, oldEnd: undo ? at + 1 : at, newEnd: undo ? at : at + 1 };
    model = traceService.reparse(model, { uri: document.uri, version: i + 1, get text() { return document.getText(); }, source: document.source() }, change);
    if (!model) return undefined;
    traceService.validate(model, context);
    const id = model.events[model.events.length - 2]?.fields.find((f) => f.name === 'tool_call_id')?.value;
    if (id) traceService.definition(model, id.start + 1);
  }
  return model;
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
