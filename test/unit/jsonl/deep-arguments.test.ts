import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonlService } from '../../../server/src/jsonl';
import { placeAt } from '../../../server/src/jsonl/locate';
import { context, parse } from './helpers';

const DEPTH = 5_000;
const ITEMS = 100_000;
const nested = '{"a":'.repeat(DEPTH) + '[' + Array.from({ length: ITEMS }, (_, i) => String(i % 10)).join(',') + ']' + '}'.repeat(DEPTH);

const agentguard = `{"call":{"call_id":"c1","tool_name":"t","args":[${nested}],"kwargs":{},"timestamp":"2026-11-22T11:36:17.813113Z","session_id":null,"metadata":{}},`
  + '"result":{"call_id":"c1","tool_name":"t","status":"success","return_value":null,"exception":null,"exception_type":null,"execution_time_ms":1,'
  + '"retry_count":0,"validations":[],"hallucination":null,"cost":null,"provider":null,"model":null,"usage":null,"cost_breakdown":null,'
  + '"cost_estimated":false,"cost_known":false,"timestamp":"2026-11-22T11:36:17.846354Z"}}\n';
const dataset = `{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":${nested}}}]}]}\n`;

/** Locating a node 5,000 levels down reads each level once (it used to read each level's whole subtree again). */
for (const [name, text, prefix] of [
  ['agentguard', agentguard, ['call', 'args', 0]],
  ['dataset', dataset, ['messages', 0, 'tool_calls', 0, 'function', 'arguments']],
] as const) {
  test(`${name}: hover, definition and highlights deep inside arguments nested ${DEPTH} levels find the exact node`, () => {
    const model = parse(text);
    const offset = text.indexOf('[0,1,2') + 1 + 2 * 12_345;
    const place = placeAt(model, offset)!;
    assert.deepEqual(place.path, [...prefix, ...Array<string>(DEPTH).fill('a'), 12_345]);
    assert.equal(text.slice(place.steps.at(-1)!.node.start, place.steps.at(-1)!.node.end), String(12_345 % 10));
    assert.equal(jsonlService.hover(model, offset, context), null);
    assert.deepEqual(jsonlService.definition(model, offset), []);
    assert.deepEqual(jsonlService.highlights(model, offset), []);
    const key = text.indexOf('{"a"') + 5 * 2_500 + 2;
    const onKey = placeAt(parse(text), key)!;
    assert.equal(onKey.steps.at(-1)!.onKey, true);
    assert.deepEqual(onKey.path, [...prefix, ...Array<string>(2_501).fill('a')]);
  });
}

/** A broken line is read by the tolerant reader, whose partial tree is as deep and is walked the same way. */
for (const [name, text, prefix] of [
  ['agentguard', agentguard, ['call', 'args', 0]],
  ['dataset', dataset, ['messages', 0, 'tool_calls', 0, 'function', 'arguments']],
] as const) {
  test(`${name}: a line broken ${DEPTH} levels down reports its error and keeps its partial tree`, () => {
    const broken = text.replace('[0,1,2', '[0,1 2');
    const model = parse(broken);
    const missingComma = broken.indexOf('[0,1 2') + 5;
    assert.deepEqual(jsonlService.validate(model, context).map((p) => [p.code, p.span.start, p.span.end, p.message]), [
      ['jsonl/syntax', missingComma, missingComma + 1, 'Expected comma (line 1 is not valid JSON; other lines are read on their own)'],
    ]);
    const offset = broken.indexOf('[0,1 2') + 1 + 2 * 12_345;
    const place = placeAt(model, offset)!;
    assert.deepEqual(place.path, [...prefix, ...Array<string>(DEPTH).fill('a'), 12_345]);
    assert.equal(broken.slice(place.steps.at(-1)!.node.start, place.steps.at(-1)!.node.end), String(12_345 % 10));
  });
}
