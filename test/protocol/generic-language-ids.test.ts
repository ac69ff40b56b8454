import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';

/** What editors without our language ids send (Neovim's default filetypes for these files). */
const files: { uri: string; languageId: string; text: string; expected: string[] }[] = [
  {
    uri: 'file:///workspace/inbox.trace.json',
    languageId: 'json',
    text: '[{"role": "tool", "tool_call_id": "call_9", "content": "orphan"}]',
    expected: ['error trace/unknown-call-id 0:34-0:42'],
  },
  {
    uri: 'file:///workspace/runs.trace.jsonl',
    languageId: 'jsonl',
    text: '{"index": 0, "messages": [{"role": "tool", "tool_call_id": "x", "content": "y"}]}\n{"index": 0, "messages": []}\n',
    expected: ['error trace/unknown-call-id 0:59-0:62', 'error jsonl/index-duplicate 1:10-1:11'],
  },
  {
    uri: 'file:///workspace/agentguard.jsonl',
    languageId: 'plaintext',
    text: '{"call":{"call_id":"a","tool_name":"ls","args":[],"kwargs":{},"timestamp":"2026-11-22T11:36:17Z","session_id":null,"metadata":{}},'
      + '"result":{"call_id":"a","tool_name":"ls","status":"succeeded","return_value":null,"exception":null,"exception_type":null,'
      + '"execution_time_ms":1,"retry_count":0,"validations":[],"hallucination":null,"cost":null,"provider":null,"model":null,"usage":null,'
      + '"cost_breakdown":null,"cost_estimated":false,"cost_known":false,"timestamp":"2026-11-22T11:36:18Z"}}\n',
    expected: ['error ag/status 0:180-0:191'],
  },
  {
    uri: 'file:///workspace/policy%20one.gr',
    languageId: 'plaintext',
    text: 'raise "x" if:\n    (out: Outputt)\n',
    expected: ['error gr/unknown-type 1:5-1:17'],
  },
  {
    uri: 'file:///workspace/notes.trace.json',
    languageId: 'jsonc',
    text: '[{"role": 5}]',
    expected: ['error trace/role-type 0:10-0:11'],
  },
];

const describeDiagnostic = (d: { severity?: number; code?: number | string; range: { start: { line: number; character: number }; end: { line: number; character: number } } }) =>
  `${['', 'error', 'warning', 'information', 'hint'][d.severity ?? 0]} ${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`;

describe('generic language ids: the server decides the language from the file name and first line', () => {
  const server = new ServerProcess();

  before(async () => {
    await server.initialize();
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  for (const file of files) {
    it(`${file.uri.split('/').pop()} opened as "${file.languageId}" gets its diagnostics`, async () => {
      server.open(file.uri, file.languageId, file.text);
      const diagnostics = await server.diagnosticsFor(file.uri, 1);
      assert.deepEqual(diagnostics.filter((d) => d.severity !== 4).map(describeDiagnostic), file.expected);
    });
  }

  it('serves requests on them too, and leaves other JSON files alone', async () => {
    const symbols = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: files[0].uri } });
    assert.equal((symbols as unknown[]).length, 1);
    const other = 'file:///workspace/package.json';
    server.open(other, 'json', '{"name": "x"}');
    const none = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: other } });
    assert.deepEqual(none, []);
    const unknownJsonl = 'file:///workspace/other.jsonl';
    server.open(unknownJsonl, 'jsonl', '{"x": 1}\n');
    assert.deepEqual(await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: unknownJsonl } }), []);
  });
});
