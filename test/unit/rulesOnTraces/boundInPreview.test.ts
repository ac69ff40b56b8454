import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultSettings } from '../../../server/src/common/languageService';
import type { Problem } from '../../../server/src/common/types';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { evaluateRulesOnTrace } from '../../../server/src/rulesOnTraces/evaluateOnTrace';

/** The preview's graph of a document with the violations of a rule file on it, as the server draws it. */
function graphWithViolations(uri: string, languageId: string, text: string, rule: string, traceIndex?: number) {
  const rules = [{ uri: 'file:///w/refunds.gr', model: guardrailService.parse({ uri: 'file:///w/refunds.gr', version: 1, text: rule }) as RuleModel }];
  const result = evaluateRulesOnTrace(rules, text, languageId === 'agent-trace' ? 'trace' : 'dataset', { workBudget: 1_000_000 });
  const problems: Problem[] = result.violations.map((v) => ({ span: v.span, severity: 'warning', code: v.code, message: v.message, bound: v.bindings }));
  const models = new DocumentModels(() => ({ maxLines: 1000, maxFileSizeMB: 1, folders: [] }));
  const parsed = models.get(TextDocument.create(uri, languageId, 1, text))!;
  const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  return parsed.service.graph!(parsed.model, { toRange, problems, traceIndex }, { settings: defaultSettings });
}

const refundRule = 'raise "refund needs approval" if:\n    (call: ToolCall) -> (out: ToolOutput)\n    call is tool:refund\n    out.content == "refunded"\n';

describe('the preview marks what a violation\'s variables were bound to', () => {
  it('on a trace file: the call inside its message and the output, by their drawn nodes', () => {
    const text = JSON.stringify([
      { role: 'user', content: 'refund order 7' },
      { role: 'assistant', content: 'ok', tool_calls: [{ id: 'a', type: 'function', function: { name: 'lookup', arguments: {} } }, { id: 'b', type: 'function', function: { name: 'refund', arguments: { amount: 500 } } }] },
      { role: 'tool', tool_call_id: 'a', content: 'found' },
      { role: 'tool', tool_call_id: 'b', content: 'refunded' },
    ], null, 2);
    const graph = graphWithViolations('file:///w/t.trace.json', 'agent-trace', text, refundRule);
    const titles = graph.nodes.map((n) => `${n.id} ${n.kind} ${n.title}`);
    const violating = graph.nodes.filter((n) => n.problems.length > 0);
    assert.deepEqual(violating.map((n) => n.id), [5], titles.join('\n'));
    const [problem] = violating[0].problems;
    assert.equal(problem.message, 'refund needs approval');
    // Nodes: 0 user, 1 assistant with its calls 2 (lookup) and 3 (refund), 4 and 5 the outputs.
    assert.deepEqual(problem.bound, [{ node: 3, variable: 'call' }, { node: 5, variable: 'out' }], titles.join('\n'));
  });

  it('on a dataset line: the nodes of the line drawn', () => {
    const line = (content: string) => JSON.stringify({ messages: [
      { role: 'assistant', content: null, tool_calls: [{ id: 'b', type: 'function', function: { name: 'refund', arguments: {} } }] },
      { role: 'tool', tool_call_id: 'b', content },
    ] });
    const text = `${line('failed')}\n${line('refunded')}\n`;
    const first = graphWithViolations('file:///w/runs.jsonl', 'agent-trace-jsonl', text, refundRule, 0);
    assert.deepEqual(first.nodes.flatMap((n) => n.problems.map((p) => p.bound)), [], 'line 1 holds no violation');
    const second = graphWithViolations('file:///w/runs.jsonl', 'agent-trace-jsonl', text, refundRule, 1);
    // Nodes of line 2: 0 the assistant, 1 its call, 2 the output.
    assert.deepEqual(second.nodes.flatMap((n) => n.problems.map((p) => [n.id, p.bound])), [[2, [{ node: 1, variable: 'call' }, { node: 2, variable: 'out' }]]]);
  });

  it('a problem that is not a guardrail violation carries no bindings, and one without bindings none either', () => {
    const text = '[{"role": "user", "content": "hi"}]';
    const models = new DocumentModels(() => ({ maxLines: 1000, maxFileSizeMB: 1, folders: [] }));
    const parsed = models.get(TextDocument.create('file:///w/a.trace.json', 'agent-trace', 1, text))!;
    const toRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    const problems: Problem[] = [
      { span: { start: 1, end: 5 }, severity: 'warning', code: 'trace/x', message: 'x', bound: [{ variable: 'm', span: { start: 1, end: 5 } }] },
      { span: { start: 1, end: 5 }, severity: 'warning', code: 'guardrails/r.gr:1', message: 'y', bound: [] },
    ];
    const graph = parsed.service.graph!(parsed.model, { toRange, problems }, { settings: defaultSettings });
    assert.deepEqual(graph.nodes[0].problems.map((p) => p.bound), [undefined, undefined]);
  });
});
