import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runSteps, sliceFromLength } from '../../../server/src/common/steps';
import { traceSpans, traceSpansInSteps } from '../../../server/src/guardrail/evaluate/traceSpans';
import { ErrorPlacer } from '../../../server/src/rulesOnTraces/tracesInText';
import { random } from '../testing';

/** A trace over the size read in steps, with the shapes addresses walk: strings with escapes, calls, JSON arguments. */
function bigTrace(): string {
  const next = random(7);
  const events: unknown[] = [];
  for (let i = 0; events.length === 0 || JSON.stringify(events).length < sliceFromLength * 1.2; i++) {
    const id = `call_${i}`;
    const args = { path: `/tmp/ñ-${i}.txt`, query: `find "x" — ${Math.floor(next() * 1e6)}` };
    events.push({ role: 'user', content: `line one\nline "two" 🙂 ${i}` });
    events.push({
      role: 'assistant', content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: i % 2 ? JSON.stringify(args) : args } }],
    });
    events.push({ role: 'tool', tool_call_id: id, content: `1:\tresult ${'é'.repeat(40)} ${i}\n2:\t"quoted"` });
  }
  return JSON.stringify(events, null, 1);
}

function addresses(count: number): string[] {
  const found: string[] = [];
  for (let i = 0; found.length < count; i += 37) {
    const user = i * 3;
    found.push(`messages.${user}.content`, `messages.${user}.content:5-12`, `messages.${user + 1}.tool_calls.0.function.arguments.query`,
      `messages.${user + 1}.tool_calls.0.function.arguments.query:2-9`, `messages.${user + 1}.tool_calls.0.function.name`,
      `messages.${user + 2}.content:10-30`, `messages.${user + 2}.server`, `messages.${user}`);
  }
  return found;
}

describe('reading a big trace\'s addresses in steps', () => {
  const text = bigTrace();

  it('places every address where reading it at once does', () => {
    const atOnce = traceSpans(text, 0, text.length);
    const inSteps = runSteps(traceSpansInSteps(text, 0, text.length, 2));
    for (const address of addresses(400)) assert.deepEqual(inSteps(address), atOnce(address), address);
  });

  it('pauses while it reads (a step of about 2 ms each), and the error placer reads a big trace that way', () => {
    let steps = 0;
    const reading = traceSpansInSteps(text, 0, text.length, 0);
    while (!reading.next().done) steps++;
    assert.ok(steps > 10, `read in ${steps} steps`);
    const placer = new ErrorPlacer(text, { start: 0, end: text.length, trace: [] });
    let placerSteps = 0;
    // Steps of 0 ms: a pause after every look at the clock, however fast the machine.
    for (const _ of placer.readAddressesInSteps(0)) placerSteps++;
    assert.ok(placerSteps > 10 && placer.addressesRead, `the placer read in ${placerSteps} steps`);
  });

  it('reads a small trace at once', () => {
    const small = '[{"role": "user", "content": "hi"}]';
    const placer = new ErrorPlacer(small, { start: 0, end: small.length, trace: [] });
    assert.equal([...placer.readAddressesInSteps()].length, 0);
    assert.ok(placer.addressesRead);
  });
});
