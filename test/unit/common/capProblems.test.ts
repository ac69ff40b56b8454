import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capProblems, tooManyProblemsMessage } from '../../../server/src/common/capProblems';
import type { Problem, Severity } from '../../../server/src/common/types';

const problem = (start: number, severity: Severity): Problem => ({ span: { start, end: start + 1 }, severity, code: severity, message: `${severity} at ${start}` });
const notice = (omitted: number, limit: number, found: number): Problem =>
  ({ span: { start: 0, end: 0 }, severity: 'information', code: 'notice', message: `${omitted} left out, ${limit} of ${found} shown` });
const describe = (list: Problem[]) => list.map((p) => p.message);

test('under the limit every problem is kept as given, without a notice', () => {
  assert.deepEqual(describe(capProblems([problem(9, 'hint'), problem(3, 'error')], 2, notice)), ['hint at 9', 'error at 3']);
});

test('over the limit errors are kept before earlier hints, shown in document order with the notice last', () => {
  const list = [problem(1, 'hint'), problem(2, 'warning'), problem(8, 'error'), problem(5, 'information'), problem(9, 'error')];
  assert.deepEqual(describe(capProblems(list, 3, notice)), ['warning at 2', 'error at 8', 'error at 9', '2 left out, 3 of 5 shown']);
});

test('a limit below one still shows the most severe problem', () => {
  assert.deepEqual(describe(capProblems([problem(1, 'hint'), problem(4, 'error')], 0, notice)), ['error at 4', '1 left out, 1 of 2 shown']);
});

test('the notice every language gives says how many of how many are shown, which ones, and the setting', () => {
  assert.equal(tooManyProblemsMessage(1000, 250000),
    'Showing 1,000 of 250,000 problems: the most severe are kept, errors first (the setting agentTraces.maxProblems raises the limit)');
});
