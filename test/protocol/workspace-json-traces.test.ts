// Over stdio: a workspace whose traces are `.json` files named as their writers name them (an Anthropic Messages
// request body, a file of OpenTelemetry spans), none of them open. The rule file's lens counts their violations and
// `tool:` hover lists the tools they call, as `agent-traces check` finds them in a folder; a `package.json` and a
// `.json` array of chat messages not named as a trace stay out of both.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';
import { conventionsRun, otlpLine } from '../unit/otel/samples';

/** An Anthropic Messages request body asking for get_weather (imitates api-cassettes' Anthropic bodies). */
const conversation = JSON.stringify({
  model: 'claude-sonnet-4-5', max_tokens: 1024,
  messages: [
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'sunny' }] },
  ],
}, null, 2);
const ruleText = 'raise "a tool was called" if:\n    (call: ToolCall)\n    call is tool:get_weather or call is tool:write_file\n';

describe('a workspace of .json traces that are not open', () => {
  const server = new ServerProcess();
  const folder = mkdtempSync(join(tmpdir(), 'json-traces-workspace-'));
  const uri = (name: string) => pathToFileURL(join(folder, name)).toString();

  before(async () => {
    writeFileSync(join(folder, 'weather-request.json'), conversation);
    writeFileSync(join(folder, 'agent-spans.json'), otlpLine(conventionsRun()));
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'weather', version: '1.0.0' }));
    writeFileSync(join(folder, 'notes.json'), JSON.stringify([{ role: 'assistant', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] }]));
    await server.initialize(pathToFileURL(folder).toString());
    await server.configured;
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('counts their violations in the rule file\'s lens, with links to the characters', async () => {
    const ruleFile = uri('tools.gr');
    const refreshed = server.nextLensRefresh();
    server.open(ruleFile, 'guardrail', ruleText);
    const lenses = async () => await server.connection.sendRequest('textDocument/codeLens', { textDocument: { uri: ruleFile } }) as any[];
    await refreshed;
    let found = await lenses();
    while (!found.some((lens) => /workspace/.test(lens.command?.title ?? ''))) {
      await server.nextLensRefresh();
      found = await lenses();
    }
    assert.deepEqual(found.map((lens) => lens.command.title), ['2 violations in 2 traces (of 2 trace files in the workspace)']);
    assert.deepEqual(found[0].command.arguments[2].map((target: { uri: string }) => target.uri), [uri('agent-spans.json'), uri('weather-request.json')]);
  });

  it('lists the tools they call in the hover of tool:name', async () => {
    const ruleFile = uri('tools.gr');
    const character = ruleText.split('\n')[2].indexOf('tool:get_weather') + 6;
    let hover = '';
    // The tool index is built in the background after the start: ask until it has read the folder.
    for (let attempt = 0; attempt < 200 && !/Called/.test(hover); attempt++) {
      const answer = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: ruleFile }, position: { line: 2, character } }) as { contents: { value: string } } | null;
      hover = answer?.contents.value ?? '';
      if (!/Called/.test(hover)) await new Promise((resolve) => setImmediate(resolve));
    }
    assert.match(hover, /Called 1 time in 1 trace file of the workspace:/);
    assert.match(hover, /weather-request\.json/);
    assert.doesNotMatch(hover, /notes\.json|package\.json/);
  });
});
