import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AttackedServer } from './harness';

const small = 'file:///small.trace.json';
const smallText = '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant", "content": "hello"}\n]\n';
const smallHover = { textDocument: { uri: small }, position: { line: 1, character: 5 } };

/** A pretty-printed trace of about `megabytes`, whose last call is never answered (one problem). */
function bigTrace(megabytes: number): string {
  const output = 'line of a tool output with "quotes" and\ttabs\n'.repeat(30);
  const events: string[] = [];
  let size = 0;
  for (let i = 0; size < megabytes * 2 ** 20; i++) {
    const call = `  {\n    "role": "assistant",\n    "tool_calls": [\n      {"id": "call_${i}", "type": "function", "function": {"name": "read_file", "arguments": "{}"}}\n    ]\n  }`;
    const answer = `  {\n    "role": "tool",\n    "tool_call_id": "call_${i}",\n    "content": ${JSON.stringify(output)}\n  }`;
    events.push(call, answer);
    size += call.length + answer.length;
  }
  events.push('  {\n    "role": "assistant",\n    "tool_calls": [\n      {"id": "left", "type": "function", "function": {"name": "t", "arguments": "{}"}}\n    ]\n  }');
  return `[\n${events.join(',\n')}\n]\n`;
}

describe('a 50 MB trace being read and checked', () => {
  it('leaves the server answering hovers on a small file meanwhile, then answers on the big one', async (t) => {
    const server = await AttackedServer.start();
    try {
      server.open(small, 'agent-trace', smallText);
      await server.diagnostics(small);
      const big = 'file:///big.trace.json';
      const text = bigTrace(50);
      server.open(big, 'agent-trace', text);
      let checked = false;
      const diagnostics = server.diagnostics(big, 1, 120_000).finally(() => (checked = true));
      // The first hover waits for the big text to arrive; the ones after it come while the server reads and checks it.
      assert.match((await server.request('textDocument/hover', smallHover)).contents.value, /user/);
      let answeredMeanwhile = 0;
      while (!checked) {
        const hover = await server.request('textDocument/hover', smallHover);
        assert.match(hover.contents.value, /user/);
        if (!checked) answeredMeanwhile++;
      }
      assert.ok(answeredMeanwhile >= 3, `only ${answeredMeanwhile} hovers were answered while the big trace was checked`);
      const problems = await diagnostics;
      assert.deepEqual(problems.map((problem) => problem.message), ['No tool output answers this call to "t" (id "left")']);
      const callLine = text.split('\n').length - 5; // `      {"id": "left", …` before `    ]`, `  }`, `]`
      const hover = await server.request('textDocument/hover', { textDocument: { uri: big }, position: { line: callLine, character: 16 } });
      assert.match(hover.contents.value, /left/);
      t.diagnostic(`${answeredMeanwhile} hovers on the small file answered while the big one was checked`);
      server.assertHealthy();
    } finally {
      await server.stop();
    }
  });

  it('an edit while it is read starts over on the new version, without an error', async () => {
    const server = await AttackedServer.start();
    try {
      const big = 'file:///edited.trace.json';
      server.open(big, 'agent-trace', bigTrace(20));
      // Ask for the outline of version 1 (it awaits the reading), then edit: the reading of version 1 is dropped.
      // Answered or refused (cancelled, or modified): either way answered.
      const symbols = server.server.connection.sendRequest('textDocument/documentSymbol', { textDocument: { uri: big } }).catch(() => undefined);
      void server.server.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: big, version: 2 },
        contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '{' }],
      });
      const problems = await server.diagnostics(big, 2, 120_000);
      assert.equal(problems[0].message, 'This object has no "messages": a trace is a JSON array of events, or an object with a "messages" array');
      await server.within('the outline of version 1', symbols);
      assert.deepEqual(server.logged().filter((line) => /\[(validate|symbols|parse)\]/.test(line)), []);
      server.assertHealthy();
    } finally {
      await server.stop();
    }
  });

  it('a big trace with lone CR line breaks gets diagnostics on the lines the editor shows', async () => {
    const server = await AttackedServer.start();
    try {
      const uri = 'file:///carriage-returns.trace.json';
      const events = Array.from({ length: 20_000 }, (_, i) => `{"role": "user", "content": "message number ${i} of a long conversation"}`);
      events.push('{"role": "user", "content": "x" "y"}');
      const text = `[\r${events.join(',\r')}\r]`;
      assert.ok(text.length > 1_000_000, 'read in slices');
      server.open(uri, 'agent-trace', text);
      const problems = await server.diagnostics(uri, 1, 60_000);
      // The comma missing before "y" (line 20,001 in the editor, where every \r breaks a line).
      const missingComma = problems.find((problem) => problem.code === 'json/syntax');
      assert.deepEqual(missingComma?.range.start, { line: 20_001, character: 32 }, JSON.stringify(problems));
    } finally {
      await server.stop();
    }
  });
});
