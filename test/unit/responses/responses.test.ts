import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { responsesService, detectResponses, type ResponsesModel } from '../../../server/src/responses';
import { languageForDocument, languageForFile } from '../../../server/src/languages';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { OutlineItem } from '../../../server/src/common/types';
import { corpus, corpusOrSkip } from '../corpus';
import { recordedBodies } from './cassettes';

const context: ServiceContext = { settings: defaultSettings };
const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
const parse = (text: string): ResponsesModel => responsesService.parse({ uri: 'file:///conversation.json', version: 1, text });
const problems = (text: string) => responsesService.validate(parse(text), context).map((p) => [p.severity, p.code, text.slice(p.span.start, p.span.end), p.message]);
const outline = (items: OutlineItem[], depth = 0): string[] =>
  items.flatMap((item) => [`${'  '.repeat(depth)}${item.name}${item.detail ? ` | ${item.detail}` : ''}`, ...outline(item.children ?? [], depth + 1)]);
const body = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

test('every recorded Responses body of the corpus: recognised, and no fault but what the exchange really lacks', (t) => {
  if (!corpusOrSkip(t)) return;
  const bodies = recordedBodies(corpus);
  assert.equal(bodies.length, 10);
  for (const recorded of bodies) {
    assert.equal(detectResponses(recorded.text), recorded.side, recorded.name);
    assert.equal(languageForFile('/recordings/body.json', recorded.text), 'openai-responses', recorded.name);
    assert.equal(languageForDocument('file:///recordings/body.json', 'json', recorded.text), 'openai-responses', recorded.name);
    const found = responsesService.validate(parse(recorded.text), context);
    assert.deepEqual(found.filter((p) => p.severity === 'error' || p.severity === 'warning'), [], recorded.name);
  }
  // What the bodies lack, each for a reason: a response that ends with a call (the client runs it next), and the
  // continuation of a stored conversation, whose call is in the conversation and not in the request.
  const informations = bodies.flatMap((recorded) => responsesService.validate(parse(recorded.text), context).map((p) => `${recorded.name}: ${p.code}`));
  assert.deepEqual(informations, [
    'openai_responses_history_with_combined_tool_call_id.yaml #0 response: responses/unanswered-call',
    'openai_responses_model_simple_response_with_tool_call.yaml #0 response: responses/unanswered-call',
    'openai_responses_openai_conversation_id_tool_call_continuation.yaml #1 response: responses/unanswered-call',
    'openai_responses_openai_conversation_id_tool_call_continuation.yaml #2 request: responses/unknown-call-id',
  ]);
});

test('a recorded request: its function_call_output leads to its call by call_id; the outline and preview', (t) => {
  if (!corpusOrSkip(t)) return;
  const recorded = recordedBodies(corpus).find((found) => found.name === 'openai_responses_model_simple_response_with_tool_call.yaml #1 request')!;
  const text = recorded.text;
  const model = parse(text);
  const outputId = text.indexOf('"call_YfwRsW8sUxDKipwyhWTzOXCA"', text.indexOf('function_call_output') - 80);
  const callId = text.indexOf('"call_YfwRsW8sUxDKipwyhWTzOXCA"');
  assert.ok(outputId > callId);
  const [target] = responsesService.definition(model, outputId + 3);
  assert.deepEqual(target.selection, { start: callId, end: callId + '"call_YfwRsW8sUxDKipwyhWTzOXCA"'.length });
  assert.equal(text.slice(target.span.start, target.span.start + 1), '{');
  assert.deepEqual(outline(responsesService.symbols(model)), [
    'Request | gpt-4o · 1 call',
    'What is the capital of PotatoLand? | 1 call',
    '  get_capital: PotatoLand',
  ]);
  const graph = responsesService.graph!(model, { toRange }, context);
  assert.deepEqual(graph.nodes.map((node) => `${node.kind} ${node.title}`), ['user #0 user', 'call #1 get_capital("PotatoLand")', 'output #2 output ← get_capital']);
  assert.deepEqual(graph.edges.filter((edge) => edge.kind === 'output'), [{ from: 1, to: 2, kind: 'output' }]);
});

test('a recorded response: the call it ends with waits for the client, and the header holds its tokens', (t) => {
  if (!corpusOrSkip(t)) return;
  const recorded = recordedBodies(corpus).find((found) => found.name === 'openai_responses_history_with_combined_tool_call_id.yaml #0 response')!;
  const text = recorded.text;
  assert.deepEqual(problems(text), [['information', 'responses/unanswered-call', '"call_LIXPi261Xx3dGYzlDsOoyHGk"',
    'No output answers this call to "final_result" (id "call_LIXPi261Xx3dGYzlDsOoyHGk"): the response ends with it: your code runs the tool and sends a function_call_output with call_id "call_LIXPi261Xx3dGYzlDsOoyHGk" in the next request\'s input']]);
  const model = parse(text);
  assert.deepEqual(outline(responsesService.symbols(model)), [
    'Response resp_001fd29e2d5573f70068ece2e6dfbc819c96557f0de72802be | gpt-5-2025-08-07 · completed · 1 call · 512 tokens (103 in, 409 out)',
    'Response output | 1 call',
    '  final_result: Mexico City | unanswered',
  ]);
  assert.deepEqual(responsesService.graph!(model, { toRange }, context).totals, { calls: 1, failedCalls: 0, tokens: 512, inputTokens: 103, outputTokens: 409 });
  const hover = responsesService.hover(model, text.indexOf('"response"') + 2, context)!;
  assert.equal(hover.markdown, '**response**\n\nResponse `resp_001fd29e2d5573f70068ece2e6dfbc819c96557f0de72802be` of `gpt-5-2025-08-07` (completed)  \nCreated 2025-10-13 11:30:47 UTC.  \nUsed 512 tokens (103 in, 409 out (384 reasoning)).');
});

/** Imitates `openai_responses_history_with_combined_tool_call_id.yaml`'s request, whose call has both `id` and `call_id`. */
const history = (outputCallId: string) => body({
  model: 'gpt-5',
  input: [
    { role: 'user', content: 'What is the largest city in the user country?' },
    { type: 'function_call', id: 'fc_68477f0bb8e4819c', call_id: 'call_ZWkVhdUjupo528U9', name: 'get_user_country', arguments: '{}' },
    { type: 'function_call_output', call_id: outputCallId, output: 'Mexico' },
  ],
});

test('an output naming its call\'s item id: an error with a did-you-mean, and a quick fix that puts the call_id', () => {
  const text = history('fc_68477f0bb8e4819c');
  const model = parse(text);
  const found = responsesService.validate(model, context);
  assert.deepEqual(found.map((p) => [p.severity, p.code, text.slice(p.span.start, p.span.end), p.message, p.suggestion]), [
    ['warning', 'responses/unanswered-call', '"call_ZWkVhdUjupo528U9"',
      'No output answers this call to "get_user_country" (id "call_ZWkVhdUjupo528U9"): the API refuses a request whose input holds a call without its output ("No tool output found for function call")', undefined],
    ['error', 'responses/unknown-call-id', '"fc_68477f0bb8e4819c"',
      'call_id "fc_68477f0bb8e4819c" names no call in this file: it is the item id of the function_call in item #1 (get_user_country), whose call_id is "call_ZWkVhdUjupo528U9". Did you mean "call_ZWkVhdUjupo528U9"? An output names its call by call_id, not by the item\'s id',
      'call_ZWkVhdUjupo528U9'],
  ]);
  const [fix] = responsesService.codeFixes!(model, found);
  assert.equal(fix.title, 'Name the call by its call_id "call_ZWkVhdUjupo528U9"');
  const fixed = text.slice(0, fix.edits[0].span.start) + fix.edits[0].newText + text.slice(fix.edits[0].span.end);
  assert.equal(fixed, history('call_ZWkVhdUjupo528U9'));
  assert.deepEqual(problems(fixed), []);
  // The call's own id says it is not the link.
  const itemId = text.indexOf('"fc_68477f0bb8e4819c"');
  assert.match(responsesService.hover(model, itemId + 2, context)!.markdown, /^\*\*id\*\* of this `function_call` item: the API's own id for the item, \*\*not\*\* the link to its output/);
});

// Imitates the input items of `openai_responses_model_simple_response_with_tool_call.yaml #1 request` (a function_call
// with its arguments as a JSON string, its function_call_output by call_id), as a bare list, with the faults put in.
test('arguments that are not a JSON object, and an output before its call', () => {
  const text = body([
    { type: 'function_call_output', call_id: 'call_1', output: 'early' },
    { type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '["not", "an", "object"]' },
    { type: 'function_call', call_id: 'call_2', name: 'lookup', arguments: '{"id": 1,' },
    { type: 'function_call_output', call_id: 'call_2', output: 'ok' },
  ]);
  assert.deepEqual(problems(text).filter((p) => p[1] !== 'responses/unanswered-call'), [
    ['error', 'responses/call-id-later', '"call_1"', 'call_id "call_1" names a call made later, in item #1 (lookup(["not", "an", "object"])); an output must come after its call'],
    ['error', 'responses/arguments-json', '"[\\"not\\", \\"an\\", \\"object\\"]"', 'arguments: this string encodes an array, but the arguments must be a JSON object'],
    ['error', 'responses/arguments-json', '"', 'arguments: the JSON in this string breaks here: Unexpected end of file: expected \'}\''],
  ]);
});

// Imitates the messages of the api-cassettes bodies: the `{role, content}` user input of their requests (its content
// here as `input_text` parts, the API's list form), the `message` with `output_text` parts of
// `openai_responses_openai_conversation_id_tool_call_continuation.yaml #2 response`; the request body is that file's
// `#1 request` (gpt-4.1) with its input given as a string.
test('recognised by content, whatever the file and the language id; other JSON untouched', () => {
  const items = body([{ role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello' }] }]);
  assert.equal(detectResponses(items), 'items');
  assert.equal(languageForDocument('file:///notes/chat.txt', 'plaintext', items), 'openai-responses');
  assert.equal(languageForDocument('file:///traces/chat.json', 'agent-trace', items), 'openai-responses');
  // A `.trace.json` is an Invariant trace by its name, whatever its messages look like.
  assert.equal(languageForDocument('file:///traces/chat.trace.json', 'agent-trace', items), 'agent-trace');
  assert.equal(languageForFile('/traces/chat.trace.json', items), 'agent-trace');
  // Chat Completions content parts (audio, refusal) are a trace's as much as a Responses input's.
  assert.equal(detectResponses(body([{ role: 'user', content: [{ type: 'text', text: 'Hi' }, { type: 'input_audio', input_audio: { data: '', format: 'wav' } }] }])), undefined);
  assert.equal(detectResponses(body({ model: 'gpt-4.1', input: 'Say hi' })), 'request');
  // A list of plain role messages is an Invariant trace as much as an input: it stays a trace.
  const trace = body([{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello' }]);
  assert.equal(detectResponses(trace), undefined);
  assert.equal(languageForDocument('file:///traces/chat.trace.json', 'agent-trace', trace), 'agent-trace');
  for (const other of [body({ name: 'agent-traces', version: '1.0.0' }), body({ input: [1, 2] }), body({ object: 'list', data: [] }), '', 'not json', body([{ type: 'function', function: { name: 'f' } }])]) {
    assert.equal(detectResponses(other), undefined, other);
    assert.equal(languageForDocument('file:///project/package.json', 'json', other), undefined, other);
  }
  // Only the start of a big file is read: the keys that tell are there.
  const big = body({ object: 'response', output: [], padding: 'x'.repeat(2_000_000) });
  assert.equal(detectResponses(big), 'response');
});

// Imitates `openai_responses_model_simple_response_with_tool_call.yaml #1 request` (a model, an input holding a
// call and its output), cut after its output as an editor holds it mid-typing.
test('a broken document still has its items, its syntax error and its links', () => {
  const text = '{\n  "model": "gpt-4.1",\n  "input": [\n    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},\n    {"type": "function_call_output", "call_id": "c1", "output": "x"},\n';
  const model = parse(text);
  assert.equal(model.steps.length, 2);
  assert.equal(model.calls[0].outputs.length, 1);
  const found = problems(text);
  assert.deepEqual(found.map((p) => [p[0], p[1]]), [['error', 'responses/syntax']]);
});

// Items being typed in the shapes of `openai_responses_model_simple_response_with_tool_call.yaml #1 request`'s input:
// an item's type, a function_call_output's keys, a user message's content parts and a message's role.
test('completion of item types, part types and an item\'s keys', () => {
  const complete = (text: string, offset: number) => responsesService.completion(parse(text), offset, context).map((entry) => entry.label);
  const typed = '[{"type": "';
  const types = complete(`${typed}"}]`, typed.length);
  assert.ok(types.includes('function_call') && types.includes('function_call_output') && types.includes('reasoning'), types.join());
  const keys = '[{"type": "function_call_output", }]';
  assert.deepEqual(complete(keys, keys.length - 2).sort(), ['call_id', 'id', 'output', 'status']);
  const part = '[{"role": "user", "content": [{"type": "';
  assert.ok(complete(`${part}"}]}]`, part.length).includes('input_text'));
  const role = '[{"type": "message", "role": "';
  assert.deepEqual(complete(`${role}"}]`, role.length), ['user', 'assistant', 'system', 'developer']);
});

// Imitates the call and output of `openai_responses_model_simple_response_with_tool_call.yaml #1 request`, the output
// given as a list of `input_text` parts (the API's other form of an output; the corpus's are strings).
test('hover docs for item types, part types and fields', () => {
  const text = body([{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }, { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'ok' }] }]);
  const model = parse(text);
  assert.match(responsesService.hover(model, text.indexOf('"function_call"') + 2, context)!.markdown, /^\*\*function_call\*\* item\n\nA call of a function tool the model made/);
  assert.match(responsesService.hover(model, text.indexOf('"arguments"') + 2, context)!.markdown, /^\*\*arguments\*\*\n\nThe arguments, as a \*\*JSON string\*\*/);
  assert.match(responsesService.hover(model, text.indexOf('"input_text"') + 2, context)!.markdown, /^\*\*input_text\*\* content part/);
});
