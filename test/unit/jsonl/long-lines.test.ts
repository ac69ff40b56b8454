import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonlService } from '../../../server/src/jsonl';
import { context, cut, describe, offsetOf, parse, problemsOf, spanOf } from './helpers';

/** A trace line of more than 30,000 characters with its interesting parts at the far end. */
function longLine(): string {
  const filler = Array.from({ length: 120 }, (_, i) => `{"role": "assistant", "content": "${'lorem ipsum '.repeat(20)}${i}"}`).join(', ');
  const text = `{"messages": [{"role": "user", "content": "find \\u00e9t\\u00e9 deals"}, ${filler}, {"role": "user", "content": "last one"}], "index": 1, "annotations": [{"content": "season", "address": "messages.0.content:5-8"}, {"content": "bad", "address": "messages.121.content:0-99"}, {"content": "gone", "address": "messages.500"}]}`;
  assert.ok(text.length > 30_000, `line is ${text.length} characters`);
  return text;
}

test('a 30,000-character line keeps exact diagnostics', () => {
  const line = longLine();
  const text = `{"metadata": {}}\n${line}\n${line.replace('"index": 1', '"index": 2')}`;
  const problems = problemsOf(text);
  assert.deepEqual(describe(text, problems), [
    "jsonl/annotation-range \"0-99\" Character range 0-99 runs past the end of 'messages.121.content' (length 8)",
    "jsonl/annotation-address \"500\" Address 'messages.500' names nothing: 'messages' has 122 items, so there is no index 500",
    "jsonl/annotation-range \"0-99\" Character range 0-99 runs past the end of 'messages.121.content' (length 8)",
    "jsonl/annotation-address \"500\" Address 'messages.500' names nothing: 'messages' has 122 items, so there is no index 500",
  ]);
  assert.deepEqual(problems[3].span, spanOf(text, 'messages.500', 1, [9, 12]));
  assert.ok(problems[3].span.start > 60_000);
});

test('a 30,000-character line keeps navigation: definition through \\u escapes, hover, outline', () => {
  const text = longLine();
  const model = parse(text);
  const targets = jsonlService.definition(model, offsetOf(text, 'messages.0.content:5-8'));
  // Decoded "été" (5-8) is written with two \u escapes in the source.
  assert.deepEqual(targets.map((t) => cut(text, t.span)), ['\\u00e9t\\u00e9']);
  assert.equal(jsonlService.hover(model, offsetOf(text, 'messages.0.content:5-8'), context)?.markdown, '**Annotation** on characters 5-8 of messages.0.content\n\n```text\nété\n```\n\n> season');
  const outline = jsonlService.symbols(model);
  assert.equal(outline.length, 1);
  assert.equal(outline[0].name, '#1');
  assert.equal(outline[0].detail, '122 events — find été deals');
});

test('a syntax error deep inside a long minified line is placed exactly', () => {
  const line = longLine();
  const broken = line.replace('"last one"}', '"last one" oops}');
  const text = `${broken}\n${line.replace('"index": 1', '"index": 2')}`;
  const problems = problemsOf(text);
  assert.equal(problems[0].code, 'jsonl/syntax');
  assert.equal(problems[0].span.start, text.indexOf('oops'));
  // The other line is still fully checked.
  assert.deepEqual(problems.slice(-2).map((p) => p.code), ['jsonl/annotation-range', 'jsonl/annotation-address']);
  assert.ok(problems.slice(-2).every((p) => p.span.start > text.indexOf('\n')));
});

test('hostile input: deep nesting, binary junk, a byte order mark, a huge broken line', () => {
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  const text = `\uFEFF[{"role": "user", "content": "hi"}]\n${deep}\n\u0000\u0001\u00ff garbage\n[${'"x",'.repeat(10_000)}`;
  const problems = problemsOf(text);
  assert.ok(problems.every((p) => p.code === 'jsonl/syntax'));
  assert.deepEqual([...new Set(problems.map((p) => text.slice(0, p.span.start).split('\n').length))], [2, 3, 4]);
  assert.equal(problems[0].message, 'Values are nested too deeply to be read (line 2 is not valid JSON; other lines are read on their own)');
  const model = parse(text);
  assert.equal(model.lines[0].kind, 'raw');
  // The unfinished list on the last line is still a trace in the outline.
  assert.deepEqual(jsonlService.symbols(model).map((s) => s.name), ['Trace 1', 'Trace 2']);
});
