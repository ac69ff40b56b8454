import { test } from 'node:test';
import assert from 'node:assert/strict';
import { context, lines, model, offsetOf, where } from './helpers';
import { hover as traceHover } from '../../../server/src/trace/hover';
import { traceService } from '../../../server/src/trace';

const { definition: traceDefinition, references: traceReferences, highlights: traceHighlights } = traceService;

const text = lines(
  '[',
  '  {"role": "user", "content": "What is in my inbox?"},',
  '  {',
  '    "role": "assistant",',
  '    "content": "Checking.",',
  '    "tool_calls": [',
  '      {"id": "call_1", "type": "function", "function": {"name": "get_inbox", "arguments": {"n": 10}}},',
  '      {"id": "call_2", "type": "function", "function": {"name": "send_email", "arguments": "{\\"to\\": \\"bob\\"}"}}',
  '    ]',
  '  },',
  '  {"role": "tool", "tool_call_id": "call_1", "content": "1. Subject: Hello\\n2. Subject: Meeting\\n3. Subject: Lunch"},',
  '  {"role": "tool", "tool_call_id": "call_2", "content": "sent"},',
  '  {"role": "tool", "tool_call_id": "call_1", "content": "again"},',
  '  {"role": "tool", "content": "implicit"}',
  ']',
);
const m = model(text);
const spans = (targets: { span: { start: number; end: number }; selection?: { start: number; end: number } }[]) =>
  targets.map((t) => `${where(text, t.span)}${t.selection ? ` sel ${where(text, t.selection)}` : ''}`);

test('definition from anywhere in a tool_call_id value goes to the call, selecting its id', () => {
  const call = ['6:6-6:101 sel 6:13-6:21'];
  assert.deepEqual(spans(traceDefinition(m, offsetOf(text, '"call_1"', 0, 2))), call);
  assert.deepEqual(spans(traceDefinition(m, offsetOf(text, '"call_1"', 4, 2))), call);
  assert.deepEqual(spans(traceDefinition(m, offsetOf(text, '"call_1"', 8, 2))), call);
  assert.deepEqual(spans(traceDefinition(m, offsetOf(text, '"tool_call_id"', 2, 1))), []);
});

test('definition from a call id goes to its outputs; from an implicit output role to its call', () => {
  assert.deepEqual(spans(traceDefinition(m, offsetOf(text, 'call_1', 2))), [
    '10:2-10:116 sel 10:35-10:43',
    '12:2-12:64 sel 12:35-12:43',
  ]);
  assert.deepEqual(spans(traceDefinition(m, offsetOf(text, '"tool", "content": "implicit"', 2))), ['7:6-7:112 sel 7:13-7:21']);
});

test('references pair a call with its outputs from either side; includeDeclaration controls the call', () => {
  const all = ['6:13-6:21', '10:35-10:43', '12:35-12:43'];
  assert.deepEqual(spans(traceReferences(m, offsetOf(text, 'call_1', 1), true)), all);
  assert.deepEqual(spans(traceReferences(m, offsetOf(text, 'call_1', 1, 3), true)), all);
  assert.deepEqual(spans(traceReferences(m, offsetOf(text, 'call_1', 1, 3), false)), all.slice(1));
  assert.deepEqual(spans(traceReferences(m, offsetOf(text, 'call_2', 1), true)), ['7:13-7:21', '11:35-11:43', '13:11-13:17']);
  assert.deepEqual(traceReferences(m, offsetOf(text, 'Checking'), true), []);
});

test('highlights mark the call id as write and the outputs as read', () => {
  const found = traceHighlights(m, offsetOf(text, 'call_1', 1, 2)).map((h) => `${h.kind} ${where(text, h.span)}`);
  assert.deepEqual(found, ['write 6:13-6:21', 'read 10:35-10:43', 'read 12:35-12:43']);
});

test('hover on a tool_call_id shows the call compactly and the first lines of the output', () => {
  const hover = traceHover(m, offsetOf(text, 'call_1', 1, 2), context());
  assert.equal(where(text, hover!.span), '10:35-10:43');
  assert.equal(hover!.markdown, [
    '**Answers** `get_inbox(n=10)` — event #1, id `call_1`',
    '',
    'Output in event #2:',
    '```text',
    '1. Subject: Hello\n2. Subject: Meeting\n3. Subject: Lunch',
    '```',
  ].join('\n'));
});

test('hover on a call id shows the call and every output', () => {
  const hover = traceHover(m, offsetOf(text, 'call_2', 1), context());
  assert.equal(hover!.markdown, [
    '**Tool call** `send_email(to="bob")` — event #1, id `call_2`',
    '',
    'Output in event #3:',
    '```text',
    'sent',
    '```',
    '',
    'Output in event #5 (implicit: it has no tool_call_id):',
    '```text',
    'implicit',
    '```',
  ].join('\n'));
});

test('hover on keys explains the field; on a role value the role', () => {
  const role = traceHover(m, offsetOf(text, '"role"', 2), context());
  assert.equal(where(text, role!.span), '1:3-1:9');
  assert.match(role!.markdown, /^\*\*`role`\*\* `string` — required\n\nWho produced this event/);
  const args = traceHover(m, offsetOf(text, '"arguments"', 3), context());
  assert.match(args!.markdown, /^\*\*`arguments`\*\* `object \| string` — required/);
  assert.match(args!.markdown, /```json\n"arguments": \{"to": "mom@mail.com", "subject": "Running late"\}\n```$/);
  const toolRole = traceHover(m, offsetOf(text, '"role"', 2, 3), context());
  assert.match(toolRole!.markdown, /Always `"tool"` for a tool output/);
  const assistant = traceHover(m, offsetOf(text, '"assistant"', 3), context());
  assert.match(assistant!.markdown, /^\*\*assistant\*\* — the agent itself/);
  const type = traceHover(m, offsetOf(text, '"type"', 2), context());
  assert.match(type!.markdown, /^\*\*`type`\*\* `string` — required\n\nThe kind of tool call/);
  assert.equal(traceHover(m, offsetOf(text, 'Checking'), context()), null);
});

test('a missing comma does not cost navigation after it', () => {
  const broken = text.replace('"content": "sent"},', '"content": "sent"}');
  const bm = model(broken);
  assert.equal(bm.syntaxErrors.length, 1);
  assert.equal(traceDefinition(bm, offsetOf(broken, 'call_1', 1, 3)).length, 1);
});

test('hover on an implicit output role names the call it answers; root keys of the object form are explained', () => {
  const implicit = traceHover(m, offsetOf(text, '"tool", "content": "implicit"', 2), context());
  assert.match(implicit!.markdown, /it answers `send_email\(to="bob"\)` — event #1, id `call_2`$/);
  const objectForm = '{"messages": [{"role": "user", "content": "hi"}], "annotations": []}';
  const om = model(objectForm);
  assert.match(traceHover(om, 3, context())!.markdown, /^\*\*`messages`\*\* `list of events` — required/);
  assert.match(traceHover(om, offsetOf(objectForm, 'annotations'), context())!.markdown, /^\*\*`annotations`\*\*/);
  assert.match(traceHover(om, offsetOf(objectForm, 'content'), context())!.markdown, /^\*\*`content`\*\*/);
});
