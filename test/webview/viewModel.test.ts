/** The preview's indexes, projection, filter and navigation, without a browser. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFilter, emptyFilter } from '../../client/webview/filter';
import { buildViewModel } from '../../client/webview/model';
import { adjacentProblem, innermostNodeAt } from '../../client/webview/navigation';
import { buildProjection, nestedOffset, rowAt } from '../../client/webview/projection';
import { GraphLayout } from '../../shared/protocol';
import { buildGraph, syntheticEvents } from './graphFixture';

const hint = { severity: 'hint' as const, code: 'trace/unknown-key', message: 'Unknown key "x".' };
const error = { severity: 'error' as const, code: 'trace/unknown-call-id', message: 'No tool call has the id "9".' };

describe('preview view model', () => {
  const data = buildGraph([
    { kind: 'user', content: 'hi', problems: [hint] },
    { kind: 'assistant', content: 'calling', calls: [{ id: 'a', name: 'get_inbox' }, { id: 'b', name: 'send_email', problems: [error] }] },
    { kind: 'output', callId: 'a', content: 'inbox' },
    { kind: 'entry', title: 'fetch', status: 'timeout', content: 'x' },
    { kind: 'entry', title: 'fetch', status: 'retried', content: 'x' },
  ]);
  const model = buildViewModel(data);

  test('calls are drawn inside their message; everything else is a row, in y order', () => {
    assert.deepEqual([...model.topLevel], [0, 1, 4, 5, 6]);
    assert.deepEqual(model.children.get(1), [2, 3]);
    assert.deepEqual([...model.nested], [0, 0, 1, 1, 0, 0, 0]);
    assert.deepEqual(model.toolNames, ['get_inbox', 'send_email']);
  });

  test('problems to visit: errors, warnings, information and failed tool calls, not hints or retries', () => {
    assert.deepEqual([...model.problemNodes], [3, 5]);
  });

  test('without a filter rows keep the server y; an expansion moves only the rows below it', () => {
    const plain = buildProjection(model, null, new Map());
    assert.deepEqual([...plain.tops], [...model.topLevel].map((id) => data.nodes[id].y));
    assert.equal(plain.columns, false);
    assert.equal(plain.rowOf[3], 1, 'a call is drawn by its message row');
    const expanded = buildProjection(model, null, new Map([[2, 100]]));
    assert.deepEqual([...expanded.tops], [plain.tops[0], plain.tops[1], plain.tops[2] + 100, plain.tops[3] + 100, plain.tops[4] + 100]);
    assert.equal(expanded.heights[1], plain.heights[1] + 100, 'the message grows by its call panel');
    assert.equal(nestedOffset(model, new Map([[2, 100]]), 3), data.nodes[3].y - data.nodes[1].y + 100);
  });

  test('a filter stacks the rows it keeps with the layout gap', () => {
    const filter = applyFilter(model, { ...emptyFilter, tool: 'send_email' });
    assert.equal(filter.matchCount, 1);
    const projection = buildProjection(model, filter.include, new Map());
    assert.deepEqual([...projection.rows], [1]);
    assert.deepEqual([...projection.tops], [GraphLayout.padding]);
    const text = applyFilter(model, { ...emptyFilter, query: 'INBOX' });
    assert.deepEqual([...text.matched].flatMap((m, id) => (m ? [id] : [])), [2, 4]);
  });

  test('rowAt finds the row under a scroll position', () => {
    const projection = buildProjection(model, null, new Map());
    assert.equal(rowAt(projection, 0), 0);
    assert.equal(rowAt(projection, projection.tops[2] + 1), 2);
  });

  test('the innermost node at a line is the call, not its message', () => {
    assert.equal(innermostNodeAt(model, data.nodes[3].range.start.line + 1), 3);
    assert.equal(innermostNodeAt(model, data.nodes[1].range.start.line), 1);
    assert.equal(innermostNodeAt(model, 100_000), -1);
  });

  test('with a character, the node holding that position: every event of a dataset trace is on one line', () => {
    const oneLine = structuredClone(data);
    const at = (start: number, end: number) => ({ start: { line: 7, character: start }, end: { line: 7, character: end } });
    [at(0, 9), at(10, 90), at(40, 60), at(62, 80), at(91, 120), at(121, 140), at(141, 160)].forEach((range, id) => (oneLine.nodes[id].range = range));
    const lineModel = buildViewModel(oneLine);
    assert.equal(innermostNodeAt(lineModel, 7, 10), 1, 'the message at its opening brace');
    assert.equal(innermostNodeAt(lineModel, 7, 45), 2, 'the call inside it');
    assert.equal(innermostNodeAt(lineModel, 7, 95), 4);
    // a position no node holds falls back to the line
    assert.equal(innermostNodeAt(lineModel, 7, 500), innermostNodeAt(lineModel, 7));
  });

  test('next and previous problem wrap around and skip hidden nodes', () => {
    const all = () => true;
    assert.equal(adjacentProblem(model, -1, 1, all), 3);
    assert.equal(adjacentProblem(model, 3, 1, all), 5);
    assert.equal(adjacentProblem(model, 5, 1, all), 3);
    assert.equal(adjacentProblem(model, -1, -1, all), 5);
    assert.equal(adjacentProblem(model, 3, 1, (id) => id !== 5), 3);
    assert.equal(adjacentProblem(buildViewModel(buildGraph(syntheticEvents(4))), -1, 1, all), -1);
  });

  test('rows the server placed side by side (overlapping in y) are drawn as columns', () => {
    const sideBySide = buildGraph(syntheticEvents(3));
    sideBySide.nodes[3].y = sideBySide.nodes[1].y;
    assert.equal(buildProjection(buildViewModel(sideBySide), null, new Map()).columns, true);
  });
});
