import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCost, formatDuration } from '../../../shared/format';

test('durations: tenths of a millisecond below a second, seconds below a minute, then minutes', () => {
  assert.equal(formatDuration(0), '0.0 ms');
  assert.equal(formatDuration(32.46), '32.5 ms');
  assert.equal(formatDuration(999.94), '999.9 ms');
  assert.equal(formatDuration(4200), '4.20 s');
  assert.equal(formatDuration(30000), '30.0 s');
  assert.equal(formatDuration(125_000), '2 min 5 s');
  assert.equal(formatDuration(undefined), 'no duration');
  assert.equal(formatDuration(Number.NaN), 'no duration');
});

test('costs: dollars to four decimals, two significant digits below a cent', () => {
  assert.equal(formatCost(0.0123), '$0.0123');
  assert.equal(formatCost(0.5), '$0.5000');
  assert.equal(formatCost(0.00123), '$0.0012');
  assert.equal(formatCost(0), '$0.0000');
  assert.equal(formatCost(12.3), '$12.3000');
});
