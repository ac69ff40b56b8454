import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { jsonlService, detectJsonLinesFormat } from '../../../server/src/jsonl';
import { languageForDocument, languageForFile } from '../../../server/src/languages';
import { defaultSettings } from '../../../server/src/common/languageService';
import { context, corpus, corpusOrSkip, outlineLines, parse } from './helpers';

const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
const read = (name: string) => readFileSync(path.join(corpus, 'formats/codex', name), 'utf8');

test('the golden rollout of the corpus: recognised by its session_meta, no problem at all', (t) => {
  if (!corpusOrSkip(t)) return;
  const text = read('codex_golden.jsonl');
  assert.equal(detectJsonLinesFormat(text), 'codex');
  // Whatever the file is called and whatever language id the client sends.
  assert.equal(languageForFile('/sessions/2025/01/04/rollout-x.jsonl', text), 'agent-trace-jsonl');
  assert.equal(languageForDocument('file:///tmp/copy-of-a-session.jsonl', 'jsonl', text), 'agent-trace-jsonl');
  assert.equal(languageForDocument('untitled:Untitled-1', 'plaintext', text), 'agent-trace-jsonl');
  const model = parse(text);
  assert.equal(model.format, 'codex');
  assert.deepEqual(jsonlService.validate(model, context), []);
});

test('the golden rollout: the outline by prompt, the session with its totals on top, the call under its turn', (t) => {
  if (!corpusOrSkip(t)) return;
  const model = parse(read('codex_golden.jsonl'));
  assert.deepEqual(outlineLines(jsonlService.symbols(model)), [
    'Codex session golden-codex-001 | /home/testuser/codex-project · Codex 0.77.0 · 1 call · 13.0 s · 450 tokens (300 in, 135 out)',
    'List the files in the current directory | 1 call · 6.00 s · 09:00:02',
    '  shell: ls -la | 1.00 s',
    'Thanks! | 3.00 s · 233 tokens · 09:00:10',
  ]);
});

test('the golden rollout: from the output\'s call_id to its call, and the hover on it with the call\'s time', (t) => {
  if (!corpusOrSkip(t)) return;
  const text = read('codex_golden.jsonl');
  const model = parse(text);
  const outputLine = text.indexOf('"type":"function_call_output"');
  const id = text.indexOf('"call_golden_001"', outputLine);
  const [target] = jsonlService.definition(model, id + 3);
  const callLine = text.indexOf('{"type":"function_call"');
  assert.deepEqual(target.span, { start: callLine, end: text.indexOf('\n', callLine) - 1 });
  const callId = text.indexOf('"call_golden_001"');
  assert.deepEqual(target.selection, { start: callId, end: callId + '"call_golden_001"'.length });
  const hover = jsonlService.hover(model, id + 3, context)!;
  assert.equal(hover.markdown.split('\n')[0], '**Answers** `shell("ls -la")` — line 6, id `call_golden_001`, 1.00 s before');
  // From the call back to its output.
  assert.deepEqual(jsonlService.definition(model, callId + 3).map((found) => found.selection), [{ start: id, end: id + '"call_golden_001"'.length }]);
});

test('the golden rollout: the token count is counted once, on the assistant\'s message it follows', (t) => {
  if (!corpusOrSkip(t)) return;
  const text = read('codex_golden.jsonl');
  const model = parse(text);
  const hover = jsonlService.hover(model, text.indexOf('"token_count"') + 2, context)!;
  assert.match(hover.markdown, /Counted on response_item message on line 9, the model's last record before this count: 233 tokens \(150 in \(60 cached\), 75 out \(8 reasoning\)\)\./);
  const graph = jsonlService.graph!(model, { toRange }, context);
  assert.deepEqual(graph.nodes.map((node) => `${node.kind} ${node.title}${node.tokens ? ` [${node.tokens}]` : ''}${node.durationMs !== undefined ? ` (${node.durationMs} ms)` : ''}`), [
    'metadata L1 session golden-codex-001',
    'user L3 user',
    'message L4 reasoning',
    'assistant L5 assistant',
    'call L6 shell("ls -la")',
    'output L7 output ← shell (1000 ms)',
    'user L8 user',
    'assistant L9 assistant [233]',
  ]);
  assert.deepEqual(graph.edges.filter((edge) => edge.kind !== 'sequence'), [{ from: 4, to: 5, kind: 'output' }]);
  assert.deepEqual(graph.totals, { calls: 1, failedCalls: 0, durationMs: 13000, tokens: 450, inputTokens: 300, outputTokens: 135 });
});

test('the golden rollout: call durations as inlay hints only when agentTraces.inlayHints.durations is on', (t) => {
  if (!corpusOrSkip(t)) return;
  const text = read('codex_golden.jsonl');
  const model = parse(text);
  const whole = { start: 0, end: text.length };
  const off = jsonlService.inlayHints!(model, whole, context);
  assert.ok(off.every((label) => !label.label.startsWith('⏱')));
  const on = jsonlService.inlayHints!(model, whole, { settings: { ...defaultSettings, inlayHints: { ...defaultSettings.inlayHints, durations: true } } });
  const callLine = text.indexOf('{"type":"function_call"');
  assert.deepEqual(on.filter((label) => label.label.startsWith('⏱')), [{ offset: text.indexOf('\n', callLine) - 1, label: '⏱ 1.00 s' }]);
});

test('the rollout with an escalation: its real faults are the two calls left unanswered, one per way a turn ends', (t) => {
  if (!corpusOrSkip(t)) return;
  const text = read('codex_with_escalation.jsonl');
  const model = parse(text);
  const problems = jsonlService.validate(model, context);
  assert.deepEqual(problems.map((p) => [p.severity, p.code, text.slice(p.span.start, p.span.end), p.message]), [
    ['information', 'codex/unanswered-call', '"call_esc_002"',
      'No output answers this call to "shell" (id "call_esc_002"): the next prompt (line 12) came before it, so the turn was interrupted; when Codex loads this session again it inserts an "aborted" output for this call'],
    ['information', 'codex/unanswered-call', '"call_esc_004"',
      'No output answers this call to "shell" (id "call_esc_004"): the turn was aborted (line 20: user_cancelled) before its output was written; when Codex loads this session again it inserts an "aborted" output for this call'],
  ]);
  assert.deepEqual(outlineLines(jsonlService.symbols(model)), [
    'Codex session rejection-codex-001 | /home/testuser/codex-rejection-project · Codex 0.77.0 · 4 calls · 1 min 15 s · 2,400 tokens (1,500 in, 800 out)',
    'Create a test file | 1 call · 8.00 s · 11:00:02',
    '  shell: echo \'Hello World\' > test.txt | 1.00 s',
    'Yes, overwrite it with something else | 1 call · 5.00 s · 11:00:15',
    '  shell: printf \'Goodbye World\\n\' > test.txt | unanswered',
    'Actually nevermind, I want to keep the original content | 2.00 s · 11:00:30',
    'Can you read what\'s in it? | 1 call · 5.00 s · 11:00:40',
    '  shell: cat test.txt | 1.00 s',
    'Delete the file | 1 call · 15.0 s · 320 tokens · 11:01:00',
    '  shell: rm test.txt | unanswered',
  ]);
  const graph = jsonlService.graph!(model, { toRange }, context);
  const aborted = graph.nodes.find((node) => node.title.startsWith('L20'))!;
  assert.equal(aborted.title, 'L20 turn aborted (user_cancelled)');
  const unanswered = graph.nodes.filter((node) => node.problems.some((p) => p.code === 'codex/unanswered-call')).map((node) => node.title);
  assert.deepEqual(unanswered, ['L11 shell("printf \'Goodbye World\\n\' > test.txt")', 'L19 shell("rm test.txt")']);
});

test('VS Code adopts a rollout by the manifest\'s first-line pattern, and not another log', (t) => {
  if (!corpusOrSkip(t)) return;
  const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as { contributes: { languages: { id: string; firstLine?: string }[] } };
  const pattern = new RegExp(manifest.contributes.languages.find((language) => language.id === 'agent-trace-jsonl')!.firstLine!);
  for (const name of ['codex_golden.jsonl', 'codex_with_escalation.jsonl']) assert.ok(pattern.test(read(name).split('\n')[0]), name);
  assert.ok(pattern.test('{"timestamp":"2025-10-01T08:00:00.123Z","type":"response_item","payload":{"type":"message"}}'));
  assert.ok(!pattern.test('{"timestamp":"2025-10-01T08:00:00.123Z","type":"info","message":"started"}'));
});
