import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { traceLayout } from '../../../server/src/traceFormats';

describe('traceLayout', () => {
  // An edited big document keeps its text in chunks: asking for the whole text joins them (50 MB per check).
  it('asks for the text only where the language leaves the format in doubt', () => {
    const unread = () => {
      throw new Error('the text was asked for');
    };
    assert.equal(traceLayout('agent-trace', unread), 'trace');
    assert.equal(traceLayout('guardrail', unread), undefined);
    assert.equal(traceLayout(undefined, unread), undefined);
    const anthropic = traceLayout('agent-trace-anthropic', unread);
    assert.ok(anthropic && typeof anthropic !== 'string' && anthropic.name === 'an Anthropic Messages conversation');
    let asked = 0;
    const dataset = () => {
      asked++;
      return '{"messages": [{"role": "user", "content": "hi"}]}\n';
    };
    assert.equal(traceLayout('agent-trace-jsonl', dataset), 'dataset');
    assert.ok(asked > 0);
  });

  it('reads a JSON Lines file given as text as before', () => {
    const session = '{"type":"user","sessionId":"s","uuid":"u1","message":{"role":"user","content":"hi"}}\n';
    const layout = traceLayout('agent-trace-jsonl', session);
    assert.ok(layout && typeof layout !== 'string' && layout.name === 'a Claude Code session', String(layout));
  });
});
