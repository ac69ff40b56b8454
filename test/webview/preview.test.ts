/** The trace preview webview in headless Chromium, loaded through its real HTML and Content Security Policy. */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { GraphData, WebviewToHost } from '../../shared/protocol';
import { buildGraph, syntheticEvents, type EventSpec } from './graphFixture';
import { launchBrowser, openPreview, resultsDir, type PreviewPage } from './harness';

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

async function withPreview(run: (preview: PreviewPage) => Promise<void>, options?: Parameters<typeof openPreview>[1]) {
  const preview = await openPreview(browser, options);
  try {
    await run(preview);
    assert.deepEqual(preview.pageErrors, [], 'no uncaught errors in the webview');
    assert.deepEqual(
      await preview.page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      [],
      'the preview itself stays within its Content Security Policy',
    );
  } finally {
    await preview.close();
  }
}

/** One event of every kind, with problems and agentguard records of both outcomes. */
function everyKind(): GraphData {
  const events: EventSpec[] = [
    { kind: 'metadata', title: 'metadata', content: '{"session": "s-1"}' },
    { kind: 'tools', title: 'tools (2)', content: 'get_inbox, send_email' },
    { kind: 'system', content: 'You are a helpful assistant.' },
    { kind: 'user', content: "What's in my inbox?" },
    {
      kind: 'assistant',
      content: 'Checking your inbox.',
      calls: [
        { id: '1', name: 'get_inbox', args: '{"n": 10}' },
        {
          id: '2',
          name: 'send_email',
          args: '{"to": "mom@mail.com"}',
          problems: [{ severity: 'warning', code: 'trace/unanswered-call', message: 'No output answers call "2".' }],
        },
      ],
    },
    { kind: 'output', callId: '1', content: '1. Subject: Hello, From: Alice' },
    { kind: 'output', callId: '9', content: 'orphan', problems: [{ severity: 'error', code: 'trace/unknown-call-id', message: 'No tool call has the id "9".' }] },
    { kind: 'message', role: 'developer', content: 'Keep answers short.' },
    { kind: 'entry', title: 'web.search', toolName: 'web.search', status: 'success', durationMs: 420, retries: 0, cost: 0.002, content: 'ok' },
    { kind: 'entry', title: 'web.fetch', toolName: 'web.fetch', status: 'timeout', durationMs: 30000, retries: 2, cost: null, content: 'timed out' },
    { kind: 'invalid', title: '#10 invalid', content: '42', problems: [{ severity: 'error', code: 'trace/not-an-event', message: 'An event must be an object.' }] },
  ];
  return buildGraph(events);
}

describe('trace preview webview', () => {
  test('posts ready, then rendered with node and DOM counts for each graph', async () => {
    await withPreview(async (preview) => {
      const data = buildGraph(syntheticEvents(12), { version: 7 });
      const rendered = await preview.showGraph(data);
      assert.equal(rendered.nodeCount, data.nodes.length);
      assert.equal(rendered.version, 7);
      assert.equal(rendered.domNodeCount, await preview.domNodeCount());
      assert.ok(rendered.firstPaintMs >= 0);
      const posted = await preview.posted();
      assert.deepEqual(posted[0], { type: 'ready' });
    });
  });

  test('a graph posted as an object and the same graph posted as JSON text draw the same', async () => {
    await withPreview(async (preview) => {
      const data = buildGraph(syntheticEvents(30, { problemEvery: 9 }));
      const snapshot = () => preview.page.evaluate(() => document.querySelector('.canvas')!.outerHTML);
      await preview.showGraph(data, 'object');
      const fromObject = await snapshot();
      await preview.showGraph({ ...data, version: 2 }, 'json');
      assert.equal(await snapshot(), fromObject);
      await preview.send({ type: 'graphJson', json: '{"nodes": [' });
      await preview.page.waitForSelector('.banner.notice:not([hidden])');
      assert.match((await preview.page.textContent('.banner.notice .text'))!, /^The preview received a broken graph: SyntaxError/);
    });
  });

  test('every node kind is drawn, each role in its own colour, calls inside their message', async () => {
    await withPreview(async (preview) => {
      await preview.showGraph(everyKind());
      const facts = await preview.page.evaluate(() => {
        const colourOf = (selector: string) => getComputedStyle(document.querySelector(selector)!).borderLeftColor;
        return {
          kinds: [...document.querySelectorAll('.node')].map((node) => (node as HTMLElement).dataset.kind),
          colours: ['user', 'system', 'assistant', 'call', 'output', 'message'].map((kind) => colourOf(`.node.kind-${kind}`)),
          callsInAssistant: document.querySelectorAll('.canvas > .node.kind-assistant > .node.kind-call').length,
          callTitles: [...document.querySelectorAll('.node.kind-call > .head .title')].map((t) => t.textContent),
          developerChip: document.querySelector('.node.kind-message .chip')!.textContent,
          statusBadges: [...document.querySelectorAll('.badge.status')].map((b) => `${b.textContent}:${b.className}`),
          failedEntries: [...document.querySelectorAll('.node.kind-entry.failed .title')].map((t) => t.textContent),
          failedBackground: getComputedStyle(document.querySelector('.node.kind-entry.failed')!).backgroundColor,
          okBackground: getComputedStyle(document.querySelector('.node.kind-entry:not(.failed)')!).backgroundColor,
          entryMeta: [...document.querySelectorAll('.node.kind-entry.failed .badge.meta')].map((b) => b.textContent),
          problemLines: [...document.querySelectorAll('.problem')].map((p) => p.textContent),
          inlineProblems: [...document.querySelectorAll('.inline-problem')].map((p) => p.textContent),
          errorNodes: [...document.querySelectorAll('.node.has-error')].map((n) => (n as HTMLElement).dataset.kind),
          danglingEdges: document.querySelectorAll('.edges path.edge.dangling').length,
          outputEdges: document.querySelectorAll('.edges path.edge.output').length,
        };
      });
      assert.deepEqual(
        [...new Set(facts.kinds)].sort(),
        ['assistant', 'call', 'entry', 'invalid', 'message', 'metadata', 'output', 'system', 'tools', 'user'],
      );
      assert.equal(new Set(facts.colours).size, 6, `distinct colours per role: ${facts.colours.join(', ')}`);
      assert.equal(facts.callsInAssistant, 2);
      assert.deepEqual(facts.callTitles, ['get_inbox({"n": 10})', 'send_email({"to": "mom@mail.com"})']);
      assert.equal(facts.developerChip, 'developer');
      assert.deepEqual(facts.statusBadges, ['success:badge status status-ok', 'timeout:badge status status-failed']);
      assert.deepEqual(facts.failedEntries, ['web.fetch']);
      assert.notEqual(facts.failedBackground, facts.okBackground);
      assert.deepEqual(facts.entryMeta, ['30.0 s', '↻ 2']);
      assert.deepEqual(facts.problemLines, ['✕ No tool call has the id "9".', '✕ An event must be an object.']);
      assert.deepEqual(facts.inlineProblems, ['No output answers call "2".']);
      assert.deepEqual(facts.errorNodes, ['output', 'invalid']);
      assert.equal(facts.danglingEdges, 1);
      assert.equal(facts.outputEdges, 1);
    });
  });

  test('clicking a node posts reveal with its range and selection; a click on a call reveals the call', async () => {
    await withPreview(async (preview) => {
      const data = everyKind();
      await preview.showGraph(data);
      const assistant = data.nodes.find((n) => n.kind === 'assistant')!;
      const call = data.nodes.find((n) => n.kind === 'call' && n.toolName === 'send_email')!;
      await preview.clearPosted();
      await preview.page.click(`.canvas > .node[data-id="${assistant.id}"] > .head .title`);
      await preview.page.click(`.node[data-id="${call.id}"] .title`);
      const reveals = (await preview.posted()).filter((m) => m.type === 'reveal');
      assert.deepEqual(reveals, [
        { type: 'reveal', range: assistant.range, selection: assistant.selection },
        { type: 'reveal', range: call.range, selection: call.selection },
      ]);
      assert.equal(await preview.page.getAttribute('.node.current', 'data-id'), String(call.id));
    });
  });

  test('a guardrail violation is listed on its node, and a click on it selects its exact range', async () => {
    await withPreview(async (preview) => {
      const range = { start: { line: 3, character: 40 }, end: { line: 3, character: 47 } };
      const data = buildGraph([
        { kind: 'user', content: 'my password is hunter2', problems: [{ severity: 'warning', code: 'guardrails/leak.gr:2', message: 'password in a message', range }] },
        { kind: 'assistant', content: 'noted' },
      ]);
      await preview.showGraph(data);
      const user = data.nodes.find((n) => n.kind === 'user')!;
      assert.deepEqual(await preview.page.$$eval('.problem[data-problem]', (lines) => lines.map((l) => l.textContent)), ['⚠ password in a message']);
      await preview.clearPosted();
      await preview.page.click('.problem[data-problem]');
      const reveals = (await preview.posted()).filter((m) => m.type === 'reveal');
      assert.deepEqual(reveals, [{ type: 'reveal', range: user.range, selection: range }]);
    });
  });

  test('a violation marks the nodes its rule\'s variables were bound to, when chosen in the preview or from the editor\'s cursor', async () => {
    await withPreview(async (preview) => {
      const range = { start: { line: 22, character: 4 }, end: { line: 22, character: 20 } };
      // Node ids: 0 the user, 1 the assistant with its calls 2 and 3, 4 the output of call 2.
      const bound = [{ node: 2, variable: 'call' }, { node: 4, variable: 'out' }, { node: 0, variable: 'm' }, { node: 0, variable: '<img src=x onerror="window.__pwned=1">' }];
      const data = buildGraph([
        { kind: 'user', content: 'refund order 7' },
        { kind: 'assistant', content: 'ok', calls: [{ id: 'c1', name: 'refund', args: '{"amount": 500}' }, { id: 'c2', name: 'notify' }] },
        { kind: 'output', callId: 'c1', content: 'refunded', problems: [{ severity: 'warning', code: 'guardrails/refunds.gr:1', message: 'refund needs approval', range, bound }] },
        { kind: 'assistant', content: 'done' },
      ]);
      await preview.showGraph(data);
      const marks = () => preview.page.$$eval('.node.bound', (boxes) => boxes.map((b) => [(b as HTMLElement).dataset.id, b.querySelector(':scope > .bound-as')?.textContent]));
      assert.deepEqual(await marks(), [], 'nothing is marked before a violation is chosen');
      assert.match((await preview.page.getAttribute('.problem[data-problem]', 'title'))!, /its bindings \(call, out, m, <img[^)]*\) are marked$/);

      await preview.page.click('.problem[data-problem]');
      await preview.page.waitForSelector('.node.bound');
      assert.deepEqual((await marks()).sort(), [['0', 'm, <img src=x onerror="window.__pwned=1">'], ['2', 'call'], ['4', 'out']]);
      assert.equal(await preview.page.locator('.bound-as img').count(), 0, 'a variable\'s name is text, never markup');
      assert.equal(await preview.page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);

      await preview.page.click('.node[data-id="5"] .head');
      await preview.page.waitForFunction(() => document.querySelectorAll('.node.bound').length === 0);

      // The editor's cursor on the violation's node (the output) marks the same elements.
      await preview.send({ type: 'cursor', line: data.nodes[4].range.start.line + 1 });
      await preview.page.waitForSelector('.node.current[data-id="4"]');
      await preview.page.waitForSelector('.node.bound');
      assert.deepEqual((await marks()).map(([id]) => id).sort(), ['0', '2', '4']);

      // A new version of the graph keeps the marks of the node still selected, and drops them with its violation.
      await preview.showGraph({ ...data, version: 2 });
      assert.deepEqual((await marks()).map(([id]) => id).sort(), ['0', '2', '4']);
      const fixed = structuredClone(data);
      fixed.version = 3;
      fixed.nodes[4].problems = [];
      await preview.showGraph(fixed);
      assert.deepEqual(await marks(), []);
    });
  });

  test('a cursor message highlights the innermost node at that line and scrolls it into view', async () => {
    await withPreview(async (preview) => {
      const data = buildGraph(syntheticEvents(4000));
      await preview.showGraph(data);
      const call = data.nodes.find((n) => n.kind === 'call' && n.eventIndex === 2501)!;
      const line = call.range.start.line + 1;
      const parent = data.nodes[call.parent!];
      assert.ok(parent.range.start.line <= line && line <= parent.range.end.line, 'the line is inside the message too');
      await preview.send({ type: 'cursor', line });
      await preview.page.waitForSelector(`.node.current[data-id="${call.id}"]`);
      const inView = await preview.page.evaluate((id) => {
        const box = document.querySelector(`.node[data-id="${id}"]`)!.getBoundingClientRect();
        const view = document.querySelector('.scroller')!.getBoundingClientRect();
        return box.top >= view.top && box.bottom <= view.bottom;
      }, call.id);
      assert.equal(inView, true);
      assert.equal(await preview.page.locator('.node.current').count(), 1);
      const user = data.nodes.find((n) => n.eventIndex === 100)!;
      await preview.send({ type: 'cursor', line: user.range.start.line });
      await preview.page.waitForSelector(`.node.current[data-id="${user.id}"]`);
    });
  });

  test('search, role and tool filters stack the matching events and can be cleared', async () => {
    await withPreview(async (preview) => {
      const data = buildGraph(syntheticEvents(400));
      await preview.showGraph(data);
      const shownKinds = () =>
        preview.page.evaluate(() => [...document.querySelectorAll('.canvas > .node')].map((n) => (n as HTMLElement).dataset.kind));
      const shownTitles = () =>
        preview.page.evaluate(() => [...document.querySelectorAll('.canvas > .node > .head .title')].map((t) => t.textContent));

      await preview.page.fill('.search', 'ITEM 37');
      await preview.page.press('.search', 'Enter');
      await preview.page.waitForFunction(() => document.querySelector('.status')!.textContent!.startsWith('4 matches'));
      assert.equal(await preview.page.textContent('.status'), '4 matches · 4 of 500 shown');
      assert.deepEqual(await shownTitles(), ['#148 user', '#149 assistant', '#150 output', '#151 assistant']);
      assert.deepEqual(
        await preview.page.evaluate(() => [...document.querySelectorAll('mark.match')].map((m) => m.textContent)),
        ['item 37', 'item 37', 'item 37', 'Item 37'],
      );
      const tops = await preview.page.evaluate(() =>
        [...document.querySelectorAll('.canvas > .node')].map((n) => (n as HTMLElement).offsetTop),
      );
      assert.equal(tops[0], 16, 'filtered rows are stacked from the top');

      await preview.page.fill('.search', '');
      await preview.page.press('.search', 'Enter');
      await preview.page.selectOption('.kind-filter', 'output');
      await preview.page.waitForFunction(() => document.querySelector('.status')!.textContent!.startsWith('100 matches'));
      assert.deepEqual([...new Set(await shownKinds())], ['output']);

      await preview.page.selectOption('.kind-filter', '');
      await preview.page.selectOption('.tool-filter', 'send_email');
      await preview.page.waitForFunction(() => document.querySelector('.status')!.textContent!.startsWith('50 matches'));
      const kinds = await shownKinds();
      assert.deepEqual([...new Set(kinds)].sort(), ['assistant', 'output'], 'messages holding the calls, and the outputs');
      const callTools = await preview.page.evaluate(() =>
        [...document.querySelectorAll('.node.kind-call.matched .title')].map((t) => t.textContent!.split('(')[0]),
      );
      assert.ok(callTools.length > 0 && callTools.every((name) => name === 'send_email'));

      await preview.page.selectOption('.tool-filter', '');
      await preview.page.waitForFunction(() => document.querySelector('.status')!.textContent === `500 nodes`);
    });
  });

  test('next and previous problem buttons and F8 / Shift+F8 visit problems in order and wrap', async () => {
    await withPreview(async (preview) => {
      const data = buildGraph(syntheticEvents(60, { problemEvery: 20 }));
      await preview.showGraph(data);
      const problemIds = data.nodes.filter((n) => n.problems.length > 0).map((n) => String(n.id));
      assert.equal(problemIds.length, 3);
      assert.equal(await preview.page.textContent('.problem-counter'), '3 problems');
      const current = () => preview.page.getAttribute('.node.current', 'data-id');
      await preview.page.click('.next-problem');
      assert.equal(await current(), problemIds[0]);
      assert.equal(await preview.page.textContent('.problem-counter'), 'Problem 1 of 3');
      await preview.page.click('.next-problem');
      assert.equal(await current(), problemIds[1]);
      await preview.page.keyboard.press('F8');
      assert.equal(await current(), problemIds[2]);
      await preview.page.keyboard.press('F8');
      assert.equal(await current(), problemIds[0], 'wraps to the first');
      await preview.page.keyboard.press('Shift+F8');
      assert.equal(await current(), problemIds[2], 'wraps to the last');
      await preview.page.click('.prev-problem');
      assert.equal(await current(), problemIds[1]);
    });
  });

  test('long content expands with a notice when the server cut it, pushes the rows below down, and collapses', async () => {
    await withPreview(async (preview) => {
      const longText = Array.from({ length: 300 }, (_, i) => `line ${i} of the page the tool fetched`).join('\n').slice(0, 4000);
      const data = buildGraph([
        { kind: 'user', content: 'fetch it' },
        { kind: 'output', content: longText, textLength: 10_000 },
        { kind: 'assistant', content: 'done' },
      ]);
      await preview.showGraph(data);
      const topOfLast = () => preview.page.evaluate(() => (document.querySelector('.canvas > .node[data-id="2"]') as HTMLElement).offsetTop);
      const before = await topOfLast();
      assert.equal(await preview.page.locator('.panel').count(), 0);
      await preview.page.click('.node[data-id="1"] .toggle');
      assert.equal(await preview.page.textContent('.panel-notice'), 'showing first 4,000 of 10,000 characters');
      assert.equal(await preview.page.textContent('.panel-text'), longText);
      assert.equal(await preview.page.getAttribute('.node[data-id="1"] .toggle', 'aria-expanded'), 'true');
      const panelBottom = await preview.page.evaluate(() => {
        const panel = document.querySelector('.panel')!.getBoundingClientRect();
        return panel.bottom;
      });
      const expandedTop = await topOfLast();
      assert.ok(expandedTop > before, 'the next event moved down');
      const nextTop = await preview.page.evaluate(() => document.querySelector('.canvas > .node[data-id="2"]')!.getBoundingClientRect().top);
      assert.ok(nextTop >= panelBottom, 'the panel does not overlap the next event');
      await preview.page.click('.panel-text');
      assert.equal((await preview.posted()).filter((m) => m.type === 'reveal').length, 0, 'clicks in the panel leave the editor alone');
      await preview.page.click('.node[data-id="1"] .toggle');
      assert.equal(await preview.page.locator('.panel').count(), 0);
      assert.equal(await topOfLast(), before);
      assert.equal((await preview.posted()).filter((m) => m.type === 'reveal').length, 0, 'toggling does not reveal');
    });
  });

  test('a dataset shows a trace picker that posts selectTrace; a single trace shows none', async () => {
    await withPreview(async (preview) => {
      const traces = [0, 1, 2].map((index) => ({ index, label: `line ${index + 1}: task ${index}` }));
      await preview.showGraph(buildGraph(syntheticEvents(8), { format: 'dataset', traces, traceIndex: 1 }));
      assert.equal(await preview.page.isVisible('.trace-picker'), true);
      assert.deepEqual(await preview.page.locator('.trace-picker option').allTextContents(), traces.map((t) => t.label));
      assert.equal(await preview.page.inputValue('.trace-picker'), '1');
      await preview.page.selectOption('.trace-picker', '2');
      assert.deepEqual(await preview.waitForPosted((m) => m.type === 'selectTrace'), { type: 'selectTrace', traceIndex: 2 });
      await preview.showGraph(buildGraph(syntheticEvents(8), { traces: [{ index: 0, label: 'only' }] }));
      assert.equal(await preview.page.isVisible('.trace-picker'), false);
    });
  });

  test('a cut graph, a graph error and a host notice each show a visible banner', async () => {
    await withPreview(async (preview) => {
      await preview.showGraph(buildGraph(syntheticEvents(20), { truncatedFrom: 250_000 }));
      assert.equal(await preview.page.isVisible('.banner.truncated'), true);
      assert.equal(
        await preview.page.textContent('.banner.truncated'),
        'Showing the first 25 of 250,000 nodes. The setting agentTraces.preview.maxNodes raises the limit.',
      );
      await preview.showGraph(buildGraph([], { error: 'The file is not JSON: unexpected character at line 1.' }));
      assert.equal(await preview.page.isVisible('.banner.truncated'), false);
      assert.equal(await preview.page.textContent('.banner.error'), 'The file is not JSON: unexpected character at line 1.');
      await preview.send({ type: 'notice', text: 'The language server restarted.' });
      await preview.page.waitForSelector('.banner.notice:not([hidden])');
      assert.equal(await preview.page.textContent('.banner.notice .text'), 'The language server restarted.');
      await preview.showGraph(buildGraph([]));
      assert.equal(await preview.page.textContent('.empty'), 'This trace has no events.');
      assert.equal(await preview.page.isVisible('.banner.error'), false);
    });
  });

  test('clicking the end of an edge scrolls to and highlights the node at the other end', async () => {
    await withPreview(async (preview) => {
      const events: EventSpec[] = [
        { kind: 'user', content: 'start' },
        { kind: 'assistant', content: 'calling', calls: [{ id: 'far', name: 'slow_tool', args: '{}' }] },
        ...syntheticEvents(200).filter((e) => e.kind !== 'output' && !e.calls),
        { kind: 'output', callId: 'far', content: 'finally' },
      ];
      const data = buildGraph(events);
      await preview.showGraph(data);
      const call = data.nodes.find((n) => n.callId === 'far' && n.kind === 'call')!;
      const output = data.nodes.find((n) => n.kind === 'output')!;
      await preview.page.click(`.edge-end[data-goto="${output.id}"]`);
      await preview.page.waitForSelector(`.node.current[data-id="${output.id}"]`);
      const visible = await preview.page.evaluate((id) => {
        const box = document.querySelector(`.node[data-id="${id}"]`)!.getBoundingClientRect();
        const view = document.querySelector('.scroller')!.getBoundingClientRect();
        return box.top >= view.top && box.bottom <= view.bottom;
      }, output.id);
      assert.equal(visible, true);
      await preview.page.click(`.edge-end[data-goto="${call.id}"]`);
      await preview.page.waitForSelector(`.node.current[data-id="${call.id}"]`);
    });
  });

  test('the DOM stays bounded at 100,000 events, at the top, the middle and the end', async () => {
    await withPreview(async (preview) => {
      const data = buildGraph(syntheticEvents(100_000, { problemEvery: 1000 }));
      const rendered = await preview.showGraph(data);
      const bound = 2000;
      assert.equal(rendered.nodeCount, 125_000);
      assert.ok(rendered.domNodeCount < bound, `${rendered.domNodeCount} elements at the top`);
      const height = await preview.page.evaluate(() => document.querySelector('.scroller')!.scrollHeight);
      assert.ok(height >= data.height, 'the canvas is as tall as the whole trace');
      await preview.scrollTo(height / 2);
      const middle = await preview.domNodeCount();
      assert.ok(middle < bound, `${middle} elements in the middle`);
      await preview.scrollTo(height);
      const end = await preview.domNodeCount();
      assert.ok(end < bound, `${end} elements at the end`);
      const last = data.nodes[data.nodes.length - 1];
      assert.equal(await preview.page.textContent(`.node[data-id="${last.id}"] .title`), last.title);
      await preview.page.click('.next-problem');
      assert.equal(await preview.page.textContent('.problem-counter'), 'Problem 1 of 100');
    });
  });

  test('a new version of the graph keeps the first visible event where it was', async () => {
    await withPreview(async (preview) => {
      const events = syntheticEvents(3000);
      const data = buildGraph(events, { version: 1 });
      await preview.showGraph(data);
      const target = data.nodes.find((n) => n.eventIndex === 1500)!;
      await preview.scrollTo(target.y + 7);
      const firstVisible = () =>
        preview.page.evaluate(() => {
          const scroller = document.querySelector('.scroller') as HTMLElement;
          const nodes = [...document.querySelectorAll('.canvas > .node')] as HTMLElement[];
          const first = nodes
            .filter((n) => n.offsetTop + n.offsetHeight > scroller.scrollTop)
            .sort((a, b) => a.offsetTop - b.offsetTop)[0];
          return { event: first.dataset.event, offset: scroller.scrollTop - first.offsetTop };
        });
      const before = await firstVisible();
      assert.deepEqual(before, { event: '1500', offset: 7 });

      // An edit near the top makes the first events taller, which moves every later y.
      const edited = events.slice();
      edited[0] = { ...edited[0], content: 'A much longer first request that now needs a second line in the preview box.'.repeat(2) };
      edited[3000] = { kind: 'user', content: 'appended' };
      const next = buildGraph(edited, { version: 2 });
      assert.notEqual(next.nodes.find((n) => n.eventIndex === 1500)!.y, target.y);
      const rendered = await preview.showGraph(next);
      assert.equal(rendered.version, 2);
      assert.deepEqual(await firstVisible(), before);
    });
  });

  test('the webview restores its scroll position and filter after being hidden and shown again', async () => {
    const data = buildGraph(syntheticEvents(2000));
    let saved: unknown;
    await withPreview(async (preview) => {
      await preview.showGraph(data);
      await preview.page.selectOption('.kind-filter', 'assistant');
      await preview.page.waitForFunction(() => document.querySelector('.status')!.textContent!.startsWith('1,000 matches'));
      await preview.scrollTo(20_000);
      await preview.page.waitForFunction(
        () => ((window as unknown as { __state?: { anchor?: unknown } }).__state?.anchor as { eventIndex?: number } | undefined)?.eventIndex! > 0,
      );
      saved = await preview.page.evaluate(() => (window as unknown as { __state: unknown }).__state);
    });
    const anchor = (saved as { anchor: { eventIndex: number; offset: number } }).anchor;
    await withPreview(
      async (preview) => {
        await preview.showGraph(data);
        assert.equal(await preview.page.inputValue('.kind-filter'), 'assistant');
        const first = await preview.page.evaluate(() => {
          const scroller = document.querySelector('.scroller') as HTMLElement;
          const nodes = [...document.querySelectorAll('.canvas > .node')] as HTMLElement[];
          return nodes.filter((n) => n.offsetTop + n.offsetHeight > scroller.scrollTop).sort((a, b) => a.offsetTop - b.offsetTop)[0].dataset.event;
        });
        assert.equal(first, String(anchor.eventIndex));
      },
      { state: saved },
    );
  });

  test('arrow keys move the highlight and Enter reveals it', async () => {
    await withPreview(async (preview) => {
      const data = buildGraph(syntheticEvents(10));
      await preview.showGraph(data);
      await preview.page.click('.canvas > .node[data-id="0"] .title');
      await preview.page.keyboard.press('ArrowDown');
      assert.equal(await preview.page.getAttribute('.node.current', 'data-id'), '1');
      await preview.clearPosted();
      await preview.page.keyboard.press('Enter');
      const reveal = (await preview.posted()).find((m) => m.type === 'reveal') as Extract<WebviewToHost, { type: 'reveal' }>;
      assert.deepEqual(reveal.range, data.nodes[1].range);
    });
  });

  test('Space folds and unfolds the current event, "/" goes to the search, and neither acts while typing there', async () => {
    await withPreview(async (preview) => {
      const data = buildGraph([
        { kind: 'user', content: 'fetch it' },
        { kind: 'output', content: Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n') },
        { kind: 'assistant', content: 'done' },
      ]);
      await preview.showGraph(data);
      const expanded = () => preview.page.getAttribute('.node[data-id="1"] .toggle', 'aria-expanded');
      await preview.page.click('.canvas > .node[data-id="1"] .title');
      assert.equal(await expanded(), 'false');
      await preview.page.keyboard.press(' ');
      assert.equal(await expanded(), 'true');
      await preview.page.keyboard.press(' ');
      assert.equal(await expanded(), 'false');
      await preview.page.keyboard.press('/');
      assert.equal(await preview.page.evaluate(() => document.activeElement?.classList.contains('search')), true);
      await preview.page.keyboard.press(' ');
      await preview.page.keyboard.press('/');
      assert.equal(await preview.page.inputValue('.search'), ' /', 'typed into the search, not taken as commands');
      assert.equal(await expanded(), 'false');
    });
  });

  for (const theme of ['dark', 'light', 'high-contrast'] as const) {
    test(`screenshot in the ${theme} theme`, async () => {
      await withPreview(
        async (preview) => {
          const data = everyKind();
          await preview.showGraph(data);
          await preview.page.click('.node[data-id="8"] .toggle');
          await preview.page.click(`.canvas > .node.kind-assistant > .head .title`);
          mkdirSync(resultsDir, { recursive: true });
          const path = join(resultsDir, `preview-${theme}.png`);
          await preview.page.screenshot({ path });
          const background = await preview.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
          assert.equal(background, { dark: 'rgb(30, 30, 30)', light: 'rgb(255, 255, 255)', 'high-contrast': 'rgb(0, 0, 0)' }[theme]);
        },
        { theme, width: 820, height: 900 },
      );
    });
  }
});
