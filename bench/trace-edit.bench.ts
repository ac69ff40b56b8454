// Edit → answer inside the server process, without the transport: the editor's document takes a one-character edit
// (inside a string, a key, a number, between events; then its undo), the server builds that version's model and
// answers a definition, then checks it. Incremental re-read against reading every version in full, on the same
// edits. CPU ms of this process (the machine may be shared), p50 / p95. Then edits of ids (a tool_call_id, a call's
// id), which link an output or a call differently, read incrementally.
// Run: npm run bench -- trace-edit   (or node esbuild.mjs && node out/bench/trace-edit.bench.js [sizesInMB...])
import { TextDocument } from 'vscode-languageserver-textdocument';
import { toDiagnostic, toLocationLinks } from '../server/src/lsp/toProtocol';
import { DocumentModels, problemsInSlices } from '../server/src/lsp/documentModels';
import { documentsRecordingEdits, EditLog } from '../server/src/lsp/editLog';
import { defaultServerSettings } from '../server/src/settings';
import { generateTrace } from './generateTrace';
import { random } from './measure';

const cpuNow = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((sorted.length * p) / 100) - 1)];
}

/** Places of the end-to-end benchmark's kinds of edits, none of which changes a link. */
const keepingLinks = [
  ['string', /"content": "/g, 14, 'x'],
  ['key', /"role"/g, 3, 'x'],
  ['number', /"n": \d/g, 6, '7'],
  ['between events', /\n {2}\},\n/g, 5, ' '],
] as const;

/** Edits of ids, each of which links an output or a call differently (its undo links it back). */
const changingLinks = [
  ['tool_call_id', /"tool_call_id": "/g, 19, 'x'],
  ['call id', /"id": "/g, 9, 'x'],
] as const;

type Pools = readonly (readonly [string, RegExp, number, string])[];

/** Offsets of one-character insertions of each kind. */
function editOffsets(text: string, count: number, pools: Pools): { kind: string; offset: number; insert: string }[] {
  const next = random(11);
  const found = pools.map(([kind, pattern, shift, insert]) => [...text.matchAll(pattern)].map((m) => ({ kind, offset: m.index! + shift, insert })));
  return Array.from({ length: count }, (_, i) => {
    const pool = found[i % found.length];
    return pool[Math.floor(next() * pool.length)];
  });
}

async function measure(text: string, incremental: boolean, count: number, pools: Pools = keepingLinks) {
  const log = new EditLog();
  const documents = incremental ? documentsRecordingEdits(log) : { create: TextDocument.create, update: TextDocument.update };
  const models = new DocumentModels(() => ({ maxLines: 1000, maxFileSizeMB: 100, folders: [] }), () => undefined, incremental ? log : undefined);
  const context = { settings: defaultServerSettings };
  let document = documents.create('file:///bench.trace.json', 'agent-trace', 1, text);
  await problemsInSlices((await models.getInSlices(document))!, context);
  const ids = [...text.matchAll(/"tool_call_id": "/g)].map((m) => m.index! + 19);
  const figures = { update: [] as number[], definition: [] as number[], check: [] as number[] };
  let n = 0;
  for (const edit of editOffsets(text, count, pools)) {
    for (const undo of [false, true]) {
      const start = document.positionAt(edit.offset);
      const change = undo
        ? { range: { start, end: { line: start.line, character: start.character + 1 } }, text: '' }
        : { range: { start, end: start }, text: edit.insert };
      let began = cpuNow();
      document = documents.update(document, [change], document.version + 1);
      figures.update.push(cpuNow() - began);
      began = cpuNow();
      const parsed = (await models.getInSlices(document))!;
      const target = ids[(n++ * 7919) % ids.length];
      toLocationLinks(document, document.uri, undefined, parsed.service.definition(parsed.model, target, context));
      figures.definition.push(cpuNow() - began);
      began = cpuNow();
      (await problemsInSlices(parsed, context)).map((problem) => toDiagnostic(parsed.positions, document.uri, problem));
      figures.check.push(cpuNow() - began);
    }
  }
  return figures;
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const pair = (values: number[]) => `${percentile(values, 50).toFixed(1).padStart(6)} /${percentile(values, 95).toFixed(1).padStart(6)}`;
  console.log('CPU ms, p50 / p95, one-character edits and their undos (string, key, number, between events)');
  console.log('document update: the editor\'s document applying the edit (incremental: ours, kept in chunks; full re-read: vscode-languageserver-textdocument, which joins the whole text)');
  for (const mb of sizes.length > 0 ? sizes : [10, 50]) {
    const text = generateTrace(mb * 1024 * 1024, 1, { outputLines: [10, 30] });
    console.log(`--- ${(text.length / 2 ** 20).toFixed(1)} MB`);
    console.log('                   document update   edit → model + definition   check + diagnostics');
    for (const incremental of [true, false]) {
      const figures = await measure(text, incremental, mb >= 50 ? 12 : 20);
      console.log(`${(incremental ? 'incremental' : 'full re-read').padEnd(18)} ${pair(figures.update)}     ${pair(figures.definition)}             ${pair(figures.check)}`);
    }
    const ids = await measure(text, true, mb >= 50 ? 6 : 10, changingLinks);
    console.log(`${'incremental, ids'.padEnd(18)} ${pair(ids.update)}     ${pair(ids.definition)}             ${pair(ids.check)}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
