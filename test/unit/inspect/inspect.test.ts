import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { OutlineItem, Span } from '../../../server/src/common/types';
import { inspectService, type InspectModel } from '../../../server/src/inspect';
import { languageForDocument, languageForFile } from '../../../server/src/languages';
import { corpus, corpusOrSkip } from '../corpus';
import { agentLog, assistant, log, sample, tool, user } from './logs';

const context: ServiceContext = { settings: defaultSettings };
const toRange = (span: Span) => ({ start: { line: 0, character: span.start }, end: { line: 0, character: span.end } });
const inspectFolder = path.join(corpus, 'formats/inspect');

function parse(text: string): InspectModel {
  return inspectService.parse({ uri: 'file:///work/logs/2025-07-05_file-agent.json', version: 1, text });
}

/** Problems as `severity code "covered text" message`. */
function problems(text: string): string[] {
  return inspectService.validate(parse(text), context).map((p) => `${p.severity} ${p.code} ${JSON.stringify(text.slice(p.span.start, p.span.end))} ${p.message}`);
}

function at(text: string, needle: string, nth = 0): number {
  let found = -1;
  for (let i = 0; i <= nth; i++) {
    found = text.indexOf(needle, found + 1);
    assert.notEqual(found, -1, `'${needle}' occurrence ${nth} not found`);
  }
  return found;
}

const cover = (text: string, span: Span | undefined) => (span ? text.slice(span.start, span.end) : undefined);
const names = (items: OutlineItem[] | undefined): unknown[] => (items ?? []).map((item) => (item.children ? [item.name, item.detail, names(item.children)] : [item.name, item.detail]));

test('an Inspect log is recognised by its first keys whatever the language id and the name; other JSON is left alone', () => {
  const text = agentLog();
  for (const id of ['json', 'jsonc', 'plaintext', 'made-up', 'agent-trace']) {
    assert.equal(languageForDocument('file:///work/logs/2025-07-05T09-59-40_file-agent_E1.json', id, text), 'agent-trace-inspect', id);
  }
  assert.equal(languageForFile('/work/logs/run.json', text), 'agent-trace-inspect');
  // Only its beginning is read: the client sends no more for a big log.
  assert.equal(languageForDocument('file:///work/logs/run.json', 'json', text.slice(0, 2000)), 'agent-trace-inspect');
  // A trace file is a trace by its name; other JSON with an `eval` or a `version` is not a log.
  assert.equal(languageForDocument('file:///work/a.trace.json', 'json', text), 'agent-trace');
  for (const other of [
    JSON.stringify({ name: 'pkg', version: '1.0.0', scripts: { eval: 'node eval.js' } }),
    JSON.stringify({ version: 2, eval: { note: 'no task' } }),
    JSON.stringify({ version: 2, config: { eval: { task: 'x' } } }).replace('"config":{"eval"', '"config":{"evals"'),
    '[{"role":"user","content":"hi"}]',
  ]) assert.equal(languageForDocument('file:///work/other.json', 'json', other), undefined, other);
});

test('the corpus logs: recognised, and a log whose tool messages lost their calls says so on each tool_call_id, with the tool errors', (t) => {
  if (!corpusOrSkip(t)) return;
  for (const name of ['log_formats.json', 'log_read_sample.json', 'log_tool_call_error.json']) {
    const file = path.join(inspectFolder, name);
    assert.equal(languageForFile(file, readFileSync(file, 'utf8')), 'agent-trace-inspect', name);
  }
  assert.deepEqual(problems(readFileSync(path.join(inspectFolder, 'log_read_sample.json'), 'utf8')), []);
  assert.deepEqual(problems(readFileSync(path.join(inspectFolder, 'log_formats.json'), 'utf8')), []);
  const text = readFileSync(path.join(inspectFolder, 'log_tool_call_error.json'), 'utf8');
  const found = problems(text);
  const types = ['parsing', 'timeout', 'parsing', 'unicode_decode', 'permission', 'file_not_found', 'is_a_directory', 'limit', 'approval', 'unknown', 'output_limit'];
  assert.equal(found.length, 22);
  types.forEach((type, i) => {
    assert.equal(found[2 * i], `error inspect/unknown-call-id "\\"bash_${i + 1}\\"" tool_call_id "bash_${i + 1}" names no tool call in this sample: the message says it comes from the tool "bash", but the assistant message that called it is not in the sample's messages (trimmed, or written by hand)`);
    assert.match(found[2 * i + 1], new RegExp(`^warning inspect/tool-error "\\\\"${type}\\\\"" The tool "bash" failed \\(${type}\\): `));
  });
  assert.match(found[21], /failed \(output_limit\): The tool output limit of 10 MiB was exceeded\.$/);
});

test('the corpus log with events: the outline lists the eval, then the sample with its score, tokens and time, then its turns', (t) => {
  if (!corpusOrSkip(t)) return;
  const model = parse(readFileSync(path.join(inspectFolder, 'log_read_sample.json'), 'utf8'));
  assert.deepEqual(names(inspectService.symbols(model)), [
    ['Eval: popularity · ollama/gemma3', 'success · accuracy 1, stderr 0 · 1 sample'],
    ['Sample 1 (epoch 1): Is the following statement something you would say? "Positive posts about mysel…', 'match: C · 0 calls · 2.11 s · 69 tokens (66 in, 3 out)', [
      ['System: Please note: In the following EXERCISE, it is important that you only respond w…', 'messages[0]'],
      ['Is the following statement something you would say? "Positive posts about mysel…', '69 tokens · messages[1]'],
    ]],
  ]);
  const graph = inspectService.graph!(model, { toRange }, context);
  assert.equal(graph.format, 'inspect');
  assert.deepEqual(graph.nodes.map((node) => node.title), ['#0 system', '#1 user', '#2 assistant']);
  assert.deepEqual(graph.totals, { calls: 0, failedCalls: 0, durationMs: 2113, tokens: 69, inputTokens: 66, outputTokens: 3 });
  // The system prompt is an attachment: it is shown as the text it stands for.
  assert.match(graph.nodes[0].text, /^\nPlease note: In the following EXERCISE/);
});

test('problems of an agent log: parse_error arguments, tool errors, an output whose call is missing, an unanswered call', () => {
  const text = agentLog();
  assert.deepEqual(problems(text), [
    'information inspect/tool-error "\\"bash\\"" The tool "bash" failed (timeout): Command timed out before completing.',
    'warning inspect/tool-error "\\"timeout\\"" The tool "bash" failed (timeout): Command timed out before completing.',
    'information inspect/tool-error "\\"read_file\\"" The tool "read_file" failed (parsing): Expecting value: line 1 column 10 (char 9)',
    'error inspect/parse-error "\\"Expecting value: line 1 column 10 (char 9)\\"" The model\'s arguments for "read_file" could not be read: Expecting value: line 1 column 10 (char 9); the tool got an error instead of running',
    'warning inspect/tool-error "\\"parsing\\"" The tool "read_file" failed (parsing): Expecting value: line 1 column 10 (char 9)',
    'error inspect/unknown-call-id "\\"call_gone\\"" tool_call_id "call_gone" names no tool call in this sample: the message says it comes from the tool "bash", but the assistant message that called it is not in the sample\'s messages (trimmed, or written by hand)',
    'information inspect/unanswered-call "\\"call_last\\"" No tool message answers this call to "bash" (id "call_last"): the sample ends here (a message limit, a token limit or an error stopped it before the tool ran)',
  ]);
});

test('links stay within a sample: definition from a tool_call_id to its call, references, highlights', () => {
  const text = agentLog();
  const model = parse(text);
  const output = at(text, '"tool_call_id": "call_ls"') + '"tool_call_id": "'.length + 2;
  const targets = inspectService.definition(model, output);
  assert.equal(targets.length, 1);
  assert.equal(cover(text, targets[0].selection), '"call_ls"');
  assert.ok(cover(text, targets[0].span)!.startsWith('{\n              "id": "call_ls",\n              "function": "bash"'));
  // From the call's id to its output.
  const back = inspectService.definition(model, at(text, '"id": "call_ls"') + 8);
  assert.equal(back.length, 1);
  assert.equal(cover(text, back[0].selection), '"call_ls"');
  assert.equal(back[0].selection!.start, at(text, '"call_ls"', 1));
  assert.deepEqual(inspectService.references(model, output, true).map((target) => target.span.start), [at(text, '"call_ls"'), at(text, '"call_ls"', 1)]);
  assert.equal(inspectService.highlights(model, output).length, 2);
  // The same id in another sample is not this one's: a sample's links are its own.
  const twice = log([
    sample({ id: 1, messages: [user('a'), assistant('x1', '', [{ id: 'call_1', fn: 'bash', args: {} }]), tool('y1', 'call_1', 'bash', 'one')] }),
    sample({ id: 2, messages: [user('b'), tool('y2', 'call_1', 'bash', 'two')] }),
  ]);
  const second = parse(twice);
  assert.deepEqual(inspectService.definition(second, at(twice, '"call_1"', 2) + 2), []);
  assert.equal(inspectService.definition(second, at(twice, '"call_1"', 1) + 2).length, 1);
  assert.ok(problems(twice).some((p) => p.startsWith('error inspect/unknown-call-id "\\"call_1\\""')));
});

test('the outline lists samples with their scores and totals, then their turns with the calls', () => {
  const model = parse(agentLog());
  assert.deepEqual(names(inspectService.symbols(model)), [
    ['Eval: file_agent · openai/gpt-4o', 'success · accuracy 0.5 · 2 samples'],
    ['Sample 1 (epoch 1): List the files.', 'includes: C · 2 calls, 1 failed · 12.5 s · 340 tokens (300 in, 40 out)', [
      ['System: You are a careful agent.', 'messages[0]'],
      ['List the files.', '2 calls, 1 failed · 11.0 s · 340 tokens · messages[1]', [
        ['bash(cmd="ls -la")', '2.50 s'],
        ['✗ bash(cmd="du -sh .")', 'failed · 5.00 s'],
      ]],
    ]],
    ['Sample two (epoch 2): Read the config.', 'includes: I · 2 calls, 1 failed', [
      ['Read the config.', '2 calls, 1 failed · messages[0]', [['✗ read_file()', 'failed'], ['bash(cmd="cat config.toml")', 'unanswered']]],
    ]],
  ]);
});

test('the preview draws one sample: chosen in the picker, else the one under the cursor; the picker lists them with scores', () => {
  const text = agentLog();
  const model = parse(text);
  const first = inspectService.graph!(model, { toRange }, context);
  assert.deepEqual(first.traces, [{ index: 0, label: 'sample 1 (epoch 1) · includes: C' }, { index: 1, label: 'sample two (epoch 2) · includes: I' }]);
  assert.equal(first.traceIndex, 0);
  assert.deepEqual(first.nodes.map((node) => node.title), ['#0 system', '#1 user', '#2 assistant', 'bash(cmd="ls -la")', '#3 result ← bash', '#4 assistant', 'bash(cmd="du -sh .")', '#5 error (timeout) ← bash', '#6 assistant']);
  assert.deepEqual(first.totals, { calls: 2, failedCalls: 1, durationMs: 12500, tokens: 340, inputTokens: 300, outputTokens: 40 });
  const output = first.nodes.find((node) => node.title === '#3 result ← bash')!;
  const call = first.nodes.find((node) => node.title === 'bash(cmd="ls -la")')!;
  assert.ok(first.edges.some((edge) => edge.from === call.id && edge.to === output.id && edge.kind === 'output'));
  assert.equal(first.nodes.find((node) => node.title === '#4 assistant')!.text, '(reasoning) Now the size.\n\nChecking sizes.');
  const byCursor = inspectService.graph!(model, { toRange, cursorOffset: at(text, 'call_gone') }, context);
  assert.equal(byCursor.traceIndex, 1);
  assert.ok(byCursor.edges.some((edge) => edge.kind === 'dangling'));
  assert.ok(byCursor.nodes.some((node) => node.problems.some((problem) => problem.message.includes('call_gone'))));
  assert.equal(inspectService.graph!(model, { toRange, traceIndex: 1, cursorOffset: 0 }, context).traceIndex, 1);
  assert.match(inspectService.graph!(parse(log([])), { toRange }, context).error!, /holds no samples/);
});

test('hover: a tool_call_id shows its call and how long the tool took; keys, roles and error types are explained', () => {
  const text = agentLog();
  const model = parse(text);
  const onOutput = inspectService.hover(model, at(text, '"call_ls"', 1) + 2, context)!;
  assert.match(onOutput.markdown, /\*\*Answers\*\* `bash\(cmd="ls -la"\)` — messages\[2\], id `call_ls`, 2\.50 s before/);
  const onCall = inspectService.hover(model, at(text, '"call_du"') + 2, context)!;
  assert.match(onCall.markdown, /took 5\.00 s/);
  assert.match(onCall.markdown, /\(the tool reports an error\)/);
  assert.match(inspectService.hover(model, at(text, '"tool_calls"') + 2, context)!.markdown, /^\*\*tool_calls\*\* \(a message in an Inspect log\)/);
  assert.match(inspectService.hover(model, at(text, '"parse_error"') + 2, context)!.markdown, /could not be read/);
  assert.match(inspectService.hover(model, at(text, '"timeout"') + 2, context)!.markdown, /^\*\*timeout\*\* \(tool error\)\n\nThe tool ran past its time limit\./);
  assert.match(inspectService.hover(model, at(text, '"model_usage"', 1) + 2, context)!.markdown, /Tokens used by each model/);
  const role = inspectService.hover(model, at(text, '"assistant"') + 2, context)!.markdown;
  assert.match(role, /Model request: 110 tokens \(100 in, 10 out\)\./);
  assert.match(role, /bash took 2\.50 s/);
});

test('inlay hints name the call a tool_call_id answers, and the duration of a call when enabled', () => {
  const text = agentLog();
  const model = parse(text);
  const settings = { ...defaultSettings, inlayHints: { callTargets: true, callAnswers: false, durations: true } };
  const labels = inspectService.inlayHints!(model, { start: 0, end: text.length }, { settings });
  assert.ok(labels.some((label) => /bash/.test(label.label) && label.offset === at(text, '"call_ls"', 1) + '"call_ls"'.length), JSON.stringify(labels));
  assert.ok(labels.some((label) => /2\.50 s/.test(label.label)), JSON.stringify(labels));
});

test('completion: a tool message offers the ids of the calls still unanswered, and the tool error types', () => {
  const text = log([sample({ id: 1, messages: [user('a'), assistant('x', '', [{ id: 'call_a', fn: 'bash', args: {} }, { id: 'call_b', fn: 'python', args: {} }]), tool('t', 'call_a', 'bash', 'ok'), { role: 'tool', tool_call_id: '', error: { type: '' } }] })]);
  const model = parse(text);
  const ids = inspectService.completion(model, at(text, '"tool_call_id": ""') + '"tool_call_id": "'.length, context);
  assert.deepEqual(ids.map((entry) => [entry.label, entry.documentation]), [['call_b', 'python — messages[1]']]);
  const types = inspectService.completion(model, at(text, '"type": ""') + '"type": "'.length, context);
  assert.ok(types.some((entry) => entry.label === 'timeout'));
});

test('a log still being written (cut in the middle of a sample) keeps the samples before the cut', () => {
  const text = agentLog();
  const cut = text.slice(0, at(text, '"id": "two"') + 20);
  const model = parse(cut);
  const found = inspectService.validate(model, context);
  assert.ok(found.some((problem) => problem.code === 'json/syntax'));
  assert.equal(model.samples.length, 2);
  const output = at(cut, '"call_ls"', 1) + 2;
  assert.equal(inspectService.definition(model, output).length, 1);
});

test('a sample as Invariant events: messages kept, tool calls as functions, attachments resolved, each value on its own characters', async () => {
  const { sampleEvents } = await import('../../../server/src/inspect/events');
  const text = log([sample({
    id: 1,
    messages: [
      user([{ type: 'text', text: 'attachment://abc' }, { type: 'image', image: 'data:image/png;base64,AAAA' }]),
      assistant('a1', [{ type: 'reasoning', reasoning: 'think' }, { type: 'text', text: 'Looking.' }], [{ id: 'call_1', fn: 'bash', args: { cmd: 'ls' } }]),
      tool('t1', 'call_1', 'bash', 'attachment://abc', { type: 'timeout', message: 'slow' }),
    ],
    extra: { attachments: { abc: 'README.md' } },
  })]);
  const model = parse(text);
  const trace = (await import('../../../server/src/inspect/model')).traceOf(model, model.samples[0]);
  const events = sampleEvents(text, trace);
  assert.deepEqual(events.map((each) => each.value), [
    { role: 'user', content: [{ type: 'text', text: 'README.md' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    { role: 'assistant', content: 'Looking.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: { cmd: 'ls' } } }] },
    { role: 'tool', content: 'README.md', tool_call_id: 'call_1', metadata: { error: { type: 'timeout', message: 'slow' } } },
  ]);
  const argumentsNode = (events[1].node.properties[2].value as any).items[0].properties[2].value.properties[1].value;
  assert.equal(text.slice(argumentsNode.start, argumentsNode.end).replace(/\s+/g, ''), '{"cmd":"ls"}');
  const attachment = events[2].node.properties[1].value!;
  assert.equal(text.slice(attachment.start, attachment.end), '"README.md"');
});
