import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { smallestDecodedFromBytes } from '../../server/src/transport/messageDecoder';
import { ServerProcess } from './lspClient';

const uri = 'file:///workspace/big.trace.json';

/** Line and character (UTF-16 code units, as LSP counts them) of an offset in `text`. */
function positionOf(text: string, offset: number) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

const firstRequest = 'Read é — 😀 𝄞 "notes" \\ \ud800';

/**
 * A trace bigger than the size from which the server decodes messages itself, with characters of every UTF-8 length,
 * a lone surrogate and escapes before its last event, which answers a call that was never made.
 */
function bigTrace(): string {
  const events: unknown[] = [{ role: 'user', content: firstRequest }];
  for (let i = 0; events.length * 120 < smallestDecodedFromBytes * 1.5; i++) {
    events.push({ role: 'assistant', content: null, tool_calls: [{ id: `call_${i}`, type: 'function', function: { name: 'read_file', arguments: '{"path": "a\\\\b"}' } }] });
    events.push({ role: 'tool', tool_call_id: `call_${i}`, content: `é — 😀 𝄞 "quoted"\\t\\n ${i} \ud800 end` });
  }
  events.push({ role: 'tool', tool_call_id: 'call_missing', content: 'orphan' });
  return JSON.stringify(events, null, 2);
}

describe('stdio transport', () => {
  it('receives a big document with every kind of character intact: problems land on the exact characters', async () => {
    const server = new ServerProcess();
    try {
      await server.initialize();
      const text = bigTrace();
      assert.ok(Buffer.byteLength(text) > smallestDecodedFromBytes);
      server.open(uri, 'agent-trace', text);
      const errors = (await server.diagnosticsFor(uri, 1)).filter((d) => d.severity === 1);
      const offset = text.indexOf('"call_missing"');
      const start = positionOf(text, offset);
      assert.deepEqual(errors.map((d) => d.code), ['trace/unknown-call-id']);
      assert.deepEqual(errors[0].range, { start, end: { line: start.line, character: start.character + '"call_missing"'.length } });

      const lastId = text.lastIndexOf('"tool_call_id": "call_', offset - 20) + '"tool_call_id": "'.length;
      const links: any[] = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position: positionOf(text, lastId + 2) });
      const callId = text.slice(lastId, text.indexOf('"', lastId));
      const definedAt = text.indexOf(`"id": "${callId}"`) + '"id": '.length;
      assert.deepEqual(links[0].targetSelectionRange.start, positionOf(text, definedAt));

      // The outline names the first event by its content: the characters themselves came through, not only their count.
      const symbols: any[] = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
      assert.equal(symbols[0].name, `#0 user: ${firstRequest}`);
      assert.equal(await server.shutdown(), 0);
    } finally {
      server.kill();
    }
  });

  it('ends when its input closes without a shutdown', async () => {
    const server = new ServerProcess();
    await server.initialize();
    server.endInput();
    assert.equal(await server.exited, 'exit code 1');
  });
});
