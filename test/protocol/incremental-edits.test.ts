import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ServerProcess } from './lspClient';

const edited = 'file:///workspace/edited.trace.json';
const call = (id: string, n: number) => `{"id": "${id}", "type": "function", "function": {"name": "get_inbox", "arguments": {"n": ${n}}}}`;
const events: string[] = [];
for (let i = 0; i < 30; i++) {
  events.push(`  {"role": "assistant", "content": "step ${i}", "tool_calls": [${call(`c${i}`, i)}]}`);
  events.push(`  {"role": "tool", "tool_call_id": "c${i}", "content": "output\\n${i}"}`);
}
const text = `[\n${events.join(',\n')}\n]`;

/** Edits of every kind, each in the text the ones before made: (offset of a needle + shift, characters taken out, inserted). */
const edits: [string, number, number, string][] = [
  ['"content": "step 20', 0, 0, '"'], // an unbalanced quote: read in full
  ['""content": "step 20', 0, 1, ''], // and its undo, read in full too (the version before has errors)
  ['"content": "step 3', 13, 0, 'x'], // inside a string
  ['"role": "tool", "tool_call_id": "c5"', 3, 0, 'x'], // inside a key: that event stops being an output
  ['"n": 7', 5, 0, '1'], // inside a number
  ['}]},\n  {"role": "tool", "tool_call_id": "c9"', 4, 0, ' '], // between events
  ['"tool_call_id": "c11"', 17, 3, 'c4'], // a link changes
];

describe('incremental edits over stdio: the edited document answers as a fresh open of the same text', () => {
  const server = new ServerProcess();
  let document = TextDocument.create(edited, 'agent-trace', 1, text);

  before(async () => {
    await server.initialize();
    server.open(edited, 'agent-trace', text);
    await server.diagnosticsFor(edited, 1);
    // The model of version 1 is built by the check; every edit below is read from the one before.
    for (const [needle, shift, length, insert] of edits) {
      const at = document.getText().indexOf(needle);
      if (at === -1) continue;
      const start = document.positionAt(at + shift);
      const end = document.positionAt(at + shift + length);
      const version = document.version + 1;
      const change = { range: { start, end }, text: insert };
      document = TextDocument.update(document, [change], version);
      await server.connection.sendNotification('textDocument/didChange', { textDocument: { uri: edited, version }, contentChanges: [change] });
      // A request after each edit builds that version's model (from the previous one where it can).
      await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: edited } });
    }
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('publishes the diagnostics, definitions, hovers and symbols a fresh open gives', async () => {
    assert.equal(document.version, 8, 'every edit applied');
    const fresh = 'file:///workspace/fresh.trace.json';
    server.open(fresh, 'agent-trace', document.getText());
    const expected = await server.diagnosticsFor(fresh, 1);
    const actual = await server.diagnosticsFor(edited, document.version);
    assert.ok(expected.some((d) => d.code === 'trace/unanswered-call'), 'the edits changed the links');
    assert.deepEqual(JSON.parse(JSON.stringify(actual).replaceAll(edited, fresh)), expected);
    const request = (method: string, uri: string, offset: number) =>
      server.connection.sendRequest(method, { textDocument: { uri }, position: document.positionAt(offset) });
    const final = document.getText();
    for (let offset = final.indexOf('"c'); offset !== -1; offset = final.indexOf('"c', offset + 1)) {
      for (const method of ['textDocument/definition', 'textDocument/hover']) {
        const mine: any = await request(method, edited, offset + 2);
        const theirs: any = await request(method, fresh, offset + 2);
        assert.deepEqual(JSON.stringify(mine).replaceAll(edited, fresh), JSON.stringify(theirs), `${method} at ${offset}`);
      }
    }
    for (const method of ['textDocument/foldingRange', 'textDocument/codeLens']) {
      const mine = await server.connection.sendRequest(method, { textDocument: { uri: edited } });
      const theirs = await server.connection.sendRequest(method, { textDocument: { uri: fresh } });
      assert.deepEqual(JSON.stringify(mine).replaceAll(edited, fresh), JSON.stringify(theirs), method);
    }
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: edited } });
    assert.deepEqual(symbols, await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: fresh } }));
  });
});
