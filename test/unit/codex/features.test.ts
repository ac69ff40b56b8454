/**
 * Generated rollouts. Each imitates `../shared/corpus/formats/codex/codex_golden.jsonl` (its records, written one
 * per line as `{timestamp, type, payload}`) and adds what that small file lacks, in the shapes Codex CLI writes
 * them (its `RolloutItem`, `ResponseItem` and persisted `EventMsg` types): the UI events of newer versions, token
 * counts written twice, local shell calls, free-form tool calls, and the faults the issue names.
 */
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonlService } from '../../../server/src/jsonl';
import { defaultSettings } from '../../../server/src/common/languageService';
import { assistant, context, meta, outlineLines, output, parse, record, shellCall, tokens, user } from './helpers';

const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
const problems = (text: string) => jsonlService.validate(parse(text), context).map((p) => [p.severity, p.code, text.slice(p.span.start, p.span.end), p.message]);

test('UI events that repeat a turn are linked to what they repeat and never counted twice', () => {
  const text = [
    meta(),
    record(1, 'turn_context', { cwd: '/home/testuser/project', approval_policy: 'on-request', model: 'gpt-5-codex' }),
    user(2, 'Run the tests'),
    record(2, 'event_msg', { type: 'user_message', message: 'Run the tests', images: [] }),
    record(3, 'response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Running the test suite' }], content: null, encrypted_content: null }),
    record(3, 'event_msg', { type: 'agent_reasoning', text: 'Running the test suite' }),
    shellCall(4, 'call_1', 'npm test'),
    record(9, 'event_msg', { type: 'exec_command_end', call_id: 'call_1', exit_code: 1, duration: { secs: 4, nanos: 500000000 }, aggregated_output: '1 failing' }),
    output(9, 'call_1', '{"output":"1 failing\\n","metadata":{"exit_code":1,"duration_seconds":4.5}}'),
    tokens(10, 1000, 1000),
    assistant(11, 'One test fails.'),
    record(11, 'event_msg', { type: 'agent_message', message: 'One test fails.' }),
    tokens(12, 1300, 300),
    tokens(12, 1300, 300),
  ].join('\n') + '\n';
  const model = parse(text);
  assert.deepEqual(jsonlService.validate(model, context), []);
  // One prompt, one call (failed: its exit code is 1), and the tokens of two requests, the repeat left out.
  assert.deepEqual(outlineLines(jsonlService.symbols(model)), [
    'Codex session generated-001 | /home/testuser/project · Codex 0.77.0 · 1 call, 1 failed · 12.0 s · 1,300 tokens (1,290 in, 10 out)',
    'Run the tests | 1 call, 1 failed · 10.0 s · 1,300 tokens · 09:00:02',
    '  ✗ shell: npm test | failed · 5.00 s',
  ]);
  const graph = jsonlService.graph!(model, { toRange }, context);
  assert.deepEqual(graph.nodes.map((node) => node.title), ['L1 session generated-001', 'L3 user', 'L5 reasoning', 'L7 shell("npm test")', 'L9 output ← shell (exit 1)', 'L11 assistant']);
  assert.equal(graph.notice, '4 UI events (event_msg) that repeat the conversation or report its calls are not drawn.');
  assert.deepEqual(graph.nodes.map((node) => node.tokens), [undefined, undefined, undefined, 1000, undefined, 300]);
  // The echo says what it repeats, and leads to it.
  const echo = text.indexOf('"user_message"') + 2;
  assert.match(jsonlService.hover(model, echo, context)!.markdown, /_A UI event:_ It repeats response_item message on line 3\. It is not counted as a message of the conversation\./);
  const userLine = text.indexOf('{"timestamp"', text.indexOf('\n', text.indexOf('"turn_context"')));
  assert.equal(jsonlService.definition(model, echo)[0].span.start, userLine);
  // The report of a command leads to its call, says how it ended, and is among the call id's references.
  const reportId = text.indexOf('"call_1"', text.indexOf('exec_command_end'));
  const callLine = text.indexOf('"type":"function_call"');
  assert.equal(jsonlService.definition(model, reportId + 2)[0].span.start, text.lastIndexOf('{', callLine));
  assert.match(jsonlService.hover(model, reportId + 2, context)!.markdown, /^\*\*Reports\*\* `shell\("npm test"\)` — line 7, id `call_1`: a UI event, not its output\.\n\nThe command exit code 1, ran 4\.50 s\./);
  const callId = text.indexOf('"call_1"', callLine);
  const references = jsonlService.references(model, callId + 2, true).map((target) => target.span.start);
  assert.deepEqual(references, [callId, text.indexOf('"call_1"', text.indexOf('"function_call_output"')), reportId]);
  // The repeated token count says it is one.
  const repeat = text.lastIndexOf('"token_count"') + 2;
  assert.match(jsonlService.hover(model, repeat, context)!.markdown, /a repeat \(Codex writes one when rate limits change\), counted once\./);
});

test('a call never answered: information when the rollout ends or the turn was aborted, a warning when the model went on', () => {
  const ended = [meta(), user(1, 'List files'), shellCall(2, 'call_a', 'ls')].join('\n') + '\n';
  assert.deepEqual(problems(ended), [['information', 'codex/unanswered-call', '"call_a"',
    'No output answers this call to "shell" (id "call_a"): the rollout ends before its output was written (the session stopped, or is still running); when Codex loads this session again it inserts an "aborted" output for this call']]);
  const wentOn = [meta(), user(1, 'Two things'), shellCall(2, 'call_a', 'ls'), shellCall(2, 'call_b', 'pwd'), output(3, 'call_b', '/home'), assistant(4, 'Done.')].join('\n') + '\n';
  assert.deepEqual(problems(wentOn), [['warning', 'codex/unanswered-call', '"call_a"',
    'No output answers this call to "shell" (id "call_a"): the model went on (line 6) without its output; when Codex loads this session again it inserts an "aborted" output for this call']]);
});

test('an output whose call is missing, an output before its call, arguments that are not JSON', () => {
  const text = [
    meta(),
    user(1, 'Go'),
    output(2, 'call_early', 'too soon'),
    shellCall(3, 'call_early', 'ls'),
    output(4, 'call_missing', 'orphan'),
    record(5, 'response_item', { type: 'function_call', name: 'shell', arguments: '{"command": ["ls", ', call_id: 'call_broken' }),
    output(6, 'call_broken', 'ok'),
  ].join('\n') + '\n';
  assert.deepEqual(problems(text), [
    ['error', 'codex/call-id-later', '"call_early"', 'call_id "call_early" names a call made later, in line 4 (shell("ls")); an output must come after its call'],
    ['warning', 'codex/unanswered-call', '"call_early"',
      'No output answers this call to "shell" (id "call_early"): the model went on (line 6) without its output; when Codex loads this session again it inserts an "aborted" output for this call'],
    ['error', 'codex/unknown-call-id', '"call_missing"', 'call_id "call_missing" names no call in this rollout: Codex drops an output whose call is missing when it loads this session again, so the model never saw it'],
    // The string's JSON ends where the string does: the place is its closing quote.
    ['error', 'codex/arguments-json', '"', 'arguments: the JSON in this string breaks here: Unexpected end of file: expected \']\' then \'}\''],
  ]);
});

test('a call with both an item id and a call_id: its output names it by call_id; an output naming the item id names no call', () => {
  // Imitates `../shared/corpus/formats/codex/codex_golden.jsonl`'s shell call, with the item id (`fc_…`) the
  // Responses API gives a call beside its call_id.
  const call = record(2, 'response_item', { type: 'function_call', id: 'fc_1', name: 'shell', arguments: JSON.stringify({ command: 'ls -la' }), call_id: 'call_1' });
  const linked = [meta(), user(1, 'List the files in the current directory'), call, output(3, 'call_1', 'README.md')].join('\n') + '\n';
  const model = parse(linked);
  assert.deepEqual(jsonlService.validate(model, context), []);
  const outputId = linked.indexOf('"call_1"', linked.indexOf('"function_call_output"'));
  const callId = linked.indexOf('"call_1"');
  assert.ok(callId < outputId);
  assert.deepEqual(jsonlService.definition(model, outputId + 2).map((found) => found.selection), [{ start: callId, end: callId + '"call_1"'.length }]);
  // The item id is not the link: an output naming it answers nothing, and the call stays unanswered.
  const byItemId = [meta(), user(1, 'List the files in the current directory'), call, output(3, 'fc_1', 'README.md')].join('\n') + '\n';
  assert.deepEqual(problems(byItemId), [
    ['information', 'codex/unanswered-call', '"call_1"',
      'No output answers this call to "shell" (id "call_1"): the rollout ends before its output was written (the session stopped, or is still running); when Codex loads this session again it inserts an "aborted" output for this call'],
    ['error', 'codex/unknown-call-id', '"fc_1"', 'call_id "fc_1" names no call in this rollout: Codex drops an output whose call is missing when it loads this session again, so the model never saw it'],
  ]);
  assert.deepEqual(jsonlService.definition(parse(byItemId), byItemId.indexOf('"fc_1"', byItemId.indexOf('"function_call_output"')) + 2), []);
});

test('a cut last line is said once, as the end of a rollout written while it runs', () => {
  const text = [meta(), user(1, 'Go'), '{"timestamp":"2025-01-04T09:00:02.000Z","type":"response_item","payload":{"type":"mess'].join('\n');
  const found = problems(text);
  assert.equal(found.length, 1);
  assert.deepEqual(found[0].slice(0, 2), ['warning', 'jsonl/cut-line']);
  assert.match(found[0][3], /^The last line stops before its JSON ends: the file is still being written, or was cut mid-write, so its last record is lost \(/);
  // With its line break written, the same line is a broken line like any other.
  assert.deepEqual(problems(`${text}\n`).map((p) => p[1]), ['jsonl/syntax']);
});

test('local shell calls, free-form tool calls and Codex\'s own context messages', () => {
  const text = [
    meta(),
    user(1, '<environment_context>\n  <cwd>/home/testuser/project</cwd>\n</environment_context>'),
    user(2, 'Fix the bug'),
    record(3, 'response_item', { type: 'local_shell_call', call_id: 'call_sh', status: 'completed', action: { type: 'exec', command: ['bash', '-lc', 'grep -n bug src/app.ts'] } }),
    output(4, 'call_sh', 'src/app.ts:3: bug'),
    record(5, 'response_item', { type: 'custom_tool_call', call_id: 'call_patch', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-bug\n+fix\n*** End Patch' }),
    record(6, 'response_item', { type: 'custom_tool_call_output', call_id: 'call_patch', output: 'Success. Updated the following files:\nM src/app.ts' }),
  ].join('\n') + '\n';
  const model = parse(text);
  assert.deepEqual(jsonlService.validate(model, context), []);
  assert.deepEqual(outlineLines(jsonlService.symbols(model)).slice(1), [
    'Fix the bug | 2 calls · 4.00 s · 09:00:02',
    '  local_shell: grep -n bug src/app.ts | 1.00 s',
    '  apply_patch: src/app.ts | 1.00 s',
  ]);
  const context1 = text.indexOf('"message"') + 2;
  assert.match(jsonlService.hover(model, context1, context)!.markdown, /it is context, not a prompt you typed/);
  assert.deepEqual(jsonlService.graph!(model, { toRange }, context).nodes[1].title, 'L2 user (context from Codex)');
});

test('hover docs for record, item and event types and for fields', () => {
  const text = [meta(), user(1, 'Hi'), tokens(2, 10, 10), record(3, 'event_msg', { type: 'turn_aborted', reason: 'interrupted' })].join('\n') + '\n';
  const model = parse(text);
  const at = (needle: string, nth = 0) => {
    let offset = -1;
    for (let i = 0; i <= nth; i++) offset = text.indexOf(needle, offset + 1);
    return offset + 2;
  };
  assert.match(jsonlService.hover(model, at('"session_meta"'), context)!.markdown, /^\*\*session_meta\*\* record\n\nThe first record of a rollout/);
  assert.match(jsonlService.hover(model, at('"message"'), context)!.markdown, /^\*\*message\*\* item\n\nA message of the conversation/);
  assert.match(jsonlService.hover(model, at('"turn_aborted"'), context)!.markdown, /^\*\*turn_aborted\*\* event\n\nThe turn was stopped before it finished/);
  assert.match(jsonlService.hover(model, at('"cli_version"'), context)!.markdown, /^\*\*cli_version\*\*\n\nThe version of Codex CLI that wrote the rollout\./);
  assert.match(jsonlService.hover(model, at('"input_text"'), context)!.markdown, /^\*\*input_text\*\* content part/);
  assert.match(jsonlService.hover(model, at('"timestamp"', 1), context)!.markdown, /^\*\*timestamp\*\*\n\nWhen the session started\./);
  assert.match(jsonlService.hover(model, at('"timestamp"', 2), context)!.markdown, /^\*\*timestamp\*\*\n\nWhen Codex wrote the record/);
});

test('schema checks: wrong kinds and missing fields are warnings, unknown types and fields hints', () => {
  const text = [
    meta(),
    record(1, 'response_item', { type: 'function_call', name: 'shell', arguments: { command: ['ls'] }, call_id: 'call_1' }),
    record(2, 'response_item', { type: 'function_call_output', output: 'x' }),
    record(3, 'response_item', { type: 'hologram', data: 1 }),
    record(4, 'future_record', { anything: true }),
    record(5, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }], mood: 'calm' }),
  ].join('\n') + '\n';
  const found = problems(text).filter((p) => p[1] !== 'codex/unanswered-call');
  assert.deepEqual(found, [
    ['warning', 'codex/wrong-kind', '{"command":["ls"]}', '"arguments" of a function_call item must be a string, not an object'],
    ['warning', 'codex/missing-field', '"type"', 'A function_call_output item needs "call_id": the `call_id` of the call this output answers (not that call\'s item `id`)'],
    ['hint', 'codex/unknown-type', '"hologram"', 'Item type "hologram" is not one the known versions of the Responses API have: it may come from a newer one'],
    ['hint', 'codex/unknown-type', '"future_record"', 'Record type "future_record" is not one the known versions of Codex write: it may come from a newer one'],
    ['hint', 'codex/unknown-field', '"mood"', 'Field "mood" is not one the known versions write in a message item: it may come from a newer one'],
  ]);
  // Without unknown-key hints, only the warnings remain.
  const quiet = jsonlService.validate(parse(text), { settings: { ...defaultSettings, unknownKeyHints: false } });
  assert.deepEqual(quiet.filter((p) => p.severity === 'hint'), []);
});

test('completion of record types, item types, event types and an item\'s keys', () => {
  const complete = (text: string, offset = text.length) => jsonlService.completion(parse(text), offset, context).map((entry) => entry.label);
  const recordType = '{"timestamp":"2025-01-04T09:00:00.000Z","type":"';
  assert.deepEqual(complete(`${meta()}\n${recordType}"}`, meta().length + 1 + recordType.length), ['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
  const itemType = '{"timestamp":"2025-01-04T09:00:00.000Z","type":"response_item","payload":{"type":"';
  const items = complete(`${meta()}\n${itemType}"}}`, meta().length + 1 + itemType.length);
  assert.ok(items.includes('function_call') && items.includes('local_shell_call') && items.includes('custom_tool_call_output'), items.join());
  const eventType = '{"timestamp":"2025-01-04T09:00:00.000Z","type":"event_msg","payload":{"type":"';
  assert.ok(complete(`${meta()}\n${eventType}"}}`, meta().length + 1 + eventType.length).includes('token_count'));
  const keys = '{"timestamp":"2025-01-04T09:00:00.000Z","type":"response_item","payload":{"type":"function_call", }}';
  assert.deepEqual(complete(`${meta()}\n${keys}`, meta().length + 1 + keys.length - 2).sort(), ['arguments', 'call_id', 'id', 'name', 'namespace', 'status']);
});

test('an appended record is read alone, and the rollout it makes equals one read whole', () => {
  const lines = [meta(), user(1, 'Go'), shellCall(2, 'call_1', 'ls')];
  const before = `${lines.join('\n')}\n`;
  const previous = parse(before);
  const after = `${before}${output(3, 'call_1', 'a.txt')}\n`;
  const next = jsonlService.reparse!(previous, { uri: previous.uri, version: 2, text: after }, { start: before.length, oldEnd: before.length, newEnd: after.length })!;
  // The lines before the edit keep the facts they were read with.
  assert.equal(next.lines[1].facts, previous.lines[1].facts);
  const whole = parse(after);
  assert.deepEqual(jsonlService.validate(next, context), jsonlService.validate(whole, context));
  assert.deepEqual(jsonlService.symbols(next), jsonlService.symbols(whole));
  assert.deepEqual(jsonlService.validate(next, context), []);
});

test('other JSON Lines files with a timestamp and a type are not rollouts', () => {
  const log = '{"timestamp":"2025-01-04T09:00:00.000Z","type":"info","message":"server started"}\n';
  assert.notEqual(parse(log).format, 'codex');
  const fragment = `${record(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] })}\n`;
  // A rollout whose head was cut off is still one, and says what it lacks.
  assert.deepEqual(problems(fragment), [['information', 'codex/no-session-meta', '{',
    'This rollout does not start with its session_meta record: its head was cut off, so the session\'s id, folder and Codex version are unknown']]);
});
