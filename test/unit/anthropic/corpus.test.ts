import { test, type TestContext } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { Span } from '../../../server/src/common/types';
import { anthropicService } from '../../../server/src/anthropic';
import { languageForDocument, languageForFile } from '../../../server/src/languages';

// The cassettes are YAML (VCR recordings); js-yaml reads them (a development dependency, for these tests only).
const yaml = require('js-yaml') as { load(text: string): unknown };

const context: ServiceContext = { settings: defaultSettings };
const cassettes = path.resolve(__dirname, '../../../..', '../shared/corpus/formats/api-cassettes');
const toRange = (span: Span) => ({ start: { line: 0, character: span.start }, end: { line: 0, character: span.end } });

function corpusOrSkip(t: TestContext): boolean {
  if (existsSync(cassettes)) return true;
  if (process.env.CI) assert.fail(`corpus not found at ${cassettes}`);
  t.skip(`corpus not found at ${cassettes}`);
  return false;
}

interface Cassette {
  interactions: { request: { parsed_body: unknown }; response: { parsed_body: unknown } }[];
}

/** The recorded bodies of a cassette in the order they were sent: request, response, request, response, … */
function bodies(name: string): unknown[] {
  const cassette = yaml.load(readFileSync(path.join(cassettes, name), 'utf8')) as Cassette;
  // A body recorded as text (not JSON) has no parsed_body.
  return cassette.interactions.flatMap((interaction) => [interaction.request.parsed_body, interaction.response.parsed_body]).filter((body) => body !== undefined);
}

/** Every body as a pretty-printed `.json` file (as SDKs and proxies dump them), with its problems as `severity code "text"`. */
function checkBodies(name: string): string[][] {
  return bodies(name).map((body, i) => {
    const text = JSON.stringify(body, null, 2);
    const uri = `file:///work/${name}.${i}.json`;
    assert.equal(languageForFile(`/work/${name}.${i}.json`, text), 'agent-trace-anthropic', `${name} body ${i}`);
    assert.equal(languageForDocument(uri, 'json', text), 'agent-trace-anthropic', `${name} body ${i}`);
    const model = anthropicService.parse({ uri, version: 1, text });
    assert.ok(anthropicService.symbols(model).length > 0, `${name} body ${i} has an outline`);
    assert.ok(anthropicService.graph!(model, { toRange }, context).nodes.length > 0, `${name} body ${i} is drawn`);
    return anthropicService.validate(model, context).map((p) => `${p.severity} ${p.code} ${text.slice(p.span.start, p.span.end)}`);
  });
}

test('the memory tool cassette: no fault; the call of the first response is what the caller runs next, answered in the next request', (t) => {
  if (!corpusOrSkip(t)) return;
  assert.deepEqual(checkBodies('anthropic_memory_tool.yaml'), [
    [],
    ['information anthropic/unanswered-call "toolu_01YC8RhZeDTZRbb8n1gUFTmb"'],
    [],
    [],
  ]);
  // The second request: its tool_result goes to the call it answers, and the hover shows the call as name(args).
  const [, , second] = bodies('anthropic_memory_tool.yaml');
  const text = JSON.stringify(second, null, 2);
  const model = anthropicService.parse({ uri: 'file:///work/second.json', version: 1, text });
  const answer = text.lastIndexOf('"toolu_01YC8RhZeDTZRbb8n1gUFTmb"');
  const [call] = anthropicService.definition(model, answer + 3);
  assert.equal(call.selection?.start, text.indexOf('"toolu_01YC8RhZeDTZRbb8n1gUFTmb"'));
  assert.match(anthropicService.hover(model, answer + 3, context)!.markdown, /`memory\(command="view", path="\/memories"\)`[\s\S]*The user lives in Mexico City\./);
});

test('the memory tool cassette as JSON Lines: each request with its response is a conversation, no fault', (t) => {
  if (!corpusOrSkip(t)) return;
  const text = `${bodies('anthropic_memory_tool.yaml').map((body) => JSON.stringify(body)).join('\n')}\n`;
  assert.equal(languageForFile('/work/log.jsonl', text), 'agent-trace-anthropic');
  const model = anthropicService.parse({ uri: 'file:///work/log.jsonl', version: 1, text });
  assert.equal(model.conversations.length, 2);
  assert.deepEqual(anthropicService.validate(model, context).map((p) => `${p.severity} ${p.code}`), ['information anthropic/unanswered-call']);
});

test('the code execution cassette: no fault; each server tool call is answered by its result in the same message', (t) => {
  if (!corpusOrSkip(t)) return;
  assert.deepEqual(checkBodies('anthropic_code_execution_tool.yaml'), [[], [], [], []]);
  const [, response] = bodies('anthropic_code_execution_tool.yaml');
  const text = JSON.stringify(response, null, 2);
  const model = anthropicService.parse({ uri: 'file:///work/response.json', version: 1, text });
  const [conversation] = model.conversations;
  assert.deepEqual(conversation.calls.map((call) => [call.name, call.outputs.map((output) => output.type)]), [['bash_code_execution', ['bash_code_execution_tool_result']]]);
  const outline = anthropicService.symbols(model);
  assert.deepEqual(outline[0].children?.map((child) => [child.name, child.detail]), [['bash_code_execution(command="echo $((3 * 12390))")', 'run by the API']]);
});

test('the OpenAI cassettes are not Anthropic conversations: left to the other readers', (t) => {
  if (!corpusOrSkip(t)) return;
  for (const name of ['openai_responses_history_with_combined_tool_call_id.yaml', 'openai_responses_model_simple_response_with_tool_call.yaml', 'openai_responses_openai_conversation_id_tool_call_continuation.yaml']) {
    for (const body of bodies(name)) {
      const text = JSON.stringify(body, null, 2);
      assert.notEqual(languageForDocument('file:///work/body.json', 'json', text), 'agent-trace-anthropic', name);
      assert.notEqual(languageForFile('/work/body.json', text), 'agent-trace-anthropic', name);
    }
  }
});
