import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors, lines, model, offsetOf, problems } from './helpers';
import { symbols as traceSymbols } from '../../../server/src/trace/symbols';
import { folding as traceFolding } from '../../../server/src/trace/folding';
import { completion as traceCompletion } from '../../../server/src/trace/completion';
import { graph as traceGraph } from '../../../server/src/trace/graph';
import { context } from './helpers';
import { parseTrace } from '../../../server/src/trace/model';
import { validate as validateTrace } from '../../../server/src/trace/validate';
import { hover as traceHover } from '../../../server/src/trace/hover';
import { traceService } from '../../../server/src/trace';

const { definition: traceDefinition, references: traceReferences, highlights: traceHighlights } = traceService;

const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });

test('a missing closing brace (docs example) gives one syntax error and nothing else at error level', () => {
  const text = lines(
    '[',
    '  {"role": "user", "content": "hi"},',
    '  {"role": "tool", "tool_call_id": "1", "content": "done"',
    ']',
  );
  assert.deepEqual(errors(text), [
    'error trace/unknown-call-id 2:35-2:38 "\\"1\\"": tool_call_id "1" names no tool call in this trace',
    `error json/syntax 3:0-3:1 "]": Expected ',' or '}', found ']'`,
  ]);
  assert.equal(model(text).events.length, 2);
});

test('a missing comma between events is reported and navigation after it still works', () => {
  const text = lines(
    '[',
    '  {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": {}}}]}',
    '  {"role": "tool", "tool_call_id": "a", "content": "x"}',
    ']',
  );
  assert.deepEqual(errors(text), ['error json/syntax 2:2-2:3 "{": Expected comma']);
  const targets = traceDefinition(model(text), offsetOf(text, '"a"', 1, 2));
  assert.equal(targets.length, 1);
  assert.equal(targets[0].selection?.start, offsetOf(text, '"a"'));
});

test('every syntax error is reported, not only the first', () => {
  const text = lines(
    '[',
    '  {"role": "user" "content": "a"},',
    '  {"role": "user", "content": },',
    '  {"role": "user", "content": "bad \\q escape and \\u12 short"},',
    '  {"role": "user", "content": True},',
    ']',
  );
  assert.deepEqual(errors(text), [
    `error json/syntax 1:18-1:19 "\\"": Expected comma`,
    `error json/syntax 2:30-2:31 "}": Value expected`,
    `error json/syntax 3:35-3:37 "\\\\q": Invalid escape sequence '\\q' in string: valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`,
    'error json/syntax 3:49-3:53 "\\\\u12": Invalid unicode escape: \\u needs four hex digits',
    `error json/syntax 4:30-4:34 "True": Value expected, found 'True': JSON literals are true, false and null (numbers cannot be NaN or Infinity)`,
    `error json/trailing-comma 4:35-4:36 ",": Trailing comma: remove it (JSON allows no comma before ']')`,
  ]);
});

test('comments and trailing commas are errors with their own codes', () => {
  const text = lines(
    '[',
    '  // a comment',
    '  {"role": "user", "content": "a",},',
    '  /* block */ {"role": "user", "content": "b"},',
    ']',
  );
  assert.deepEqual(errors(text), [
    'error json/comment 1:2-1:14 "// a comment": Comments are not allowed in a trace (strict JSON)',
    `error json/trailing-comma 2:33-2:34 ",": Trailing comma: remove it (JSON allows no comma before '}')`,
    'error json/comment 3:2-3:13 "/* block */": Comments are not allowed in a trace (strict JSON)',
    `error json/trailing-comma 3:46-3:47 ",": Trailing comma: remove it (JSON allows no comma before ']')`,
  ]);
  assert.equal(model(text).events.length, 2);
});

test('an unterminated string ends at the line end and the next line still parses', () => {
  const text = lines(
    '[',
    '  {"role": "tool", "tool_call_id": "ab',
    '   , "content": "x"},',
    '  {"role": "user", "content": "next"}',
    ']',
  );
  assert.deepEqual(errors(text), [
    `error json/syntax 1:35-1:38 "\\"ab": Unterminated string: expected a closing '"' before the end of the line`,
    'error trace/unknown-call-id 1:35-1:38 "\\"ab": tool_call_id "ab" names no tool call in this trace',
  ]);
  assert.equal(model(text).events.length, 2);
});

test('control characters inside strings are reported one by one', () => {
  const text = '[{"role": "user", "content": "a\tb\u0001c"}]';
  assert.deepEqual(errors(text), [
    'error json/syntax 0:31-0:32 "\\t": Control character U+0009 in a string: write it as \\t',
    'error json/syntax 0:33-0:34 "\\u0001": Control character U+0001 in a string: write it as \\u0001',
  ]);
});

test('unexpected end of file names the missing closers', () => {
  const text = '[{"role": "user", "content": "a"';
  assert.deepEqual(errors(text), [`error json/syntax 0:32-0:32 "": Unexpected end of file: expected '}' then ']'`]);
  assert.equal(model(text).events.length, 1);
});

test('content after the trace value is reported once', () => {
  assert.deepEqual(errors('[] []'), ['error json/syntax 0:3-0:4 "[": End of file expected: a trace file holds one JSON value']);
});

test('an empty document gets one clear error', () => {
  assert.deepEqual(errors(''), ['error json/syntax 0:0-0:0 "": Unexpected end of file: expected a JSON value (a trace is an array of events)']);
  assert.deepEqual(errors('   \n'), ['error json/syntax 1:0-1:0 "": Unexpected end of file: expected a JSON value (a trace is an array of events)']);
});

test('100,000 nested brackets neither throw nor overflow the stack', () => {
  const text = '['.repeat(100_000);
  const m = model(text);
  const found = problems(text).map((p) => p.slice(0, 120));
  assert.deepEqual(found, [
    'error trace/event-not-object 0:1-0:100000 "' + '['.repeat(120 - 43),
    `error json/syntax 0:100000-0:100000 "": Unexpected end of file: expected ']' then ']' then ']' (and 99997 more)`,
  ]);
  assert.equal(m.events.length, 1);
  traceSymbols(m);
  traceFolding(m);
  traceGraph(m, { toRange }, context());
  const closed = '['.repeat(100_000) + ']'.repeat(100_000);
  const closedModel = model(closed);
  assert.equal(closedModel.syntaxErrors.length, 0);
  assert.equal(closedModel.events[0].value.end, 199_999);
  assert.equal(closedModel.folds.length, 0);
});

test('binary junk gives errors without throwing or hanging', () => {
  let junk = '';
  for (let i = 0; i < 5000; i++) junk += String.fromCharCode((i * 7919) % 65536);
  const m = model(junk);
  assert.ok(m.syntaxErrors.length > 0);
  traceSymbols(m);
  traceFolding(m);
  traceCompletion(m, 100, context());
  traceGraph(m, { toRange }, context());
});

test('a byte order mark at the start is accepted', () => {
  assert.deepEqual(errors('\ufeff[{"role": "user", "content": "a"}]'), []);
});

test('offsets are absolute when a range of a larger text is parsed', () => {
  const text = 'xx\n[{"role": "tool", "tool_call_id": "q", "content": 1}]\nyy';
  const start = 3;
  const end = text.indexOf('\nyy');
  const m = parseTrace(text, start, end);
  assert.equal(m.events[0].value.start, 4);
  assert.equal(m.syntaxErrors.length, 0);
  const id = m.events[0].fields.find((f) => f.name === 'tool_call_id')!;
  assert.equal(text.slice(id.keyStart, id.keyEnd), '"tool_call_id"');
  assert.equal(text.slice(id.value!.start, id.value!.end), '"q"');
});

test('a missing colon or property name is reported and the rest of the event still parses', () => {
  const text = lines(
    '[',
    '  {"role" "user", "content": "a"},',
    '  {role: "tool", "tool_call_id": "x", "content": "b"}',
    ']',
  );
  assert.deepEqual(errors(text), [
    `error json/syntax 1:9-1:10 " ": Expected ':'`,
    'error json/syntax 2:3-2:7 "role": Property name expected: property names are double-quoted strings',
    'error trace/unknown-call-id 2:33-2:36 "\\"x\\"": tool_call_id "x" names no tool call in this trace',
  ]);
  const m = model(text);
  assert.equal(m.events[0].role, 'user');
  assert.equal(m.events[1].kind, 'output');
});

test('random edits of a trace never make a feature throw', () => {
  const base = lines(
    '[',
    '  {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image_url", "image_url": {"url": "x"}}]},',
    '  {"role": "assistant", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{\\"k\\": 1}"}}]},',
    '  {"role": "tool", "tool_call_id": "a", "content": "ok"},',
    '  {"id": "b", "type": "function", "function": {"name": "g", "arguments": {"x": [1, 2]}}},',
    '  {"role": "tool", "content": {"status": "done"}}',
    ']',
  );
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pieces = ['{', '}', '[', ']', '"', ',', ':', '\\', '\n', 'x', ' ', '"tool_call_id": ', 'null'];
  for (let round = 0; round < 400; round++) {
    let text = base;
    for (let edit = 0; edit < 3; edit++) {
      const at = Math.floor(random() * text.length);
      text = random() < 0.5
        ? text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 5))
        : text.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + text.slice(at);
    }
    const m = model(text);
    for (const p of validateTrace(m, context())) {
      assert.ok(p.span.start >= 0 && p.span.start <= p.span.end && p.span.end <= text.length, `${p.code} span inside the text`);
    }
    traceSymbols(m);
    traceFolding(m);
    traceGraph(m, { toRange }, context());
    for (let probe = 0; probe < 5; probe++) {
      const offset = Math.floor(random() * (text.length + 1));
      traceDefinition(m, offset);
      traceCompletion(m, offset, context());
      traceHover(m, offset, context());
      traceReferences(m, offset, true);
      traceHighlights(m, offset);
    }
  }
});

test('a string that goes wrong after a valid escape still reports the fault where it is', () => {
  const text = lines(
    '[',
    '  {"role": "user", "content": "a plain start \\n then \\q here"},',
    '  {"role": "user", "content": "escaped \\"quote\\" then a\ttab"},',
    '  {"role": "user", "content": "escaped \\t and \\u00e9 then \\u12"},',
    '  {"role": "user", "content": "escaped \\n and never closed',
    ']',
  );
  assert.deepEqual(errors(text), [
    `error json/syntax 1:53-1:55 "\\\\q": Invalid escape sequence '\\q' in string: valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`,
    'error json/syntax 2:55-2:56 "\\t": Control character U+0009 in a string: write it as \\t',
    'error json/syntax 3:58-3:62 "\\\\u12": Invalid unicode escape: \\u needs four hex digits',
    `error json/syntax 4:30-4:58 "\\"escaped \\\\n and never closed": Unterminated string: expected a closing '"' before the end of the line`,
    `error json/syntax 5:0-5:1 "]": Expected ',' or '}', found ']'`,
  ]);
});

test('well-formed strings with escapes keep their decoded values', () => {
  const text = lines(
    '[',
    '  {"role": "assistant", "tool_calls": [{"id": "c\\u0031", "type": "function", "function": {"name": "read_\\"file\\"", "arguments": "{\\"path\\": \\"/a\\\\nb\\"}"}}]},',
    '  {"role": "to\\u006fl", "tool_call_id": "c1", "content": "line one\\nline two"}',
    ']',
  );
  const trace = model(text);
  assert.deepEqual(errors(text), []);
  assert.equal(trace.calls[0].id, 'c1');
  assert.equal(trace.calls[0].name, 'read_"file"');
  assert.equal(trace.events[1].kind, 'output');
  assert.equal(trace.events[1].answers, trace.calls[0]);
});

test('a string with millions of escapes is read whole, and a fault after hundreds of them is still found', () => {
  const many = `[{"role": "tool", "content": "${'ab\\n'.repeat(2_000_000)}"}]`;
  const trace = parseTrace(many);
  assert.deepEqual(trace.syntaxErrors, []);
  assert.equal(trace.events[0].kind, 'output');
  const text = lines('[', `  {"role": "user", "content": "${'\\t'.repeat(300)}\\q"}`, ']');
  assert.deepEqual(errors(text), [
    `error json/syntax 1:631-1:633 "\\\\q": Invalid escape sequence '\\q' in string: valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX`,
  ]);
});
