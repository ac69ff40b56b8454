import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { Problem, Span } from '../../../server/src/common/types';
import { anthropicService, type ConversationModel } from '../../../server/src/anthropic';
import { languageForDocument, languageForFile } from '../../../server/src/languages';

const context: ServiceContext = { settings: defaultSettings };
const toRange = (span: Span) => ({ start: { line: 0, character: span.start }, end: { line: 0, character: span.end } });

function parse(text: string, uri = 'file:///work/conversation.json'): ConversationModel {
  return anthropicService.parse({ uri, version: 1, text });
}

/** Problems as `code "covered text" message`. */
function problems(text: string, uri?: string): string[] {
  return anthropicService.validate(parse(text, uri), context).map((p: Problem) => `${p.severity} ${p.code} ${JSON.stringify(text.slice(p.span.start, p.span.end))} ${p.message}`);
}

function spanOf(text: string, needle: string, nth = 0): Span {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    assert.notEqual(at, -1, `'${needle}' occurrence ${nth} not found`);
  }
  return { start: at, end: at + needle.length };
}

const cover = (text: string, span: Span | undefined) => (span ? text.slice(span.start, span.end) : undefined);

/** A request of a weather agent: a system prompt, one tool, a prompt, a call, its failed result and the answer. */
const request = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: 'You answer questions about the weather.',
  tools: [{ name: 'get_weather', description: 'The weather in a city.', input_schema: { type: 'object', properties: { location: { type: 'string' } } } }],
  messages: [
    { role: 'user', content: 'What is the weather in Paris?' },
    { role: 'assistant', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { location: 'Paris' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'city not found', is_error: true }] },
    { role: 'assistant', content: [{ type: 'text', text: 'I could not find Paris.' }] },
  ],
}, null, 2);

test('requests, responses, lists and lines of messages are recognised by content, whatever the language id; other JSON is left alone', () => {
  const response = JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi' }], stop_reason: 'end_turn' });
  const list = JSON.stringify([{ role: 'user', content: 'hi' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] }]);
  const lines = `${JSON.stringify(JSON.parse(request))}\n${response}\n`;
  for (const id of ['json', 'jsonc', 'jsonl', 'plaintext', 'made-up']) {
    assert.equal(languageForDocument('file:///work/request.json', id, request), 'agent-trace-anthropic', id);
    assert.equal(languageForDocument('file:///work/response.json', id, response), 'agent-trace-anthropic', id);
    assert.equal(languageForDocument('file:///work/list.json', id, list), 'agent-trace-anthropic', id);
    assert.equal(languageForDocument('file:///work/log.jsonl', id, lines), 'agent-trace-anthropic', id);
  }
  // An editor that called it a trace by its first line, and our own id: the content decides, but *.trace.json stays a trace.
  assert.equal(languageForDocument('file:///work/log.jsonl', 'agent-trace-jsonl', lines), 'agent-trace-anthropic');
  assert.equal(languageForDocument('file:///work/a.trace.json', 'agent-trace', request), 'agent-trace');
  assert.equal(languageForDocument('file:///work/a.trace.json', 'json', request), 'agent-trace');
  assert.equal(languageForFile('/work/request.json', request), 'agent-trace-anthropic');
  assert.equal(languageForFile('/work/log.jsonl', lines), 'agent-trace-anthropic');
  assert.equal(languageForFile('/work/a.trace.json', request), 'agent-trace');
  // OpenAI-style chats, a chat with text blocks only and nothing of Anthropic's, and other JSON are not conversations.
  const openai = JSON.stringify({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'hi' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] }] });
  assert.equal(languageForDocument('file:///work/chat.json', 'json', openai), undefined);
  assert.equal(languageForFile('/work/chat.json', openai), 'agent-trace');
  const textOnly = JSON.stringify({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
  assert.equal(languageForDocument('file:///work/chat.json', 'json', textOnly), undefined);
  assert.equal(languageForDocument('file:///work/package.json', 'json', '{"type":"module","name":"x","system":1}'), undefined);
  assert.equal(languageForDocument('file:///work/events.jsonl', 'jsonl', '{"type":"click"}\n{"type":"message"}\n'), undefined);
});

test('a conversation whose only fault is a failed tool: the failure is shown on the call, nothing else is reported', () => {
  assert.deepEqual(problems(request), [
    'information anthropic/tool-error "\\"get_weather\\"" The tool "get_weather" failed: its tool_result in messages[2] reports an error: city not found',
  ]);
  const [problem] = anthropicService.validate(parse(request), context);
  assert.deepEqual(problem.span, spanOf(request, '"get_weather"', 1));
  assert.deepEqual(problem.related?.map((info) => cover(request, info.span)), ['"toolu_01"']);
});

test('link faults: an output naming no call, a call answered late or never, a duplicate id, input that is not an object', () => {
  const text = JSON.stringify({
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Go' }, { type: 'tool_result', tool_use_id: 'toolu_ghost', content: 'x' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'ls', input: '{"path": "."}' }, { type: 'tool_use', id: 'toolu_b', name: 'ls', input: [1] }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'a.txt' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a', name: 'cat', input: {} }] },
      { role: 'user', content: [{ type: 'text', text: 'and?' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'late' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_end', name: 'ls', input: {} }] },
    ],
  });
  assert.deepEqual(problems(text), [
    'error anthropic/unknown-call-id "\\"toolu_ghost\\"" tool_use_id "toolu_ghost" names no tool_use in this conversation',
    'warning anthropic/input-not-object "\\"{\\\\\\"path\\\\\\": \\\\\\".\\\\\\"}\\"" "input" is an object in the Messages API; here it is the object written as a JSON string (as a reassembled stream leaves it): the API refuses it when it is sent back',
    'warning anthropic/unanswered-call "\\"toolu_b\\"" No tool_result answers this call to "ls" (id "toolu_b"): the conversation goes on (messages[2]) without it; the API refuses a tool_use that the next user message does not answer',
    'error anthropic/input-not-object "[1]" "input" is the arguments as an object, not a list',
    'warning anthropic/duplicate-call-id "\\"toolu_a\\"" Duplicate tool_use id "toolu_a": already used in messages[1]; model providers reject repeated ids (the analyzer links each output to the latest call with its id, so every link here is clear)',
    'warning anthropic/result-not-next "\\"toolu_a\\"" This tool_result answers a call of messages[3], but is not in the user message right after it (messages[4]): the API refuses a tool_use whose result does not follow at once',
    'information anthropic/unanswered-call "\\"toolu_end\\"" No tool_result answers this call to "ls" (id "toolu_end"): the conversation ends here: the caller runs the tool and sends its tool_result in the next request',
  ]);
});

test('what the API refuses in a message: a wrong role, blocks on the wrong side, a call without name, keys it does not define', () => {
  const text = JSON.stringify({
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'tool_use', id: 't1', input: {} }, { type: 'thinking', thinking: 'hm' }] },
      { role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }, { type: 'text', text: 'ok', colour: 'red' }, { type: 'hologram' }] },
    ],
  });
  assert.deepEqual(problems(text), [
    'error anthropic/wrong-role "\\"system\\"" The role of a message is "user" or "assistant": the system prompt goes in the request\'s "system"',
    'error anthropic/missing-key "{" A tool call needs "name"',
    'error anthropic/wrong-side "\\"tool_use\\"" A tool_use block belongs in an assistant message, not in a user message',
    'error anthropic/wrong-side "\\"thinking\\"" A thinking block belongs in an assistant message, not in a user message',
    'error anthropic/wrong-side "\\"tool_result\\"" A tool_result block belongs in a user message, not in an assistant message',
    'hint anthropic/unknown-key "\\"colour\\"" "colour" is not a key of a text block',
    'hint anthropic/unknown-block-type "\\"hologram\\"" Block type "hologram" is not one this reader knows; the API may have added it',
  ]);
  assert.deepEqual(anthropicService.validate(parse(text), { settings: { ...defaultSettings, unknownKeyHints: false } }).map((p) => p.code).filter((code) => code.startsWith('anthropic/unknown')), []);
});

test('go to definition, references and highlights link a tool_use id and its tool_result both ways, and a call to its tool', () => {
  const model = parse(request);
  const id = spanOf(request, '"toolu_01"', 0);
  const answer = spanOf(request, '"toolu_01"', 1);
  const [toCall] = anthropicService.definition(model, answer.start + 3);
  assert.deepEqual(toCall.selection, id);
  assert.match(cover(request, toCall.span)!, /^\{\s*"type": "tool_use",[\s\S]*"Paris"\s*\}\s*\}$/);
  const [toResult] = anthropicService.definition(model, id.start + 3);
  assert.deepEqual(toResult.selection, answer);
  assert.match(cover(request, toResult.span)!, /^\{\s*"type": "tool_result"[\s\S]*"is_error": true\s*\}$/);
  assert.deepEqual(anthropicService.references(model, id.start + 3, true).map((target) => target.span), [id, answer]);
  assert.deepEqual(anthropicService.highlights(model, answer.start + 3), [{ span: id, kind: 'write' }, { span: answer, kind: 'read' }]);
  // The call's tool name: the tool's definition in `tools`, and every call of it.
  const callName = spanOf(request, '"get_weather"', 1);
  const [toTool] = anthropicService.definition(model, callName.start + 2);
  assert.deepEqual(toTool.selection, spanOf(request, '"get_weather"', 0));
  assert.deepEqual(anthropicService.references(model, callName.start + 2, true).map((target) => cover(request, target.span)), ['"get_weather"', '"get_weather"']);
  assert.equal(anthropicService.prepareRename!(model, id.start + 3), null);
  assert.match(anthropicService.renameRefusal!(model, id.start + 3) ?? '', /written by the API/);
});

test('hover: the call as name(args) with its output on either id, and the API\'s docs on block types, keys, roles and tools', () => {
  const model = parse(request);
  const answer = spanOf(request, '"toolu_01"', 1);
  const onResult = anthropicService.hover(model, answer.start + 2, context)!;
  assert.deepEqual(onResult.span, answer);
  assert.match(onResult.markdown, /\*\*Answers\*\* `get_weather\(location="Paris"\)` — messages\[1\], id `toolu_01`/);
  assert.match(onResult.markdown, /Output in messages\[2\] \(the tool reports an error\):\n```text\ncity not found\n```/);
  const onCall = anthropicService.hover(model, spanOf(request, '"toolu_01"').start + 2, context)!;
  assert.match(onCall.markdown, /^\*\*Tool call\*\* `get_weather\(location="Paris"\)`/);
  const onType = anthropicService.hover(model, spanOf(request, '"tool_result"').start + 2, context)!;
  assert.deepEqual(onType.span, spanOf(request, '"tool_result"'));
  assert.match(onType.markdown, /^\*\*tool_result\*\* block\n\nThe result of a tool call/);
  const isError = spanOf(request, '"is_error"');
  assert.deepEqual(anthropicService.hover(model, isError.start + 2, context), { span: isError, markdown: `**is_error** (\`tool_result\` block of the Messages API)\n\nTrue when the tool failed: \`content\` then says why, and the model is told the call did not succeed.` });
  assert.match(anthropicService.hover(model, spanOf(request, '"system"').start + 2, context)!.markdown, /^\*\*system\*\* \(request of the Messages API\)/);
  assert.match(anthropicService.hover(model, spanOf(request, '"assistant"').start + 2, context)!.markdown, /^\*\*assistant\*\* message/);
  const tool = anthropicService.hover(model, spanOf(request, '"get_weather"', 1).start + 2, context)!;
  assert.equal(tool.markdown, '**get_weather** (tool)\n\n> The weather in a city.\n\n1 call in this conversation, 1 failed.');
});

test('the outline: the system prompt, the tools, each prompt with the calls of its answers, the failed one marked', () => {
  const outline = anthropicService.symbols(parse(request));
  assert.deepEqual(outline.map((item) => [item.name, item.kind, item.detail]), [
    ['System: You answer questions about the weather.', 'metadata', undefined],
    ['Tools: get_weather', 'tools', undefined],
    ['What is the weather in Paris?', 'message', 'messages[0] · 1 call, 1 failed'],
  ]);
  const [call] = outline[2].children!;
  assert.deepEqual([call.name, call.kind, call.detail, cover(request, call.selection)], ['✗ get_weather(location="Paris")', 'event', 'failed', '"get_weather"']);
  assert.ok(outline[2].span.end >= spanOf(request, 'I could not find Paris.').end, 'the turn runs to its last answer');
});

test('the preview draws each message, the call inside its message, an edge to its failed result', () => {
  const graph = anthropicService.graph!(parse(request), { toRange }, context);
  assert.equal(graph.format, 'anthropic');
  assert.deepEqual(graph.nodes.map((node) => [node.kind, node.title, node.failed ?? false]), [
    ['system', 'sys system', false],
    ['user', '#0 user', false],
    ['assistant', '#1 assistant', false],
    ['call', 'get_weather(location="Paris")', true],
    ['output', '#2 error ← get_weather', true],
    ['assistant', '#3 assistant', false],
  ]);
  assert.ok(graph.edges.some((edge) => edge.kind === 'output' && edge.from === 3 && edge.to === 4));
  assert.equal(graph.nodes[4].text, 'city not found');
});

test('completion: block types the role may hold, keys of a block by its type, ids of unanswered calls, tool names', () => {
  const typing = (before: string, after: string) => {
    const text = before + after;
    return anthropicService.completion(parse(text), before.length, context).map((entry) => entry.label);
  };
  const head = '{"model": "claude-sonnet-4-5", "tools": [{"name": "ls", "input_schema": {}}], "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "ls", "input": {}}]}, {"role": "user", "content": [';
  assert.deepEqual(typing(`${head}{"type": "`, '"}]}]}'), ['text', 'image', 'document', 'search_result', 'tool_result', 'container_upload']);
  assert.deepEqual(typing(`${head}{"type": "tool_result", "`, '"}]}]}'), ['tool_use_id', 'content', 'is_error', 'cache_control']);
  assert.deepEqual(typing(`${head}{"type": "tool_result", "tool_use_id": "`, '"}]}]}'), ['t1']);
  const assistant = '{"model": "claude-sonnet-4-5", "tools": [{"name": "ls", "input_schema": {}}], "messages": [{"role": "assistant", "content": [{"type": "tool_use", "name": "';
  assert.deepEqual(typing(assistant, '"}]}]}'), ['ls']);
  assert.deepEqual(typing('{"model": "claude-sonnet-4-5", "messages": [{"', '"}]}'), ['role', 'content']);
});

test('JSON Lines: each request with the response on the line after it is a conversation; a line of something else is said so', () => {
  const first = JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: [{ type: 'text', text: 'List files' }] }] });
  const reply = JSON.stringify({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'ls', input: {} }], stop_reason: 'tool_use' });
  const second = JSON.stringify({ model: 'claude-sonnet-4-5', messages: [
    { role: 'user', content: [{ type: 'text', text: 'List files' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'ls', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'a.txt' }] },
  ] });
  const text = `${first}\n${reply}\n${second}\n{"note": 1}\n`;
  const model = parse(text, 'file:///work/log.jsonl');
  assert.equal(model.lines, true);
  assert.equal(model.conversations.length, 2);
  // The response's call is answered in the next request, another conversation: what the caller runs next, not a fault.
  assert.deepEqual(problems(text, 'file:///work/log.jsonl'), [
    'information anthropic/unanswered-call "\\"toolu_9\\"" No tool_result answers this call to "ls" (id "toolu_9"): the conversation ends here: the caller runs the tool and sends its tool_result in the next request',
    'warning anthropic/not-a-message "{\\"note\\": 1}" Line 4 is not a request, a response or a message of the Messages API, so it is not read',
  ]);
  assert.deepEqual(anthropicService.symbols(model).map((item) => item.name), ['Conversation 1: List files', 'Conversation 2: List files']);
  const graph = anthropicService.graph!(model, { toRange, traceIndex: 1 }, context);
  assert.deepEqual(graph.traces.map((trace) => trace.label), ['L1 List files', 'L3 List files']);
  assert.equal(graph.traceIndex, 1);
  assert.equal(anthropicService.definition(model, spanOf(text, '"toolu_9"', 2).start + 2)[0].selection?.start, spanOf(text, '"toolu_9"', 1).start);
});

test('broken JSON is reported where it breaks, and what was read still links', () => {
  const text = '{"model": "claude-x", "messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "ls", "input": {}}]}, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"';
  const model = parse(text);
  const found = anthropicService.validate(model, context);
  assert.ok(found.every((p) => p.code === 'json/syntax'), found.map((p) => p.code).join());
  assert.ok(found.length > 0);
  assert.equal(model.conversations[0].calls[0].outputs.length, 1);
});
