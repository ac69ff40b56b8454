import { test } from 'node:test';
import assert from 'node:assert/strict';
import { languageForDocument } from '../../../server/src/languages';

test('an id of ours is taken as given; any other id is decided by file name and first line', () => {
  assert.equal(languageForDocument('file:///a/x.json', 'agent-trace', '{}'), 'agent-trace');
  assert.equal(languageForDocument('file:///a/x.trace.json', 'json', '[]'), 'agent-trace');
  assert.equal(languageForDocument('file:///a/x.TRACE.JSON', 'jsonc', '[]'), 'agent-trace');
  assert.equal(languageForDocument('file:///a/runs.trace.jsonl', 'jsonl', ''), 'agent-trace-jsonl');
  assert.equal(languageForDocument('file:///a/my%20rules.gr', 'plaintext', ''), 'guardrail');
  assert.equal(languageForDocument('file:///a/rules.gr?x=1#top', 'made-up', ''), 'guardrail');
  // a .jsonl by its first line: ours when it is a dataset or agentguard log, left alone otherwise
  assert.equal(languageForDocument('file:///a/data.jsonl', 'jsonl', '{"index": 0, "messages": []}\n'), 'agent-trace-jsonl');
  assert.equal(languageForDocument('file:///a/other.jsonl', 'jsonl', '{"x": 1}\n'), undefined);
  // plain JSON files and prototype keys are not ours
  assert.equal(languageForDocument('file:///a/package.json', 'json', '{}'), undefined);
  assert.equal(languageForDocument('file:///a/package.json', 'toString', '{}'), undefined);
  assert.equal(languageForDocument('untitled:Untitled-1', 'json', '[]'), undefined);
});
