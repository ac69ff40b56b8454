import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
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

describe('rules evaluated on a 10 MB trace', () => {
  const big = 'file:///evaluated.trace.json';
  const ruleFile = 'file:///rules.gr';
  // Twenty rules that read every tool output and find nothing (about 50 ms each on this trace), and one that finds the
  // unanswered call: each is one step of the evaluation, so slices end between them.
  const scans = Array.from({ length: 20 }, (_, i) => `raise "never ${i}" if:\n    (out: ToolOutput)\n    "absent-${i}" in out.content\n`);
  const rules = [...scans, 'raise "calls t" if:\n    (call: ToolCall)\n    call is tool:t\n'].join('\n');
  let server: AttackedServer;
  let text: string;

  before(async () => {
    server = await AttackedServer.start();
    server.open(small, 'agent-trace', smallText);
    await server.diagnostics(small);
    text = bigTrace(10);
    server.open(big, 'agent-trace', text);
    await server.diagnostics(big, 1, 60_000);
  });
  after(async () => {
    await server?.stop();
  });

  it('leaves hovers on a small file answering while the rules are evaluated, then marks the violation', async (t) => {
    const slicing = server.nextLog(/evaluated\.trace\.json@1: evaluating 1 rule file on the evaluation worker/, 60_000);
    const evaluated = server.within('the evaluated trace\'s diagnostics', server.server.nextDiagnostics(big, 60_000), 60_000);
    let done = false;
    void evaluated.finally(() => (done = true)).catch(() => undefined);
    server.open(ruleFile, 'guardrail', rules);
    await slicing;
    let answeredMeanwhile = 0;
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const hover = await server.request('textDocument/hover', smallHover);
      assert.match(hover.contents.value, /user/);
      if (!done) answeredMeanwhile++;
      latencies.push(Math.round(performance.now() - started));
    }
    assert.ok(answeredMeanwhile >= 3, `only ${answeredMeanwhile} hovers were answered while the rules were evaluated`);
    const violations = (await evaluated).filter((d) => d.source === 'guardrails');
    const callLine = text.split('\n').length - 5;
    assert.deepEqual(violations.map((d) => [d.code, d.message, d.range.start.line]), [[`guardrails/rules.gr:${rules.split('\n').indexOf('raise "calls t" if:') + 1}`, 'calls t', callLine]]);
    t.diagnostic(`${answeredMeanwhile} hovers answered during the evaluation, in ms: ${latencies.join(', ')}`);
    server.assertHealthy();
  });

  it('an edit of the trace stops the evaluation under way; the new version is evaluated instead', async () => {
    const slicing = server.nextLog(/evaluated\.trace\.json@1: evaluating 1 rule file on the evaluation worker/, 60_000);
    // A changed rule file evaluates every open trace again.
    void server.server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: ruleFile, version: 2 }, contentChanges: [{ text: `${rules}\nraise "calls t again" if:\n    (call: ToolCall)\n    call is tool:t\n` }],
    });
    await slicing;
    const stopped = server.nextLog(/evaluated\.trace\.json@1: evaluation stopped/, 10_000);
    const lastCall = text.lastIndexOf('"left"');
    const edited = server.server.diagnosticsFor(big, 2, 60_000);
    void server.server.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: big, version: 2 },
      contentChanges: [{ range: rangeOf(text, lastCall + 1, lastCall + 5), text: 'last' }],
    });
    await stopped;
    const diagnostics = await server.within('diagnostics of the edited trace', edited, 60_000);
    const messages = new Set(diagnostics.filter((d) => d.source === 'guardrails').map((d) => d.message));
    assert.deepEqual([...messages], ['calls t', 'calls t again']);
    assert.equal(server.logged().filter((line) => /evaluated\.trace\.json@2: evaluation stopped/.test(line)).length, 0);
    server.assertHealthy();
  });
});

/** The LSP range of offsets start..end in text (lines split at \n only, as bigTrace writes them). */
function rangeOf(text: string, start: number, end: number) {
  const position = (offset: number) => {
    const before = text.slice(0, offset);
    const line = before.split('\n').length - 1;
    return { line, character: offset - (before.lastIndexOf('\n') + 1) };
  };
  return { start: position(start), end: position(end) };
}
