import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateRules } from '../../../../server/src/guardrail/evaluate/evaluator';
import { model } from '../helpers';

function bindings(policy: string, trace: unknown[]) {
  return evaluateRules(model(policy), trace).errors.map((e) => e.bindings);
}

const user = (content: unknown) => ({ role: 'user', content });
const call = (id: string, name: string, args: unknown = {}) => ({ id, type: 'function', function: { name, arguments: args } });

describe('evaluation: bindings', () => {
  it('gives each variable the address of the event, the call inside a message or the output it was bound to', () => {
    const trace = [
      user('refund please'),
      { role: 'assistant', content: null, tool_calls: [call('a', 'lookup'), call('b', 'refund', { amount: 50 })] },
      { role: 'tool', tool_call_id: 'b', content: 'done' },
    ];
    const policy = 'raise "refund" if:\n    (m: Message)\n    (c: ToolCall) -> (o: ToolOutput)\n    m.role == "user"\n    c is tool:refund\n';
    assert.deepEqual(bindings(policy, trace), [[
      { variable: 'm', address: 'messages.0' },
      { variable: 'c', address: 'messages.1.tool_calls.1' },
      { variable: 'o', address: 'messages.2' },
    ]]);
  });

  it('gives a standalone tool call event its event address, and a value read from the trace its own address', () => {
    const trace = [{ ...call('x', 'send', '{"to": "bob"}') }];
    const policy = 'raise "send" if:\n    (c: ToolCall)\n    to := c.function.arguments.to\n    to == "bob"\n';
    assert.deepEqual(bindings(policy, trace), [[
      { variable: 'c', address: 'messages.0' },
      { variable: 'to', address: 'messages.0.function.arguments.to' },
    ]]);
  });

  it('leaves out variables bound to values the trace does not hold, and a rule that binds nothing has none', () => {
    const policy = 'raise "lower" if:\n    (m: Message)\n    t := m.content.lower()\n    n := 3\n    "x" in t\n';
    assert.deepEqual(bindings(policy, [user('X marks')]), [[{ variable: 'm', address: 'messages.0' }]]);
    assert.deepEqual(bindings('raise "always" if:\n    (o: ToolOutput)\n', [user('hi')]), [[]]);
  });

  it('finds a one-character string by identity, not at the first equal value', () => {
    const policy = 'raise "b" if:\n    (m: Message)\n    c := m.content\n    c == "b"\n';
    assert.deepEqual(bindings(policy, [user('b'), user('b')]), [
      [{ variable: 'm', address: 'messages.0' }, { variable: 'c', address: 'messages.0.content' }],
      [{ variable: 'm', address: 'messages.1' }, { variable: 'c', address: 'messages.1.content' }],
    ]);
  });

  it('names a variable called __proto__ like any other', () => {
    const policy = 'raise "p" if:\n    (__proto__: Message)\n';
    assert.deepEqual(bindings(policy, [user('a')]), [[]]);
    const bound = 'raise PolicyViolation("p", __proto__) if:\n    (__proto__: Message)\n';
    assert.deepEqual(bindings(bound, [user('a')]), [[{ variable: '__proto__', address: 'messages.0' }]]);
  });
});
