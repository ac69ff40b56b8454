import type { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultSettings } from '../common/languageService';
import { EditorDocument } from './editorDocument';
import { traceService } from '../trace';
import { spansService } from '../otel';
import type { TraceModel } from '../trace/model';
import { afterEvents } from '../common/steps';

/**
 * Reads and checks a small made-up trace a few times, a turn of the event loop each, once the server has started
 * and no document is on its way: V8 optimizes the scanner, the tree builder and the checks before the user opens a
 * big trace, so that it is read by optimized code (read by unoptimized code, a 10 MB trace took up to twice as
 * long). The message decoder is warmed up the same way, on the trace as a message, and so is the reading of a file
 * of OpenTelemetry spans (its own code: read cold, a 3 MB file of spans took three times as long as read warm).
 * It waits `delayMs` first, since the document that started the server comes right after `initialized` (its text
 * reaches the server only once the client has encoded it, which for a big trace on a loaded machine takes up to a
 * second or more), and a warm-up running meanwhile took the CPU from the client and from the open itself: in fresh
 * servers over stdio, the 12.9 MB escape-heavy trace sent right after `initialized` took 1.7 s (median of 6) to its
 * diagnostics with the warm-up started at once, 1.1 s with none (load average 7-8 on the 2-core machine); waiting
 * one second was not enough once the client took that long to send it. Each step is small (about 125 KB of text;
 * the first, unoptimized, takes some tens of milliseconds, a few once optimized) and the steps stop once `wanted`
 * says no: once a big document is arriving or being read, which then warms the code itself.
 */
export function warmUpTraceReading(decodeMessage: (message: string) => void, wanted: () => boolean = () => true, delayMs = warmUpDelayMs, rounds = 6): void {
  const text = sampleTrace(125);
  const spans = sampleSpans(15);
  const message = JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'warm-up:trace', text } } });
  const steps = [() => decodeMessage(message), () => readAndCheck(text), () => readAndCheckSpans(spans)];
  let step = 0;
  setTimeout(() => inRounds(rounds * steps.length, wanted, () => steps[step++ % steps.length]()), delayMs);
}

/** How long after `initialized` the warm-up waits for the documents the client opens at once. */
export const warmUpDelayMs = 3000;

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
  inRounds(rounds, () => true, () => typeInto(text, 5));
}

/** `round` run `count` times, a turn of the event loop each, while `wanted`; a round that throws ends the warm-up. */
function inRounds(count: number, wanted: () => boolean, round: () => unknown): void {
  let left = count;
  const next = () => {
    if (!wanted()) return;
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

/** A file of spans read, checked and outlined, as its first open does: span files take code of their own. */
function readAndCheckSpans(text: string): void {
  const model = spansService.parse({ uri: 'warm-up:spans', version: 0, text });
  spansService.validate(model, { settings: defaultSettings });
  spansService.symbols(model);
}

/**
 * `edits` one-character edits of the editor's document, each taken out again, each read incrementally and checked,
 * with a definition asked after each: what the server does while a user types. They alternate between an event's
 * string and its "role" key: an edited key changes how events link, and the links are found again over all events
 * (cold, that took the first such edit of a 13 MB trace 50 ms, against 2-5 ms for the next ones).
 */
export function typeInto(text: string, edits: number): TraceModel | undefined {
  const context = { settings: defaultSettings };
  const document = EditorDocument.create('warm-up:trace', 'agent-trace', 0, text, 4096);
  let model: TraceModel | undefined = traceService.parse({ uri: document.uri, version: 0, text });
  traceService.validate(model, context);
  const inStrings = [...text.matchAll(/"content": "/g)].map((match) => match.index! + 13);
  const inKeys = [...text.matchAll(/"role"/g)].map((match) => match.index! + 3);
  for (let i = 0; i < edits * 2 && model; i++) {
    const places = Math.floor(i / 2) % 2 === 0 ? inStrings : inKeys;
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

/**
 * OTLP/JSON as the collector's file exporter writes it, one run per line: an agent span, a model span whose input
 * and output messages (JSON inside strings, with escapes) hold a tool call and its response, the tool span, and a
 * model span whose input repeats the first one's history and adds its answer (otel/history.ts continues it).
 */
export function sampleSpans(runs: number): string {
  const attribute = (key: string, value: string | number) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
  const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');
  const lines: string[] = [];
  for (let run = 0; run < runs; run++) {
    const id = `call_${run}`;
    const start = 1_758_026_593_209_236_000n + BigInt(run) * 2_000_000_000n;
    const span = (n: number, name: string, attributes: unknown[], parent?: number) => ({
      traceId: hex(run + 1, 16), spanId: hex(run * 10 + n, 8), parentSpanId: parent === undefined ? '' : hex(run * 10 + parent, 8), name, kind: 1,
      startTimeUnixNano: String(start + BigInt(n) * 1_000_000n), endTimeUnixNano: String(start + BigInt(n) * 2_000_000n), attributes, status: {},
    });
    const input = [
      { role: 'user', parts: [{ type: 'text', content: `Read "notes-${run}.txt"\tand summarise — ok` }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id, name: 'read_file', arguments: { path: `notes-${run}.txt` } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id, result: `1:\tline "quoted"\n2:\tünïcödé 🙂 ${run}` }] },
    ];
    const answer = { role: 'assistant', parts: [{ type: 'text', content: 'Done.' }] };
    const spans = [
      span(1, 'invoke_agent assistant', [attribute('gen_ai.operation.name', 'invoke_agent')]),
      span(2, 'chat gpt-4o', [
        attribute('gen_ai.operation.name', 'chat'), attribute('gen_ai.request.model', 'gpt-4o'), attribute('gen_ai.usage.input_tokens', 200 + run),
        attribute('gen_ai.usage.output_tokens', 20), attribute('gen_ai.input.messages', JSON.stringify(input)),
        attribute('gen_ai.output.messages', JSON.stringify([answer])),
      ], 1),
      span(3, 'execute_tool read_file', [
        attribute('gen_ai.operation.name', 'execute_tool'), attribute('gen_ai.tool.name', 'read_file'), attribute('gen_ai.tool.call.id', id),
        attribute('gen_ai.tool.call.arguments', JSON.stringify({ path: `notes-${run}.txt` })), attribute('gen_ai.tool.call.result', 'line "quoted"\nmore'),
      ], 1),
      span(4, 'chat gpt-4o', [
        attribute('gen_ai.operation.name', 'chat'), attribute('gen_ai.request.model', 'gpt-4o'),
        attribute('gen_ai.input.messages', JSON.stringify([...input, answer])), attribute('gen_ai.output.messages', JSON.stringify([answer])),
      ], 1),
    ];
    lines.push(JSON.stringify({ resourceSpans: [{ resource: { attributes: [attribute('service.name', 'warm-up')] }, scopeSpans: [{ scope: { name: 'warm-up' }, spans }] }] }));
  }
  return `${lines.join('\n')}\n`;
}
