import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { Span } from '../../../server/src/common/types';
import { inspectService, type InspectModel } from '../../../server/src/inspect';
import { agentLog, assistant, log, sample, tool, user } from './logs';

/**
 * A big log in the editor is read and checked in slices (the server answers other requests in between): the model
 * and the problems must be those of the reading at once, for a valid log, a broken one and one with a raw control
 * character in a string.
 */
const context: ServiceContext = { settings: defaultSettings };
const toRange = (span: Span) => ({ start: { line: 0, character: span.start }, end: { line: 0, character: span.end } });

async function bothWays(text: string): Promise<{ atOnce: InspectModel; inSlices: InspectModel; pauses: number }> {
  const atOnce = inspectService.parse({ uri: 'file:///a.json', version: 1, text });
  let pauses = 0;
  const pause = async () => void pauses++;
  // Slices of 0 ms: a pause after every step, so that every step boundary is crossed.
  const inSlices = await inspectService.parseInSlices!({ uri: 'file:///a.json', version: 1, text }, pause, 0);
  return { atOnce, inSlices, pauses };
}

function manySamples(count: number): string {
  return log(Array.from({ length: count }, (_, i) => sample({
    id: i + 1,
    messages: [
      user(`Task ${i + 1}`),
      assistant(`m${i}`, 'Looking.', [{ id: `call_${i}`, fn: 'bash', args: { cmd: 'ls' } }]),
      tool(`t${i}`, i === 3 ? 'call_missing' : `call_${i}`, 'bash', 'a.txt'),
    ],
  })));
}

test('a log read in slices gives the model, outline, problems and preview of the log read at once', async () => {
  for (const text of [agentLog(), manySamples(12)]) {
    const { atOnce, inSlices, pauses } = await bothWays(text);
    assert.ok(pauses >= inSlices.samples.length, `${pauses} pauses for ${inSlices.samples.length} samples: one step per sample at least`);
    assert.deepEqual(inSlices.errors, atOnce.errors);
    assert.deepEqual(inSlices.log, atOnce.log);
    assert.deepEqual(inSlices.samples.map((s) => [s.index, s.id, s.epoch, s.span]), atOnce.samples.map((s) => [s.index, s.id, s.epoch, s.span]));
    assert.deepEqual(inspectService.symbols(inSlices), inspectService.symbols(atOnce));
    let checkPauses = 0;
    const problems = await inspectService.validateInSlices!(inSlices, context, async () => void checkPauses++, 0);
    assert.deepEqual(problems, inspectService.validate(atOnce, context));
    assert.ok(checkPauses >= inSlices.samples.length - 1, `${checkPauses} pauses while checking ${inSlices.samples.length} samples`);
    assert.deepEqual(inspectService.graph!(inSlices, { toRange }, context), inspectService.graph!(atOnce, { toRange }, context));
  }
  const { inSlices } = await bothWays(manySamples(12));
  assert.deepEqual(inspectService.validate(inSlices, context).map((p) => p.code), ['inspect/unanswered-call', 'inspect/unknown-call-id']);
});

test('a broken log read in slices reports the syntax error of the log read at once', async () => {
  const whole = manySamples(6);
  for (const text of [whole.slice(0, Math.floor(whole.length * 0.7)), whole.replace('"Task 3"', '"Task\t3"'), whole.replace('"Task 2"', '"Task 2",,')]) {
    const { atOnce, inSlices } = await bothWays(text);
    assert.ok(atOnce.errors.length > 0);
    assert.deepEqual(inSlices.errors, atOnce.errors);
    assert.deepEqual(inSlices.samples.map((s) => s.span), atOnce.samples.map((s) => s.span));
    assert.deepEqual(await inspectService.validateInSlices!(inSlices, context, async () => undefined, 0), inspectService.validate(atOnce, context));
  }
});

test('a reading in slices stops at a pause once its budget is spent (a newer version, a close)', async () => {
  let cancelled = false;
  const reading = inspectService.parseInSlices!(
    { uri: 'file:///a.json', version: 1, text: manySamples(20), budget: { get isCancellationRequested() { return cancelled; } } },
    async () => void (cancelled = true), 0,
  );
  await assert.rejects(reading, /cancel/i);
});

test('a check in slices tells of the problems found so far after each sample, sorted and capped as the final list', async () => {
  const text = manySamples(12);
  const { inSlices } = await bothWays(text);
  const heard: { count: number; codes: string[] }[] = [];
  const problems = await inspectService.validateInSlices!(inSlices, context, async () => undefined, 0, (soFar) => {
    heard.push({ count: soFar.count, codes: soFar.list().map((problem) => problem.code) });
  });
  assert.equal(heard.length, 12, 'once per sample');
  // Sample 4 (index 3) answers a call that is missing, and leaves its own call unanswered.
  assert.deepEqual(heard.slice(0, 3).map((h) => h.count), [0, 0, 0]);
  assert.deepEqual(heard[3], { count: 2, codes: ['inspect/unanswered-call', 'inspect/unknown-call-id'] });
  assert.deepEqual(heard[11].codes, problems.map((problem) => problem.code));
  const capped: string[][] = [];
  const one = { settings: { ...defaultSettings, maxProblems: 1 } };
  const final = await inspectService.validateInSlices!(inSlices, one, async () => undefined, 0, (soFar) => {
    if (soFar.count > 0) capped.push(soFar.list().map((problem) => problem.code));
  });
  assert.deepEqual(capped[0], ['inspect/unknown-call-id', 'inspect/too-many-problems']);
  assert.deepEqual(capped[0], final.map((problem) => problem.code));
});
