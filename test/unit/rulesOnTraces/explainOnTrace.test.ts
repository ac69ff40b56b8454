import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { traceLayoutOfFile } from '../../../server/src/traceFormats';
import { elementAt, explainAt, ruleOffers } from '../../../server/src/rulesOnTraces/explainOnTrace';

const ruleText = [
  'raise "refund needs approval" if:',
  '    (call: ToolCall) -> (out: ToolOutput)',
  '    call is tool:refund',
  '    out.content == "refunded"',
  '',
  'raise "greeting" if:',
  '    (m: Message)',
  '    m.role == "user"',
  '',
].join('\n');
const rules = { uri: 'file:///w/refunds.gr', model: guardrailService.parse({ uri: 'file:///w/refunds.gr', version: 1, text: ruleText }) as RuleModel };

const events = (refundOutput: string) => [
  { role: 'user', content: 'refund order 7' },
  { role: 'assistant', content: 'ok', tool_calls: [
    { id: 'a', type: 'function', function: { name: 'lookup', arguments: {} } },
    { id: 'b', type: 'function', function: { name: 'refund', arguments: { amount: 500 } } },
  ] },
  { role: 'tool', tool_call_id: 'b', content: refundOutput },
];
const traceUri = 'file:///w/t.trace.json';
const trace = (text: string) => ({ text, layout: 'trace' as const, path: '/w/t.trace.json' });
const dataset = (text: string) => ({ text, layout: 'dataset' as const, path: '/w/runs.jsonl' });
/** Links name the offset, so that the test reads where each one points. */
const linkTo = (uri: string, span: { start: number }) => `${uri}#${span.start}`;

describe('"why not here?" on a trace document', () => {
  it('finds the innermost element at the cursor: a call inside its message, the message around it, nothing between events', () => {
    const text = JSON.stringify(events('failed'), null, 2);
    const onCall = elementAt(trace(text), text.indexOf('"refund"'));
    const element = onCall.element!;
    assert.deepEqual({ ...element, text: text.slice(element.span.start, element.span.end).split('\n')[0] },
      { address: 'messages.1.tool_calls.1', typeName: 'ToolCall', label: '#1 ToolCall refund', span: element.span, text: '{' });
    assert.equal(text.slice(onCall.element!.span.start).indexOf('"id": "b"') < 40, true, 'the span is the call\'s object');
    assert.equal(elementAt(trace(text), text.indexOf('"ok"')).element?.address, 'messages.1');
    assert.equal(elementAt(trace(text), text.indexOf('"failed"')).element?.label, '#2 ToolOutput of refund');
    assert.deepEqual(elementAt(trace(text), 0), { trace: elementAt(trace(text), 0).trace, problem: 'the cursor is on no event or tool call of the trace' });
    assert.deepEqual(elementAt(trace('{"a": 1}'), 2), { problem: 'it holds no trace (a list of events, or an object with messages)' });
  });

  it('offers each rule with the variable the element binds, or why none fits', () => {
    assert.deepEqual(ruleOffers([rules], 'ToolCall'), [
      { ruleUri: rules.uri, ruleIndex: 0, line: 1, label: 'refund needs approval', variable: 'call' },
      { ruleUri: rules.uri, ruleIndex: 1, line: 6, label: 'greeting', reason: 'no variable of this rule is a ToolCall' },
    ]);
  });

  it('explains a rule that does not fire: the variable bound, the assignment that got furthest, the first false condition and its values', () => {
    const text = JSON.stringify(events('failed <img src=x onerror=alert(1)> [x](javascript:alert(1))'), null, 2);
    const explained = explainAt(trace(text), traceUri, text.indexOf('"refund"'), rules, 0, linkTo);
    assert.ok(typeof explained !== 'string');
    assert.equal(explained.explanation.wouldFire, false);
    const call = text.lastIndexOf('{', text.indexOf('"id": "b"'));
    const output = text.lastIndexOf('{', text.indexOf('"tool_call_id"'));
    const content = text.indexOf('"failed');
    assert.equal(explained.markdown, [
      `**Why not here?** [refunds.gr:1](file:///w/refunds.gr#0) \`refund needs approval\` on [messages.1.tool_calls.1](${traceUri}#${call}) (\\#1 ToolCall refund)`,
      `**It does not fire here**, with \`call\` ([line 2](file:///w/refunds.gr#${ruleText.indexOf('(call')})) = this ToolCall.`,
      `The one assignment tried (\`out\` = [messages.2](${traceUri}#${output})): 2 of 3 conditions held.`,
      `The first false condition, [line 4](file:///w/refunds.gr#${ruleText.indexOf('out.content')}): \`out.content == "refunded"\` (\`==\`)`,
      [
        `- \`out.content\` was \`'failed <img src=x onerror=alert(1)> [x](javascript:alert(1))'\` ([messages.2.content](${traceUri}#${content}))`,
        '- `"refunded"` was `\'refunded\'`',
      ].join('\n'),
    ].join('\n\n'));
  });

  it('says when the rule fires there, with every binding linked', () => {
    const text = JSON.stringify(events('refunded'));
    const explained = explainAt(trace(text), traceUri, text.indexOf('"refunded"'), rules, 0, linkTo);
    assert.ok(typeof explained !== 'string');
    assert.equal(explained.explanation.wouldFire, true);
    const call = text.lastIndexOf('{', text.indexOf('"id":"b"'));
    const output = text.lastIndexOf('{', text.indexOf('"tool_call_id"'));
    assert.equal(explained.markdown.split('\n\n')[1], `**It fires here**, with \`out\` = [messages.2](${traceUri}#${output}), \`call\` = [messages.1.tool_calls.1](${traceUri}#${call}).`);
  });

  it('says why there is no answer: no variable of the element\'s type, or no element at the cursor', () => {
    const text = JSON.stringify(events('failed'));
    const onUser = explainAt(trace(text), traceUri, text.indexOf('"refund order'), rules, 0, linkTo);
    assert.ok(typeof onUser !== 'string');
    assert.equal(onUser.markdown.split('\n\n')[1], '**No answer:** no variable of rule 1 is a Message.');
    assert.equal(explainAt(trace(text), traceUri, 0, rules, 0, linkTo), 'the cursor is on no event or tool call of the trace');
  });

  it('on a dataset, explains on the line under the cursor, with addresses of that line\'s trace', () => {
    const text = `${JSON.stringify({ messages: events('failed') })}\n${JSON.stringify({ messages: events('refunded') })}\n`;
    const second = text.indexOf('\n') + 1;
    const explained = explainAt(dataset(text), 'file:///w/runs.jsonl', text.indexOf('"refund"', second), rules, 0, linkTo);
    assert.ok(typeof explained !== 'string');
    assert.equal(explained.explanation.wouldFire, true);
    assert.ok(explained.element.span.start > second, 'the element is on line 2');
    const first = explainAt(dataset(text), 'file:///w/runs.jsonl', text.indexOf('"refund"'), rules, 0, linkTo);
    assert.ok(typeof first !== 'string');
    assert.equal(first.explanation.wouldFire, false);
  });

  it('on a Claude Code session, finds the call on the session\'s own line and explains on its conversion', () => {
    const path = join(__dirname, '..', '..', '..', '..', 'examples', 'sessions', 'fix-checkout.jsonl');
    const text = readFileSync(path, 'utf8');
    const layout = traceLayoutOfFile(path, text);
    assert.ok(layout && layout !== 'trace' && layout !== 'dataset', 'the session converts');
    const source = { text, layout, path };
    const at = text.indexOf('"name":"Edit"');
    const { element } = elementAt(source, at);
    assert.ok(element, 'an element at the Edit call');
    assert.equal(element.typeName, 'ToolCall');
    assert.match(element.label, /^#\d+ ToolCall Edit$/);
    const lineStart = text.lastIndexOf('\n', at) + 1;
    assert.ok(element.span.start >= lineStart && element.span.end <= text.indexOf('\n', at), 'the call\'s characters are on its own line of the session');
    const edits = { uri: 'file:///w/edits.gr', model: guardrailService.parse({ uri: 'file:///w/edits.gr', version: 1, text: 'raise "edit" if:\n    (call: ToolCall)\n    call is tool:Edit\n' }) as RuleModel };
    const explained = explainAt(source, 'file:///w/fix-checkout.jsonl', at, edits, 0, linkTo);
    assert.ok(typeof explained !== 'string');
    assert.equal(explained.explanation.wouldFire, true);
  });
});
