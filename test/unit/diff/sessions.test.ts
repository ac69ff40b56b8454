import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { runSteps } from '../../../server/src/common/steps';
import { LineIndex } from '../../../server/src/common/lineIndex';
import { convertText, writeTraces } from '../../../server/src/conversion';
import { compareInSteps, type CompareSideInput, type Comparison } from '../../../server/src/diff/compare';
import { diffTraces, isSame } from '../../../server/src/diff/diff';
import { changeLines, summaryLine } from '../../../server/src/diff/report';
import { layoutOf, traceSource } from '../../../server/src/diff/sources';
import { regenerateIds } from './events';

const sessionPath = path.resolve(__dirname, '../../../..', 'examples/sessions/fix-checkout.jsonl');
const session = readFileSync(sessionPath, 'utf8');

/** The session's conversion, as `agent-traces convert` writes it. */
function conversion(): unknown[] {
  const converted = convertText(sessionPath, session);
  assert.ok(!('reason' in converted), 'the session converts');
  return JSON.parse(writeTraces(converted, 'trace', undefined).text) as unknown[];
}

function side(file: string, text: string): CompareSideInput & { lines: LineIndex } {
  const lines = new LineIndex(text);
  return { uri: `file://${file}`, path: file, text, label: path.basename(file), lines, toRange: (span) => ({ start: lines.positionAt(span.start), end: lines.positionAt(span.end) }) };
}

const settings = { maxSteps: 1000, maxAlignmentWork: 1_000_000, maxTextLength: 4000, ignore: [], compareIds: false };

/** The characters of the session that a located range covers. */
function textAt(sideInput: { lines: LineIndex; text: string }, range: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  return sideInput.text.slice(sideInput.lines.offsetAt(range.start), sideInput.lines.offsetAt(range.end));
}

describe('diff of a Claude Code session with a trace (two formats)', () => {
  it('reads the session as the trace it converts to', () => {
    assert.equal(layoutOf(sessionPath, session), 'converted');
    const read = traceSource(sessionPath, session);
    assert.ok(read.ok);
    assert.deepEqual(read.source.input.values, conversion());
    assert.deepEqual(read.source.notices, []);
  });

  it('reads every format that converts (traceFormats.ts) as the trace it converts to, and names it in messages', () => {
    const conversationPath = path.resolve(__dirname, '../../../..', 'examples/conversations/refund-request.json');
    const conversation = readFileSync(conversationPath, 'utf8');
    assert.equal(layoutOf(conversationPath, conversation), 'converted');
    const read = traceSource(conversationPath, conversation);
    assert.ok(read.ok);
    assert.equal(read.source.input.values.length, 9);
    const withLine = traceSource(conversationPath, conversation, 1);
    assert.deepEqual(withLine, { ok: false, reason: 'it is an Anthropic Messages conversation, not a dataset: a line number applies to datasets' });
    assert.deepEqual(traceSource(sessionPath, session, 2), { ok: false, reason: 'it is a Claude Code session, not a dataset: a line number applies to datasets' });
  });

  it('reads a pretty-printed trace under a name that says nothing (an untitled document) as one trace, not as a dataset', () => {
    const events = conversion();
    assert.equal(layoutOf('untitled:conversion', JSON.stringify(events, null, 2)), 'trace');
    assert.equal(layoutOf('untitled:conversion', `${JSON.stringify(events)}\n${JSON.stringify(events)}\n`), 'dataset');
  });

  it('finds a session the same as its own conversion, step for step, either way round', () => {
    const read = traceSource(sessionPath, session);
    assert.ok(read.ok);
    const converted = { format: 'events' as const, values: conversion() };
    assert.equal(summaryLine(diffTraces(read.source.input, converted)), '16 steps → 16 steps: the same step for step');
    assert.ok(isSame(diffTraces(converted, read.source.input)));
  });

  it('aligns the session with an edited conversion whose ids were regenerated: a removed pair, a changed argument, a failing call', () => {
    const edited = regenerateIds(conversion()) as Record<string, any>[];
    edited.splice(4, 2); // the Read call and its output
    edited[11].tool_calls[0].function.arguments.command = "git commit -am 'Fix the SAVE10 discount'";
    edited[12] = { ...edited[12], content: 'nothing to commit', is_error: true };
    const read = traceSource(sessionPath, session);
    assert.ok(read.ok);
    const result = diffTraces(read.source.input, { format: 'events', values: edited });
    assert.deepEqual(changeLines(result), [
      '- step 4 assistant: Read(file_path="/home/dev/shop/src/che…)',
      '- step 5 tool ← Read: "export function total(cart: Cart, code?: string): number {…',
      '~ step 13 → 11 Bash: arguments.command "git commit -am \'Apply the SAVE10 discount\'" → "git commit -am \'Fix the SAVE10 discount\'"',
      '~ step 14 → 12 tool ← Bash: now fails',
      '~ step 14 → 12 tool ← Bash: content "[main 4f2a9c1] Apply the SAVE10 discount\\n 1 file changed…" → "nothing to commit"',
      '~ step 14 → 12 tool ← Bash: is_error (none) → true',
    ]);
  });

  it('in the compare view, a click on a step or a changed field selects the session\'s own characters', () => {
    const edited = conversion() as Record<string, any>[];
    edited[13].tool_calls[0].function.arguments.command = 'git status';
    const left = side(sessionPath, session);
    const right = side('/work/fix-checkout.trace.json', JSON.stringify(edited, null, 2));
    const comparison: Comparison = runSteps(compareInSteps(left, right, settings));
    assert.equal(comparison.data.left.error, undefined);
    assert.deepEqual(comparison.data.counts, { same: 15, added: 0, removed: 0, changed: 1, reordered: 0, nowFail: 0, nowSucceed: 0 });
    const onStep = comparison.locate('left', 13)!;
    assert.equal(textAt(left, onStep.selection), '"Bash"', 'the call\'s tool name in the session');
    assert.match(textAt(left, onStep.range), /^\{"type":"tool_use","id":"toolu_01Checkout5"/, 'the step is the tool_use block it converts');
    const onField = comparison.locate('left', 13, 'tool_calls.0.function.arguments.command')!;
    assert.equal(textAt(left, onField.selection), '"git commit -am \'Apply the SAVE10 discount\'"');
    const onOutput = comparison.locate('left', 14)!;
    assert.equal(textAt(left, onOutput.selection), '"toolu_01Checkout5"', 'an output selects the id of the call it answers');
    const onRight = comparison.locate('right', 13, 'tool_calls.0.function.arguments.command')!;
    assert.equal(textAt(right, onRight.selection), '"git status"');
  });

  it('says which lines of a session were left out (not JSON), in the view and on the source', () => {
    const lines = session.split('\n');
    lines.splice(3, 0, '{"type":"assistant", broken');
    const broken = lines.join('\n');
    const read = traceSource(sessionPath, broken);
    assert.ok(read.ok);
    assert.deepEqual(read.source.notices, ['line 4 left out: not valid JSON']);
    const comparison = runSteps(compareInSteps(side(sessionPath, broken), side('/work/b.trace.json', JSON.stringify(conversion())), settings));
    assert.deepEqual(comparison.data.notices, ['fix-checkout.jsonl: line 4 left out: not valid JSON.']);
    assert.equal(comparison.data.counts.same, 16);
  });
});
