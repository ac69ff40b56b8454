import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRulesOnTrace, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { tracesInText } from '../../../server/src/rulesOnTraces/tracesInText';
import { isConverted, traceLayoutOfFile, type TraceLayout } from '../../../server/src/traceFormats';
import { defaultSettings, type LanguageService, type ServiceContext } from '../../../server/src/common/languageService';
import { anthropicService } from '../../../server/src/anthropic';
import { jsonlService } from '../../../server/src/jsonl';
import { responsesService } from '../../../server/src/responses';

const context: ServiceContext = { settings: defaultSettings };

function rules(source: string): RuleFile {
  const uri = 'file:///w/rules/formats.gr';
  return { uri, model: guardrailService.parse({ uri, version: 1, text: source }) as RuleModel };
}

function layoutOf(path: string, text: string): TraceLayout {
  const layout = traceLayoutOfFile(path, text);
  assert.ok(isConverted(layout), `${path} is read as a format that converts`);
  return layout;
}

function converted(path: string, text: string): unknown[][] {
  return [...tracesInText(text, layoutOf(path, text), path)].map((found) => {
    assert.equal(found.problem, undefined);
    return found.trace as unknown[];
  });
}

function marked(path: string, text: string, source: string): string[] {
  return evaluateRulesOnTrace([rules(source)], text, layoutOf(path, text), { workBudget: 1_000_000, path }).violations.map((v) => text.slice(v.span.start, v.span.end));
}

const shellRule = 'raise "rm" if:\n    (call: ToolCall)\n    call is tool:shell\n    "rm -rf" in call.function.arguments.command\n';
const outputRule = 'raise "key" if:\n    (out: ToolOutput)\n    any(find(r"AKIA[0-9A-Z]{16}", out.content))\n';

// Written for these tests after the shapes of the corpus's Responses cassettes and Codex rollouts.
const responsesRequest = `${JSON.stringify({
  model: 'gpt-5',
  instructions: 'Be careful.',
  input: [
    { role: 'user', content: [{ type: 'input_text', text: 'clean up' }] },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }] },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{"command":"rm -rf /tmp/x"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'removed\nAKIAIOSFODNN7EXAMPLE' },
    { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
    { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }, { type: 'output_text', text: 'really' }] },
  ],
}, null, 2)}\n`;

describe('the formats that convert to Invariant events', () => {
  it('an OpenAI Responses request: instructions, messages, calls and outputs by our mapping; reasoning and server tools dropped', () => {
    assert.deepEqual(converted('/w/request.json', responsesRequest), [[
      { role: 'system', content: 'Be careful.' },
      { role: 'user', content: 'clean up' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'shell', arguments: '{"command":"rm -rf /tmp/x"}' } }] },
      { role: 'tool', content: 'removed\nAKIAIOSFODNN7EXAMPLE', tool_call_id: 'call_1' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'apply_patch', arguments: { input: '*** Begin Patch' } } }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }, { type: 'text', text: 'really' }] },
    ]]);
  });

  it('a Responses exchange whose keys are sorted (as recorded bodies are): instructions, then input, then output', () => {
    // After the corpus's openai_responses_openai_conversation_id_tool_call_continuation.yaml bodies, whose keys are sorted.
    const sorted = `${JSON.stringify({
      input: [{ role: 'user', content: 'weather?' }],
      instructions: 'Answer briefly.',
      model: 'gpt-5',
      output: [{ type: 'function_call', id: 'fc_9', call_id: 'call_9', name: 'weather', arguments: '{}' }],
    }, null, 2)}\n`;
    assert.deepEqual(converted('/w/exchange.json', sorted), [[
      { role: 'system', content: 'Answer briefly.' },
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{}' } }] },
    ]]);
    const reversed = sorted.replace('"input"', '"inputs"').replace('"output"', '"input"').replace('"inputs"', '"output"');
    assert.deepEqual(converted('/w/exchange.json', reversed).map((trace) => trace.map((event) => (event as { role: string }).role)), [['system', 'assistant', 'user']],
      'the list named input comes before the one named output, wherever each is written');
  });

  it('places a violation in a Responses document on the exact characters: inside the arguments string, inside an output', () => {
    assert.deepEqual(marked('/w/request.json', responsesRequest, shellRule), ['rm -rf']);
    assert.deepEqual(marked('/w/request.json', responsesRequest, outputRule), ['AKIAIOSFODNN7EXAMPLE']);
  });

  it('a Codex rollout: its response items only (UI events and settings left out), a local shell call with its action', () => {
    const rollout = [
      { timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 's', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.77.0' } },
      { timestamp: '2026-01-01T00:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] } },
      { timestamp: '2026-01-01T00:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'go' } },
      { timestamp: '2026-01-01T00:00:02.000Z', type: 'response_item', payload: { type: 'local_shell_call', call_id: 'c1', status: 'completed', action: { type: 'exec', command: ['rm', '-rf', 'x'] } } },
      { timestamp: '2026-01-01T00:00:03.000Z', type: 'response_item', payload: { type: 'local_shell_call_output', call_id: 'c1', output: 'ok' } },
    ].map((record) => JSON.stringify(record)).join('\n');
    const text = `${rollout}\n{"timestamp":"2026-01-01T00:00:04.000Z","type":"resp`;
    const traces = [...tracesInText(text, layoutOf('/w/rollout-1.jsonl', text))];
    assert.equal(traces.length, 1);
    assert.deepEqual(traces[0].trace, [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'local_shell', arguments: { type: 'exec', command: ['rm', '-rf', 'x'] } } }] },
      { role: 'tool', content: 'ok', tool_call_id: 'c1' },
    ]);
    // The cut last line is named, not converted.
    assert.deepEqual(traces[0].converted?.skippedLines, [6]);
    // A rule that names the call alone marks the item it came from.
    assert.deepEqual(marked('/w/rollout-1.jsonl', text, 'raise "rm" if:\n    (call: ToolCall)\n    "rm" in call.function.arguments.command\n'), [
      '{"type":"local_shell_call","call_id":"c1","status":"completed","action":{"type":"exec","command":["rm","-rf","x"]}}',
    ]);
  });

  it('an Anthropic JSON Lines file: each request with its response is a trace of its own, starting on its line', () => {
    const request = (prompt: string) => JSON.stringify({ model: 'claude', system: 'sys', messages: [{ role: 'user', content: prompt }] });
    const response = (answer: string) => JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: answer }], stop_reason: 'end_turn' });
    const text = [request('one'), response('first'), request('two'), response('second'), ''].join('\n');
    const traces = [...tracesInText(text, layoutOf('/w/exchanges.jsonl', text), '/w/exchanges.jsonl')];
    assert.deepEqual(traces.map((found) => found.line), [1, 3]);
    assert.deepEqual(traces.map((found) => found.trace), [
      [{ role: 'system', content: 'sys' }, { role: 'user', content: 'one' }, { role: 'assistant', content: 'first' }],
      [{ role: 'system', content: 'sys' }, { role: 'user', content: 'two' }, { role: 'assistant', content: 'second' }],
    ]);
    assert.deepEqual(marked('/w/exchanges.jsonl', text, 'raise "second" if:\n    (m: Message)\n    "cond" in m.content\n'), ['cond']);
  });

  it('a broken conversation is not evaluated and says where its JSON breaks', () => {
    const text = '{"model": "claude", "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}\n';
    const layout = traceLayoutOfFile('/w/broken.json', text);
    if (!isConverted(layout)) return; // a document this broken may not be recognised at all; then it is no conversation
    const [found] = [...tracesInText(text, layout, '/w/broken.json')];
    assert.equal(found.problem?.kind, 'not-json');
    assert.match(found.problem.kind === 'not-json' ? found.problem.detail : '', /at line 2$/);
  });
});

describe('the hover on a block or item type says what rules see of it', () => {
  function hoverAt(service: LanguageService<unknown>, uri: string, text: string, at: string, nth = 0): string {
    let offset = -1;
    for (let i = 0; i <= nth; i++) offset = text.indexOf(at, offset + 1);
    assert.ok(offset >= 0, at);
    const model = service.parse({ uri, version: 1, text });
    return service.hover(model, offset + 1, context)?.markdown ?? '';
  }

  it('an Anthropic tool_result: as the gateway when it has content; where it differs when it is empty or failed', () => {
    const text = JSON.stringify({
      model: 'claude',
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }, { type: 'tool_use', id: 'toolu_2', name: 'ls', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }, { type: 'tool_result', tool_use_id: 'toolu_2', content: '', is_error: true }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'x' }, { type: 'text', text: 'done' }] },
      ],
    }, null, 2);
    const kept = hoverAt(anthropicService as LanguageService<unknown>, 'file:///w/c.json', text, '"tool_result"');
    assert.match(kept, /Rules see it as a tool output: .*As Invariant's gateway converts it\./);
    const differs = hoverAt(anthropicService as LanguageService<unknown>, 'file:///w/c.json', text, '"tool_result"', 1);
    assert.match(differs, /\*\*Differs from Invariant's gateway:\*\* Invariant's gateway drops a result whose content is empty.*; the gateway drops `is_error`; here the event keeps `is_error: true`\./);
    assert.match(hoverAt(anthropicService as LanguageService<unknown>, 'file:///w/c.json', text, '"thinking"'), /Rules do not see it: Invariant's gateway drops this block/);
  });

  it('a Claude Code session\'s tool_result block, and a Codex rollout\'s and a Responses document\'s items: our mapping, said so', () => {
    const session = [
      JSON.stringify({ type: 'user', uuid: 'u1', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'go' } }),
      JSON.stringify({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', sessionId: 's', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] } }),
      JSON.stringify({ type: 'user', uuid: 'r1', parentUuid: 'a1', sessionId: 's', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '' }] } }),
    ].join('\n');
    assert.match(hoverAt(jsonlService as LanguageService<unknown>, 'file:///w/s.jsonl', session, '"tool_result"'), /Differs from Invariant's gateway:\*\* Invariant's gateway drops a result whose content is empty/);
    const rollout = [
      JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 's', cwd: '/w', originator: 'codex_cli_rs', cli_version: '0.77.0' } }),
      JSON.stringify({ timestamp: '2026-01-01T00:00:01.000Z', type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' } }),
    ].join('\n');
    const call = hoverAt(jsonlService as LanguageService<unknown>, 'file:///w/rollout.jsonl', rollout, '"function_call"');
    assert.match(call, /Rules see it as a call: .*named `shell`, with `arguments` as written/);
    assert.match(call, /Invariant's gateway converts no Responses items: this mapping is ours/);
    assert.match(hoverAt(responsesService as LanguageService<unknown>, 'file:///w/r.json', responsesRequest, '"reasoning"'), /Rules do not see it: reasoning is left out/);
    assert.match(hoverAt(responsesService as LanguageService<unknown>, 'file:///w/r.json', responsesRequest, '"function_call_output"'), /Rules see it as a tool output/);
  });
});
