import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';

/** A request body a proxy dumped, opened by an editor that knows only `json`. */
const text = `{
  "model": "claude-sonnet-4-5",
  "max_tokens": 1024,
  "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
  "messages": [
    {"role": "user", "content": "Weather in Paris?"},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"location": "Paris"}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "18 C"}, {"type": "tool_result", "tool_use_id": "toolu_02", "content": "?"}]}
  ]
}
`;
const uri = 'file:///workspace/request.json';
const lineOf = (needle: string, nth = 0) => {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = text.indexOf(needle, at + 1);
  const before = text.slice(0, at);
  return { line: before.split('\n').length - 1, character: at - before.lastIndexOf('\n') - 1 };
};

describe('an Anthropic conversation opened as "json": diagnostics, navigation, hover, outline and preview through the bundled server', () => {
  const server = new ServerProcess();

  before(async () => {
    await server.initialize();
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('reports the tool_result naming no call, exactly where its id is', async () => {
    server.open(uri, 'json', text);
    const diagnostics = await server.diagnosticsFor(uri, 1);
    const ghost = lineOf('"toolu_02"');
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity, d.range.start, d.range.end]), [
      ['anthropic/unknown-call-id', 1, ghost, { line: ghost.line, character: ghost.character + 10 }],
    ]);
  });

  it('goes from a tool_use_id to its tool_use, hovers with the call and its output, outlines and draws the conversation', async () => {
    const answer = lineOf('"toolu_01"', 1);
    const position = { line: answer.line, character: answer.character + 3 };
    const definition: any = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri }, position });
    const call = lineOf('"toolu_01"');
    const targets = Array.isArray(definition) ? definition : [definition];
    assert.deepEqual(targets.map((target: any) => (target.targetSelectionRange ?? target.range).start), [call]);
    const hover: any = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position });
    assert.match(hover.contents.value, /`get_weather\(location="Paris"\)`[\s\S]*18 C/);
    const symbols: any = await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(symbols.map((symbol: any) => symbol.name), ['Tools: get_weather', 'Weather in Paris?']);
    assert.deepEqual(symbols[1].children.map((child: any) => child.name), ['get_weather(location="Paris")']);
    const graph: any = await server.connection.sendRequest('agentTraces/graph', { uri });
    assert.equal(graph.format, 'anthropic');
    assert.deepEqual(graph.nodes.map((node: any) => node.kind), ['user', 'assistant', 'call', 'output']);
  });

  it('tells a client which JSON documents are conversations, so it can give them our language', async () => {
    assert.equal(await server.connection.sendRequest('agentTraces/recognizeDocument', { uri: 'file:///workspace/other.json', languageId: 'json', text }), 'agent-trace-anthropic');
    assert.equal(await server.connection.sendRequest('agentTraces/recognizeDocument', { uri: 'file:///workspace/a.json', languageId: 'json', text: '{"system": "linux"}' }), null);
    assert.equal(await server.connection.sendRequest('agentTraces/recognizeDocument', { uri: 'file:///workspace/a.trace.json', languageId: 'json', text }), null);
  });

  it('leaves other JSON files alone', async () => {
    const other = 'file:///workspace/tsconfig.json';
    server.open(other, 'json', '{"compilerOptions": {"strict": true}}');
    assert.deepEqual(await server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: other } }), []);
    assert.equal(await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: other }, position: { line: 0, character: 3 } }), null);
  });
});
