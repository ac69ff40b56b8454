import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ExplainChoicesRequest, ExplainRuleOnTraceCommand, ExplainRuleRequest, ExplainTargetsRequest, type ExplainChoices, type ExplainRuleResult, type ExplainTargets,
} from '../../shared/requests';
import { ServerProcess } from './lspClient';

const traceUri = 'file:///workspace/refund.trace.json';
const traceLines = [
  '[',
  '  {"role": "user", "content": "refund order 7"},',
  '  {"role": "assistant", "content": "ok", "tool_calls": [{"id": "b", "type": "function", "function": {"name": "refund", "arguments": {"amount": 500}}}]},',
  '  {"role": "tool", "tool_call_id": "b", "content": "failed"}',
  ']',
];
const traceText = traceLines.join('\n');
const ruleUri = 'file:///workspace/refunds.gr';
const ruleText = [
  'raise "refund needs approval" if:',
  '    (call: ToolCall) -> (out: ToolOutput)',
  '    call is tool:refund',
  '    out.content == "refunded"',
  '',
].join('\n');

const at = (line: number, needle: string) => ({ line, character: traceLines[line].indexOf(needle) });

describe('"why not here?" over stdio', () => {
  const server = new ServerProcess();

  before(async () => {
    await server.initialize();
    server.open(traceUri, 'agent-trace', traceText);
    server.open(ruleUri, 'guardrail', ruleText);
    await server.diagnosticsFor(traceUri, 1);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  const request = <R>(method: string, params: unknown) => server.connection.sendRequest(method, params) as Promise<R>;

  it('names the element at the cursor and the rules that could be asked about it', async () => {
    const choices = await request<ExplainChoices>(ExplainChoicesRequest.method, { uri: traceUri, position: at(2, '"refund"') });
    const callStart = traceLines[2].indexOf('{"id"');
    assert.deepEqual(choices, {
      element: { address: 'messages.1.tool_calls.0', label: '#1 ToolCall refund', range: { start: { line: 2, character: callStart }, end: { line: 2, character: traceLines[2].length - 3 } } },
      rules: [{ ruleUri, ruleIndex: 0, line: 1, label: 'refund needs approval', variable: 'call' }],
    });
    const between = await request<ExplainChoices>(ExplainChoicesRequest.method, { uri: traceUri, position: { line: 0, character: 0 } });
    assert.deepEqual(between, { rules: [], problem: 'the cursor is on no event or tool call of the trace' });
    const onRule = await request<ExplainChoices>(ExplainChoicesRequest.method, { uri: ruleUri, position: { line: 0, character: 0 } });
    assert.deepEqual(onRule, { rules: [], problem: 'rules are evaluated on traces, datasets and the conversations of the formats read here, not on this document' });
  });

  it('explains the rule on the element, with links to the rule\'s lines and the trace\'s elements', async () => {
    const result = await request<ExplainRuleResult>(ExplainRuleRequest.method, { uri: traceUri, position: at(2, '"refund"'), ruleUri, ruleIndex: 0 });
    assert.ok('markdown' in result, JSON.stringify(result));
    assert.equal(result.wouldFire, false);
    assert.deepEqual(result.range.start, { line: 2, character: traceLines[2].indexOf('{"id"') });
    assert.deepEqual(result.markdown.split('\n\n'), [
      `**Why not here?** [refunds.gr:1](${ruleUri}#L1,1) \`refund needs approval\` on [messages.1.tool_calls.0](${traceUri}#L3,${traceLines[2].indexOf('{"id"') + 1}) (\\#1 ToolCall refund)`,
      `**It does not fire here**, with \`call\` ([line 2](${ruleUri}#L2,5)) = this ToolCall.`,
      `The one assignment tried (\`out\` = [messages.2](${traceUri}#L4,3)): 2 of 3 conditions held.`,
      `The first false condition, [line 4](${ruleUri}#L4,5): \`out.content == "refunded"\` (\`==\`)`,
      `- \`out.content\` was \`'failed'\` ([messages.2.content](${traceUri}#L4,${traceLines[3].indexOf('"failed"') + 1}))\n- \`"refunded"\` was \`'refunded'\``,
    ]);
    const nothing = await request<ExplainRuleResult>(ExplainRuleRequest.method, { uri: traceUri, position: at(2, '"refund"'), ruleUri: 'file:///workspace/gone.gr', ruleIndex: 0 });
    assert.deepEqual(nothing, { problem: 'file:///workspace/gone.gr is not an open rule file, nor one that applies to the trace' });
  });

  it('offers a code action on a rule, and lists the open traces\' elements its variables can be bound to', async () => {
    const actions = await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: ruleUri }, range: { start: { line: 2, character: 6 }, end: { line: 2, character: 6 } }, context: { diagnostics: [] },
    }) as { title: string; command?: { command: string; arguments: unknown[] } }[];
    const explain = actions.filter((a) => a.command?.command === ExplainRuleOnTraceCommand);
    assert.deepEqual(explain.map((a) => [a.title, a.command!.arguments]), [['Why does "refund needs approval" not fire on…? Explain it on a trace element', [ruleUri, 0]]]);
    const outside = await server.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: ruleUri }, range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, context: { diagnostics: [] },
    }) as { command?: { command: string } }[];
    assert.equal(outside.filter((a) => a.command?.command === ExplainRuleOnTraceCommand).length, 0, 'below the rule: no rule to explain');

    const targets = await request<ExplainTargets>(ExplainTargetsRequest.method, { ruleUri, ruleIndex: 0 });
    assert.deepEqual(targets.traces.map((t) => [t.uri, t.label, t.elements.map((e) => [e.address, e.label])]), [
      [traceUri, 'refund.trace.json', [['messages.1.tool_calls.0', '#1 ToolCall refund'], ['messages.2', '#2 ToolOutput of refund']]],
    ]);
    assert.deepEqual(await request<ExplainTargets>(ExplainTargetsRequest.method, { ruleUri, ruleIndex: 3 }), { traces: [], reason: 'the rule file has no rule 4' });
  });
});

describe('"why not here?" on a rule that backtracks for minutes', () => {
  const server = new ServerProcess({ guardrails: { timeout: 1000 } });
  const hostileUri = 'file:///workspace/backtracks.trace.json';
  const hostileRuleUri = 'file:///workspace/backtracks.gr';

  before(async () => {
    await server.initialize();
    await server.configured;
    server.open(hostileUri, 'agent-trace', JSON.stringify([{ role: 'user', content: 'a'.repeat(30) + '!' }]));
    server.open(hostileRuleUri, 'guardrail', 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n');
    await server.diagnosticsFor(hostileUri, 1);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
  });

  it('is evaluated on the rule evaluation worker: the rule is ended at its time limit, and the server answers meanwhile', async () => {
    const asked = server.connection.sendRequest(ExplainRuleRequest.method, { uri: hostileUri, position: { line: 0, character: 3 }, ruleUri: hostileRuleUri, ruleIndex: 0 }) as Promise<ExplainRuleResult>;
    const hover = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: hostileRuleUri }, position: { line: 1, character: 8 } });
    assert.notEqual(hover, undefined);
    assert.deepEqual(await asked, { problem: 'rule 1 ran past its time limit on this trace' });
  });
});

describe('"why not here?" on a rule that reads a policy parameter, over stdio', () => {
  const limitRuleUri = 'file:///workspace/limits.gr';
  const limitRule = 'raise "refund over the limit" if:\n    (call: ToolCall)\n    call.function.arguments.amount > input.limit\n';

  async function explainWith(configuration: unknown): Promise<ExplainRuleResult> {
    const server = new ServerProcess(configuration);
    await server.initialize();
    await server.configured;
    server.open(traceUri, 'agent-trace', traceText);
    server.open(limitRuleUri, 'guardrail', limitRule);
    await server.diagnosticsFor(traceUri, 1);
    const result = await server.connection.sendRequest(ExplainRuleRequest.method, { uri: traceUri, position: at(2, '"refund"'), ruleUri: limitRuleUri, ruleIndex: 0 });
    assert.equal(await server.shutdown(), 0);
    return result as ExplainRuleResult;
  }

  it('takes the parameter from agentTraces.guardrails.parameters', async () => {
    const firing = await explainWith({ guardrails: { parameters: { limit: 100 } } });
    assert.ok('markdown' in firing, JSON.stringify(firing));
    assert.equal(firing.wouldFire, true);
    const quiet = await explainWith({ guardrails: { parameters: { limit: 1000 } } });
    assert.ok('markdown' in quiet, JSON.stringify(quiet));
    assert.equal(quiet.wouldFire, false);
    assert.match(quiet.markdown, /`call\.function\.arguments\.amount` was `500`/);
  });
});
