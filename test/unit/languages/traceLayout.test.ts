import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { traceLayout, traceLayoutOfModel } from '../../../server/src/traceFormats';
import { jsonlService } from '../../../server/src/jsonl';
import { prompt, session } from '../jsonl/claudeCodeSessions';
import { meta, user } from '../codex/helpers';

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

  // An edited big JSON Lines document keeps its text in chunks too: its check decides the layout from the model.
  it('decides a JSON Lines file\'s layout from the model read from it, an edited version\'s too, without its text', () => {
    const unread = () => {
      throw new Error('the text was asked for');
    };
    const files = [
      { text: session(prompt('u1', 'hi'), prompt('u2', 'and then')), layout: 'a Claude Code session' },
      { text: `${[meta(), user(1, 'hi'), user(2, 'and then')].join('\n')}\n`, layout: 'a Codex rollout' },
      { text: '{"messages": [{"role": "user", "content": "hi"}]}\n{"messages": []}\n', layout: 'dataset' },
    ];
    for (const file of files) {
      const model = jsonlService.parse({ uri: 'file:///f.jsonl', version: 1, text: file.text });
      const named = (layout: ReturnType<typeof traceLayout>) => (typeof layout === 'object' ? layout.name : layout);
      assert.equal(named(traceLayoutOfModel('agent-trace-jsonl', model, unread)), file.layout);
      const at = file.text.indexOf('and then');
      const edited = `${file.text.slice(0, at)}and later${file.text.slice(at + 8)}`;
      const editedModel = jsonlService.reparse!(model, { uri: 'file:///f.jsonl', version: 2, text: edited }, undefined)!;
      assert.notEqual(editedModel, model);
      assert.equal(named(traceLayoutOfModel('agent-trace-jsonl', editedModel, unread)), file.layout);
      assert.equal(named(traceLayout('agent-trace-jsonl', edited)), file.layout);
    }
    // A model its service did not read (a parse that failed) leaves the text to tell.
    const failed = traceLayoutOfModel('agent-trace-jsonl', { error: 'failed' }, () => files[0].text);
    assert.ok(failed && typeof failed !== 'string' && failed.name === 'a Claude Code session');
    assert.equal(traceLayoutOfModel('agent-trace', { error: 'failed' }, unread), 'trace');
  });

  it('reads the first line once for both JSON Lines sessions\' formats', () => {
    let asked = 0;
    const text = () => {
      asked++;
      return '{"messages": [{"role": "user", "content": "hi"}]}\n';
    };
    assert.equal(traceLayout('agent-trace-jsonl', text), 'dataset');
    assert.equal(asked, 1);
  });
});
