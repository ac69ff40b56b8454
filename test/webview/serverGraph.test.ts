/** The preview drawing graphs built by the language server's own graph builders from the example files. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { LineIndex } from '../../server/src/common/lineIndex';
import { defaultSettings, type LanguageService } from '../../server/src/common/languageService';
import type { Span } from '../../server/src/common/types';
import { inspectService } from '../../server/src/inspect';
import { jsonlService } from '../../server/src/jsonl';
import { spansService } from '../../server/src/otel';
import type { GraphData } from '../../shared/protocol';
import { traceService } from '../../server/src/trace';
import { launchBrowser, openPreview, repoRoot, resultsDir } from './harness';

function serverGraph<Model>(service: LanguageService<Model>, file: string, traceIndex?: number): GraphData {
  const text = readFileSync(file, 'utf8');
  const index = new LineIndex(text);
  const toRange = (span: Span) => ({ start: index.positionAt(span.start), end: index.positionAt(span.end) });
  const uri = `file://${file}`;
  const model = service.parse({ uri, version: 3, text });
  return service.graph!(model, { toRange, traceIndex }, { settings: defaultSettings });
}

const examples = {
  trace: join(repoRoot, 'examples', 'inbox-assistant.trace.json'),
  broken: join(repoRoot, 'examples', 'broken-fixture.trace.json'),
  dataset: join(repoRoot, 'examples', 'datasets', 'support-evals.trace.jsonl'),
  agentguard: join(repoRoot, 'examples', 'agentguard', 'checkout-session.jsonl'),
  session: join(repoRoot, 'examples', 'sessions', 'fix-checkout.jsonl'),
  spans: join(repoRoot, 'examples', 'spans', 'travel-assistant.jsonl'),
  inspectLog: join(repoRoot, 'examples', 'logs', '2025-07-05T14-00-00_refund-agent.json'),
};

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

describe('the preview with graphs from the language server', () => {
  test('a trace: calls inside their message, edges to outputs, clicks reveal and the cursor highlights', async (t) => {
    if (!existsSync(examples.trace)) return t.skip(`example not found at ${examples.trace}`);
    const data = serverGraph(traceService, examples.trace);
    const calls = data.nodes.filter((n) => n.kind === 'call' && n.parent !== undefined);
    assert.ok(calls.length > 0, 'the example has tool calls in messages');
    const preview = await openPreview(browser);
    try {
      const rendered = await preview.showGraph(data);
      assert.equal(rendered.nodeCount, data.nodes.length);
      assert.equal(rendered.version, 3);
      const nesting = await preview.page.evaluate(() =>
        [...document.querySelectorAll('.node.kind-call')].map((call) => ({
          id: Number((call as HTMLElement).dataset.id),
          parent: Number((call.parentElement as HTMLElement).dataset.id),
        })),
      );
      for (const call of calls) assert.deepEqual(nesting.find((n) => n.id === call.id), { id: call.id, parent: call.parent });

      // Every box stays inside the height the server laid out for it: nothing spills onto the next event.
      const overflow = await preview.page.evaluate(() =>
        [...document.querySelectorAll('.canvas > .node')].filter((node) => {
          const box = node.getBoundingClientRect();
          return [...node.querySelectorAll(':scope > .node')].some((child) => child.getBoundingClientRect().bottom > box.bottom + 0.5);
        }).length,
      );
      assert.equal(overflow, 0);

      const outputEdges = data.edges.filter((e) => e.kind === 'output' || e.kind === 'implicit-output').length;
      assert.equal(await preview.page.locator('.edges path.edge.output, .edges path.edge.implicit-output').count(), outputEdges);

      const call = calls[0];
      await preview.clearPosted();
      await preview.page.click(`.node[data-id="${call.id}"] > .head .title`);
      assert.deepEqual((await preview.posted()).find((m) => m.type === 'reveal'), {
        type: 'reveal',
        range: call.range,
        selection: call.selection,
      });

      await preview.send({ type: 'cursor', line: call.selection.start.line });
      await preview.page.waitForSelector(`.node.current[data-id="${call.id}"]`);
    } finally {
      await preview.close();
    }
  });

  test('a dataset: the picker lists the traces and the chosen one is drawn', async (t) => {
    if (!existsSync(examples.dataset)) return t.skip(`example not found at ${examples.dataset}`);
    const data = serverGraph(jsonlService, examples.dataset, 1);
    assert.equal(data.format, 'dataset');
    const preview = await openPreview(browser);
    try {
      await preview.showGraph(data);
      assert.deepEqual(await preview.page.locator('.trace-picker option').allTextContents(), data.traces.map((trace) => trace.label));
      assert.equal(await preview.page.inputValue('.trace-picker'), String(data.traceIndex));
      assert.equal(await preview.page.locator('.canvas > .node').count(), data.nodes.filter((n) => n.parent === undefined).length);
    } finally {
      await preview.close();
    }
  });

  test('a dataset of 130,000 traces: the picker lists a window around the chosen trace, with the gaps marked', async () => {
    const text = Array.from({ length: 130_000 }, (_, i) => `{"index": ${i}, "messages": [{"role": "user", "content": "question ${i}"}]}`).join('\n');
    const index = new LineIndex(text);
    const toRange = (span: Span) => ({ start: index.positionAt(span.start), end: index.positionAt(span.end) });
    const model = jsonlService.parse({ uri: 'file:///big.jsonl', version: 1, text });
    const data = jsonlService.graph!(model, { toRange, traceIndex: 65_000 }, { settings: defaultSettings });
    assert.equal(data.traces.length, 502);
    assert.deepEqual([data.traces[0].index, data.traces[1].index, data.traces[500].index, data.traces[501].index], [0, 64_750, 65_249, 129_999]);
    const preview = await openPreview(browser);
    try {
      const rendered = await preview.showGraph(data);
      assert.equal(rendered.nodeCount, 1);
      const options = await preview.page.locator('.trace-picker option').allTextContents();
      assert.equal(options.length, 504);
      assert.deepEqual(options.slice(0, 3), ['#0 (line 1)', '⋯ 64,749 more traces ⋯', '#64750 (line 64751)']);
      assert.deepEqual(options.slice(-3), ['#65249 (line 65250)', '⋯ 64,749 more traces ⋯', '#129999 (line 130000)']);
      assert.equal(await preview.page.inputValue('.trace-picker'), '65000');
      assert.equal(await preview.page.locator('.trace-picker option:disabled').count(), 2);
    } finally {
      await preview.close();
    }
  });

  test('an agentguard log: one timeline row per entry with its status badge, failures marked', async (t) => {
    if (!existsSync(examples.agentguard)) return t.skip(`example not found at ${examples.agentguard}`);
    const data = serverGraph(jsonlService, examples.agentguard);
    assert.equal(data.format, 'agentguard');
    const preview = await openPreview(browser);
    try {
      await preview.showGraph(data);
      const rows = await preview.page.evaluate(() =>
        [...document.querySelectorAll('.canvas > .node.kind-entry')].map((row) => ({
          status: row.querySelector('.badge.status')?.textContent ?? null,
          failed: row.classList.contains('failed'),
        })),
      );
      assert.deepEqual(
        rows,
        data.nodes.map((n) => ({ status: n.status ?? null, failed: n.status !== undefined && n.status !== 'success' && n.status !== 'retried' })),
      );
    } finally {
      await preview.close();
    }
  });

  test('the header\'s totals: spans\' time and tokens, a session\'s time and failed call, an Inspect sample\'s usage, an agentguard log\'s failures, tokens and cost; none for a trace that records neither', async (t) => {
    const missing = [examples.spans, examples.session, examples.inspectLog, examples.agentguard, examples.trace].find((file) => !existsSync(file));
    if (missing) return t.skip(`example not found at ${missing}`);
    const preview = await openPreview(browser);
    const totals = preview.page.locator('header.toolbar .totals');
    const shown = async () => ({
      visible: await totals.isVisible(),
      text: await totals.textContent(),
      title: await totals.getAttribute('title'),
      elements: await totals.locator('*').count(),
    });
    const drawn = (text: string, whole = 'conversation') => ({ visible: true, text, title: `This ${whole}: ${text}`, elements: 0 });
    try {
      // One preview, graph after graph, as when the user switches files: each header says its own file's totals.
      await preview.showGraph(serverGraph(spansService, examples.spans));
      assert.deepEqual(await shown(), drawn('2 calls · 3.21 s · 1,539 tokens (1,441 in, 98 out)'));

      // Claude Code records times but, in this session, no usage: no tokens are claimed.
      await preview.showGraph(serverGraph(jsonlService, examples.session));
      assert.deepEqual(await shown(), drawn('5 calls, 1 failed · 1 min 4 s'));

      await preview.showGraph(serverGraph(inspectService, examples.inspectLog, 0));
      assert.deepEqual(await shown(), drawn('2 calls · 6.60 s · 1,523 tokens (1,432 in, 91 out)'));

      // One LLM entry records its tokens and cost (`cost`: 0.000231); the tools' null costs add nothing.
      await preview.showGraph(serverGraph(jsonlService, examples.agentguard));
      assert.deepEqual(await shown(), drawn('5 calls, 2 failed · 1,150 tokens (1,020 in, 130 out) · $0.00023', 'log'));

      const plain = serverGraph(traceService, examples.trace);
      assert.equal(plain.totals, undefined, 'the example trace records no times or tokens');
      await preview.showGraph(plain);
      assert.deepEqual(await shown(), { visible: false, text: '', title: '', elements: 0 });
      assert.deepEqual(preview.pageErrors, []);
    } finally {
      await preview.close();
    }
  });

  for (const theme of ['dark', 'light'] as const) {
    test(`screenshot of the example trace in the ${theme} theme`, async (t) => {
      if (!existsSync(examples.trace)) return t.skip(`example not found at ${examples.trace}`);
      const data = serverGraph(traceService, examples.trace);
      const preview = await openPreview(browser, { theme, width: 760, height: 620 });
      try {
        await preview.showGraph(data);
        const output = data.nodes.find((n) => n.kind === 'output')!;
        await preview.page.click(`.node[data-id="${output.id}"] > .head .toggle`);
        const call = data.nodes.find((n) => n.kind === 'call')!;
        await preview.page.click(`.node[data-id="${call.id}"] > .head .title`);
        mkdirSync(resultsDir, { recursive: true });
        await preview.page.screenshot({ path: join(resultsDir, `preview-example-${theme}.png`) });
        assert.deepEqual(preview.pageErrors, []);
      } finally {
        await preview.close();
      }
    });
  }

  test('screenshot of the example with faults in the dark theme, at its first problem', async (t) => {
    if (!existsSync(examples.broken)) return t.skip(`example not found at ${examples.broken}`);
    const data = serverGraph(traceService, examples.broken);
    const preview = await openPreview(browser, { theme: 'dark', width: 860, height: 560 });
    try {
      await preview.showGraph(data);
      await preview.page.click('.next-problem');
      const first = data.nodes.find((n) => n.problems.some((p) => p.severity !== 'hint'))!;
      assert.equal(await preview.page.getAttribute('.node.current', 'data-id'), String(first.id));
      await preview.scrollTo(0);
      mkdirSync(resultsDir, { recursive: true });
      await preview.page.screenshot({ path: join(resultsDir, 'preview-faults-dark.png'), animations: 'disabled' });
      assert.deepEqual(preview.pageErrors, []);
    } finally {
      await preview.close();
    }
  });
});
