// Hostile rules and hostile traces against the bundled server over stdio: a regular expression that backtracks for
// minutes, an HTML detector on a tool output that made it backtrack exponentially, loops inside one rule-body
// evaluation over 9 MB traces, lists and strings too large to make, a predicate that calls itself. Each must end
// within 10 s with what happened said on the trace, the rule file and its lens, while a small file's hovers are
// answered within 2 s; the server must not crash or go past 1.5 GB resident.
// Run alone: node esbuild.mjs && node --test out/test/robustness/hostileRules.test.js
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver/node';
import { AttackedServer, temporaryFolder } from './harness';

/** Every hostile case ends within this (the default time limit is 5 s). */
const ENDS_WITHIN_MS = 10_000;

const small = 'file:///small.trace.json';
const smallHover = { textDocument: { uri: small }, position: { line: 0, character: 5 } };
const trace = (...contents: string[]) => JSON.stringify(contents.map((content) => ({ role: 'user', content })));
/** A small file with a call and its output: go to definition from the output's call id to the call. */
const calls = 'file:///calls.trace.json';
const callsText = JSON.stringify([
  { role: 'assistant', content: 'looking it up', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: {} } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'found' },
]);
const callsDefinition = { textDocument: { uri: calls }, position: { line: 0, character: callsText.lastIndexOf('call_1') + 2 } };

/** The diagnostics of `uri` once `ready` holds for them, bounded like an answer (ENDS_WITHIN_MS). */
async function diagnosticsUntil(server: AttackedServer, uri: string, ready: (diagnostics: Diagnostic[]) => boolean, limitMs = ENDS_WITHIN_MS): Promise<Diagnostic[]> {
  const wait = async () => {
    let diagnostics = await server.server.diagnosticsFor(uri, 1, limitMs);
    while (!ready(diagnostics)) diagnostics = await server.server.nextDiagnostics(uri, limitMs);
    return diagnostics;
  };
  return server.within(`diagnostics of ${uri} as expected`, wait(), limitMs);
}

/** The bundled server with the small files the requests go to, checked. */
async function startWithSmallFiles(folders?: string[]): Promise<AttackedServer> {
  const server = await AttackedServer.start({ folders });
  server.open(small, 'agent-trace', trace('hi'));
  server.open(calls, 'agent-trace', callsText);
  await server.diagnostics(small);
  await server.diagnostics(calls);
  return server;
}

/**
 * Asks for hovers on the small file, and every tenth time for the definition of a call id, until `done` settles:
 * every one must be answered within the bound.
 */
async function hoversWhile(server: AttackedServer, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  const latencies: number[] = [];
  while (!finished) {
    const started = performance.now();
    if (latencies.length % 10 === 9) {
      const links = await server.request<{ targetUri: string; targetSelectionRange: { start: { character: number } } }[]>('textDocument/definition', callsDefinition);
      assert.deepEqual(links.map((link) => link.targetUri), [calls]);
      assert.ok(Math.abs(links[0].targetSelectionRange.start.character - callsText.indexOf('"call_1"')) <= 1, 'the call id');
    } else {
      const hover = await server.request('textDocument/hover', smallHover);
      assert.match(hover.contents.value, /user/);
    }
    latencies.push(Math.round(performance.now() - started));
  }
  return latencies;
}

const guardrails = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.source === 'guardrails').map((d) => `${d.code}: ${d.message}`);

describe('hostile rules and traces, in the server', () => {
  let server: AttackedServer;

  before(async () => {
    server = await startWithSmallFiles();
  });
  after(async () => {
    await server?.stop();
  });

  it('a regular expression that backtracks for minutes stops at the 5 s time limit: said on the trace, the rule file and its lens', async (t) => {
    const traceUri = 'file:///backtracks.trace.json';
    const ruleUri = 'file:///backtracks.gr';
    server.open(traceUri, 'agent-trace', trace('a'.repeat(30) + '!'));
    await server.diagnostics(traceUri);
    const started = performance.now();
    const evaluated = diagnosticsUntil(server, traceUri, (d) => guardrails(d).length > 0);
    server.open(ruleUri, 'guardrail', 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n\nraise "hi" if:\n    (m: Message)\n    "hi" in m.content\n');
    const latencies = await hoversWhile(server, evaluated);
    assert.deepEqual(guardrails(await evaluated), [
      'guardrails/timeout: backtracks.gr: Rule 1 stopped after running 5 s on this trace (the time limit); its violations are not reported (setting agentTraces.guardrails.timeout)',
    ]);
    t.diagnostic(`evaluated in ${Math.round(performance.now() - started)} ms; ${latencies.length} hovers meanwhile, the slowest ${Math.max(...latencies)} ms`);
    const ruleFile = await diagnosticsUntil(server, ruleUri, (d) => d.length > 0);
    assert.deepEqual(ruleFile.map((d) => [d.code, d.range.start.line, d.message]), [[
      'guardrails/timeout', 0,
      'This rule ran past its time limit (5 s) on 1 trace (backtracks.trace.json) and was stopped there: its violations on them are not reported (setting agentTraces.guardrails.timeout)',
    ]]);
    const lenses = await server.request<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: ruleUri } });
    assert.match(lenses[0].command!.title, /^0 violations in 0 traces \(of 3 open trace files\) · timed out on 1 trace \(agentTraces\.guardrails\.timeout\)$/);
    assert.match(lenses[1].command!.title, /^1 violation in 1 trace/);
    server.assertHealthy();
  });

  it('html_code on an 85-character `<a b=x/x/x…` output answers at once', async () => {
    const traceUri = 'file:///html.trace.json';
    server.open(traceUri, 'agent-trace', JSON.stringify([{ role: 'tool', content: '<a b=x' + '/x'.repeat(40) }, { role: 'tool', content: '<a href="https://ok.example">' }]));
    server.open('file:///html.gr', 'guardrail', 'from invariant.parsers.html import html_code\nraise "link" if:\n    (m: ToolOutput)\n    "https://ok.example" in html_code(m).links\n');
    const diagnostics = await diagnosticsUntil(server, traceUri, (d) => guardrails(d).some((line) => line.includes('link')));
    assert.deepEqual(guardrails(diagnostics).filter((line) => !line.includes('backtracks')), ['guardrails/html.gr:2: link']);
    server.assertHealthy();
  });

  it('lists and strings too large raise MemoryError on the trace; the process keeps its memory', async (t) => {
    const traceUri = 'file:///memory.trace.json';
    server.open(traceUri, 'agent-trace', trace('x'));
    server.open('file:///memory.gr', 'guardrail', 'raise "list" if:\n    (m: Message)\n    len([0] * 300000000) > 0\n');
    server.open('file:///text.gr', 'guardrail', 'raise "text" if:\n    (m: Message)\n    len("ab" * 10**9) > 0\n');
    const memoryErrors = (d: Diagnostic[]) => guardrails(d).filter((line) => line.includes('MemoryError'));
    const diagnostics = await diagnosticsUntil(server, traceUri, (d) => memoryErrors(d).length === 2);
    assert.deepEqual(memoryErrors(diagnostics), [
      'guardrails/failed: Guardrails from memory.gr could not be evaluated: Evaluation failed at line 3 (rule 1): MemoryError: a list of 300,000,000 items is more than the evaluator holds (10,000,000) (memory.gr:3)',
      'guardrails/failed: Guardrails from text.gr could not be evaluated: Evaluation failed at line 3 (rule 1): MemoryError: a string of 2,000,000,000 characters is more than the evaluator holds (268,435,456) (text.gr:3)',
    ]);
    t.diagnostic(`peak resident memory of the server: ${Math.round(server.assertHealthy().peakBytes / 2 ** 20)} MB`);
  });

  it('a predicate that calls itself on one trace fails that trace only, as RecursionError', async () => {
    const looping = 'file:///loop.trace.json';
    const other = 'file:///hello.trace.json';
    server.open(looping, 'agent-trace', trace('loop'));
    server.open(other, 'agent-trace', trace('hello'));
    server.open('file:///recursion.gr', 'guardrail', 'nested(x: Message) :=\n    x.content == "loop"\n    nested(x)\n\nraise "nested" if:\n    (m: Message)\n    nested(m)\n\n'
      + 'raise "hello" if:\n    (m: Message)\n    "hello" in m.content\n');
    const failed = await diagnosticsUntil(server, looping, (d) => guardrails(d).some((line) => line.includes('recursion.gr')));
    assert.deepEqual(guardrails(failed).filter((line) => line.includes('recursion.gr')), [
      'guardrails/failed: Guardrails from recursion.gr could not be evaluated: Evaluation failed (rule 1): RecursionError: maximum recursion depth exceeded (a predicate or constant refers to itself) (recursion.gr:5)',
    ]);
    const found = await diagnosticsUntil(server, other, (d) => guardrails(d).some((line) => line.includes('recursion.gr')));
    assert.deepEqual(guardrails(found).filter((line) => line.includes('recursion.gr')), ['guardrails/recursion.gr:9: hello']);
    server.assertHealthy();
  });
});

describe('rules counted over 9 MB traces in the workspace', () => {
  const folder = temporaryFolder('hostile-workspace');
  let server: AttackedServer;

  before(async () => {
    const output = 'line of a tool output with "quotes" and\ttabs\n'.repeat(30);
    const events: string[] = [];
    for (let size = 0, i = 0; size < 9 * 2 ** 20; i++) {
      const event = JSON.stringify({ role: 'tool', tool_call_id: `call_${i}`, content: output });
      events.push(event);
      size += event.length;
    }
    for (const name of ['a', 'b', 'c']) writeFileSync(join(folder.path, `${name}.trace.json`), `[\n${events.join(',\n')}\n]\n`);
    writeFileSync(join(folder.path, 'backtracks.trace.json'), trace('a'.repeat(30) + '!'));
    server = await startWithSmallFiles([pathToFileURL(folder.path).toString()]);
  });
  after(async () => {
    await server?.stop();
    folder.remove();
  });

  it('opening a rule file whose lenses loop over every output of them, and backtrack on another, never holds up a hover', async (t) => {
    const ruleUri = pathToFileURL(join(folder.path, 'loops.gr')).toString();
    // Each output is read character by character: one rule-body evaluation per output, a loop of 1,350 inside it.
    const rules = 'raise "loops" if:\n    (m: ToolOutput)\n    len([c for c in m.content if c == "#"]) > 0\n\n'
      + 'raise "backtracks" if:\n    (m: Message)\n    match("(a+)+$", m.content)\n';
    const counted = server.within('the lens counts over the workspace', (async () => {
      for (;;) {
        await server.server.nextLensRefresh(60_000);
        const lenses = await server.request<{ command?: { title: string } }[]>('textDocument/codeLens', { textDocument: { uri: ruleUri } });
        if (lenses.length === 2 && / in the workspace/.test(lenses[0].command?.title ?? '')) return lenses.map((lens) => lens.command!.title);
      }
    })(), 120_000);
    server.open(ruleUri, 'guardrail', rules);
    const latencies = await hoversWhile(server, counted);
    const titles = await counted;
    t.diagnostic(`${latencies.length} hovers while the workspace was counted; slowest ${Math.max(...latencies)} ms; median ${latencies.sort((a, b) => a - b)[latencies.length >> 1]} ms`);
    assert.match(titles[0], /^0 violations in 0 traces \(of 2 open trace files and 4 more trace files in the workspace\)/);
    assert.match(titles[1], /timed out on 1 trace \(agentTraces\.guardrails\.timeout\)/);
    t.diagnostic(`peak resident memory of the server: ${Math.round(server.assertHealthy().peakBytes / 2 ** 20)} MB`);
  });
});
