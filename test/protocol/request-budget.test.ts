/**
 * agentTraces.requestTimeBudget over stdio: the budget counts a request's own work on a document's model, not the wait
 * for the model. With a 50 ms budget, an outline asked for right after a big document is opened (read at once, or in
 * slices) arrives once the document is read, with no further edit: VS Code asks for the outline once per version.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';
import { conventionsRun, exporterFile } from '../unit/otel/samples';

interface Symbol { name: string; children?: Symbol[] }

/**
 * About 3 MB of spans as the collector's file exporter writes them: six runs, each span with a long note (escapes
 * and all), so that the reading takes far longer than the budget while the outline is 36 entries.
 */
function bigSpansFile(): string {
  const note = 'word \u00e9\n"\t'.repeat(7_000);
  const run = exporterFile(conventionsRun().map((spec) => ({ ...spec, attributes: { ...spec.attributes, 'app.note': note } })));
  return Array.from({ length: 6 }, (_, i) => run.replaceAll('5b8efff798038103d269b633813fc60c', `${i}`.padStart(32, '0'))).join('');
}

/** A 3 MB Invariant trace (read in slices) with three messages: its outline is short, its reading is not. */
function bigTrace(): string {
  return JSON.stringify([
    { role: 'user', content: 'x'.repeat(3_000_000) },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: { path: 'a.txt' } } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'done' },
  ]);
}

describe('the request time budget does not cut a request off while its document is read', () => {
  // 50 ms: far below the reading of these documents (hundreds of ms in a fresh server) and well above the outline's own
  // work on them (2-14 ms under load; a budget of 1 or 5 ms cut the spans' outline off now and then). Counting the wait
  // for the reading against it still fails the first test.
  // Checks after an edit wait 10 minutes: after the paste below, the outline request reads the document itself.
  const server = new ServerProcess({ requestTimeBudget: 50, validation: { delay: 600_000 } });

  before(async () => {
    await server.initialize();
    await server.configured;
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('a big spans file read at once: the outline asked for at its opening lists its traces', async () => {
    const uri = 'file:///w/spans-big.jsonl';
    const text = bigSpansFile();
    assert.ok(text.length > 2_500_000, `${text.length} characters`);
    server.open(uri, 'jsonl', text);
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as Symbol[];
    assert.deepEqual(symbols.map((symbol) => symbol.name), Array.from({ length: 6 }, () => 'Trace 00000000…'));
    assert.deepEqual(symbols[0].children!.map((child) => child.name), ['invoke_agent weather-agent']);
  });

  it('a big spans file pasted into an open document: the outline asked for at once lists its traces', async () => {
    const uri = 'file:///w/spans-pasted.jsonl';
    const text = bigSpansFile();
    server.open(uri, 'jsonl', text.slice(0, text.indexOf('\n') + 1));
    await server.diagnosticsFor(uri, 1);
    void server.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as Symbol[];
    assert.deepEqual(symbols.map((symbol) => symbol.name), Array.from({ length: 6 }, () => 'Trace 00000000…'));
  });

  it('a big trace read in slices: the outline asked for at its opening lists its messages', async () => {
    const uri = 'file:///w/big.trace.json';
    server.open(uri, 'agent-trace', bigTrace());
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } }) as Symbol[];
    assert.notDeepEqual(symbols, []);
    assert.match(JSON.stringify(symbols), /read_file/);
  });
});
