import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guardrailService, type RuleModel } from '../../../server/src/guardrail';
import { evaluateRulesOnTrace, type RuleFile } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { tracesInText } from '../../../server/src/rulesOnTraces/tracesInText';
import { traceLayoutOfFile, type TraceLayout } from '../../../server/src/traceFormats';
import { prompt, reply, result, session, snapshot, text, toolUse } from '../jsonl/claudeCodeSessions';

function rules(source: string, uri = 'file:///w/rules/session.gr'): RuleFile {
  return { uri, model: guardrailService.parse({ uri, version: 1, text: source }) as RuleModel };
}

const options = { workBudget: 1_000_000 };

/** How the checker and the editor read a session file: by its content. */
function layoutOf(file: string): TraceLayout {
  const layout = traceLayoutOfFile('session.jsonl', file);
  assert.ok(layout && layout !== 'trace' && layout !== 'dataset', 'read as a session');
  return layout;
}

function convert(file: string): unknown[] {
  const traces = [...tracesInText(file, layoutOf(file))];
  assert.equal(traces.length, 1);
  return traces[0].trace as unknown[];
}

function marked(file: string, source: string): string[] {
  return evaluateRulesOnTrace([rules(source)], file, layoutOf(file), options).violations.map((v) => file.slice(v.span.start, v.span.end));
}

describe('a Claude Code session under guardrail rules', () => {
  it('is converted as the gateway converts an Anthropic conversation, keeping empty and failed results', () => {
    const file = session(
      snapshot('m1'),
      prompt('u1', 'list the files'),
      reply('a1', 'msg_1', { type: 'thinking', thinking: 'let me see', signature: 'x' }, { parent: 'u1' }),
      reply('a2', 'msg_1', text('Listing.'), { parent: 'a1' }),
      reply('a3', 'msg_1', toolUse('toolu_1', 'Bash', { command: 'ls -la' }), { parent: 'a2' }),
      reply('a4', 'msg_1', toolUse('toolu_2', 'Read', { file_path: '/etc/passwd' }), { parent: 'a3' }),
      result('r1', 'toolu_1', 'a\nb', { parent: 'a3' }),
      result('r2', 'toolu_2', '', { parent: 'a4', error: true }),
      JSON.stringify({ parentUuid: 'r2', isSidechain: false, type: 'progress', uuid: 'p1', sessionId: 's', timestamp: '2026-02-12T16:10:00.000Z', data: { type: 'hook_progress' } }),
      JSON.stringify({
        parentUuid: 'r2', isSidechain: false, type: 'user', uuid: 'u2', sessionId: 's', timestamp: '2026-02-12T16:11:00.000Z',
        message: { role: 'user', content: [text('and this'), { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } }, { type: 'tool_result', tool_use_id: 'toolu_9', content: [text('late')] }] },
      }),
    );
    assert.deepEqual(convert(file), [
      { role: 'user', content: 'list the files' },
      { role: 'assistant', content: 'Listing.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'Bash', arguments: { command: 'ls -la' } } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_2', type: 'function', function: { name: 'Read', arguments: { file_path: '/etc/passwd' } } }] },
      { role: 'tool', content: 'a\nb', tool_call_id: 'toolu_1' },
      { role: 'tool', content: '', tool_call_id: 'toolu_2', is_error: true },
      { role: 'tool', content: [{ type: 'text', text: 'late' }], tool_call_id: 'toolu_9' },
      { role: 'user', content: [{ type: 'text', text: 'and this' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } }] },
    ]);
  });

  it('leaves out an abandoned branch and a broken last line', () => {
    const file = session(prompt('u1', 'first'), reply('a1', 'msg_1', text('answer'), { parent: 'u1' })) + '{"parentUuid":"a1","type":"user","mess';
    // A rewind: the second reply to u1 is the live one.
    const forked = session(
      prompt('u1', 'start'),
      reply('a1', 'msg_1', text('abandoned answer'), { parent: 'u1' }),
      reply('a2', 'msg_2', text('live answer'), { parent: 'u1' }),
    );
    assert.deepEqual(convert(forked), [{ role: 'user', content: 'start' }, { role: 'assistant', content: 'live answer' }]);
    const traces = [...tracesInText(file, layoutOf(file))];
    assert.deepEqual(traces[0].converted?.skippedLines, [3]);
    assert.deepEqual(traces[0].trace, [{ role: 'user', content: 'first' }, { role: 'assistant', content: 'answer' }]);
  });

  it('marks the exact characters of a violation in the session: a call argument, a result through escapes, a whole event', () => {
    const file = session(
      prompt('u1', 'clean up'),
      reply('a1', 'msg_1', toolUse('toolu_1', 'Bash', { command: 'rm -rf /tmp/x && echo "done"' }), { parent: 'u1' }),
      result('r1', 'toolu_1', 'removed\n"AKIAIOSFODNN7EXAMPLE" found', { parent: 'a1' }),
    );
    assert.deepEqual(marked(file, 'raise "rm" if:\n    (call: ToolCall)\n    call is tool:Bash\n    "rm -rf" in call.function.arguments.command\n'), ['rm -rf']);
    assert.deepEqual(marked(file, 'raise "key" if:\n    (out: ToolOutput)\n    any(find(r"AKIA[0-9A-Z]{16}", out.content))\n'), ['AKIAIOSFODNN7EXAMPLE']);
    // A rule that names the event alone marks the block it came from.
    const whole = marked(file, 'raise "any output" if:\n    (out: ToolOutput)\n    out.tool_call_id == "toolu_1"\n');
    assert.equal(whole.length, 1);
    assert.ok(whole[0].startsWith('{"tool_use_id":"toolu_1","type":"tool_result"'), whole[0]);
  });

  it('is not read as a dataset: one trace, counted once, no notice', () => {
    const file = session(prompt('u1', 'hello'), reply('a1', 'msg_1', text('hi'), { parent: 'u1' }));
    const evaluated = evaluateRulesOnTrace([rules('raise "hi" if:\n    (m: Message)\n    "hi" in m.content\n')], file, layoutOf(file), options);
    assert.equal(evaluated.traces, 1);
    assert.deepEqual(evaluated.notices, []);
    assert.deepEqual(evaluated.violations.map((v) => file.slice(v.span.start, v.span.end)), ['hi']);
  });
});
