/**
 * Trace preview first paint in headless Chromium at 1,000, 10,000 and 100,000 events: the time from the host
 * posting the graph message (as JSON text, as the extension host does) to the webview's `rendered` answer (after
 * the next frame), measured inside the page, against a baseline measured in the same page and run: JSON.parse of
 * the same payload. Also shown: the same graph posted as an object tree, which the structured clone makes slower.
 * Run: node esbuild.mjs && node out/bench/preview.bench.js
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGraph, syntheticEvents } from '../test/webview/graphFixture';
import { launchBrowser, openPreview, repoRoot } from '../test/webview/harness';
import { median } from './measure';

const SIZES = [1_000, 10_000, 100_000];
const RUNS = 3;
const TARGET_MS: Record<number, number> = { 10_000: 500, 100_000: 2000 };

interface Sample {
  /** Posted as JSON text (what the extension host sends) to `rendered`. */
  totalMs: number;
  /** The same graph posted as an object, for comparison. */
  objectMs: number;
  webviewMs: number;
  parseMs: number;
  domNodeCount: number;
  nodeCount: number;
}

async function main(): Promise<void> {
  const browser = await launchBrowser();
  const rows: Record<string, string | number>[] = [];
  try {
    const preview = await openPreview(browser, { width: 1000, height: 800 });
    try {
      // Warm up the page's code paths once, untimed.
      await preview.showGraph(buildGraph(syntheticEvents(500)));
      for (const size of SIZES) {
        const samples: Sample[] = [];
        let payloadBytes = 0;
        for (let run = 0; run < RUNS; run++) {
          const data = buildGraph(syntheticEvents(size, { problemEvery: 50 }), { uri: `file:///bench/${size}-${run}.trace.json` });
          const payload = JSON.stringify(data);
          payloadBytes = payload.length;
          await preview.page.evaluate((text) => {
            (window as unknown as { __payload: string }).__payload = text;
          }, payload);
          const sample = await preview.page.evaluate(async () => {
            const w = window as unknown as { __payload: string; __posted: { type: string }[] };
            const posted = w.__posted;
            const push = posted.push;
            /** Posts a message as the host does and resolves with the time to the webview's `rendered` answer. */
            const timeToRendered = async (message: unknown) => {
              const rendered = new Promise<{ firstPaintMs: number; domNodeCount: number; nodeCount: number; at: number }>((resolve) => {
                posted.push = function (...messages: { type: string }[]) {
                  const at = performance.now();
                  for (const m of messages) if (m.type === 'rendered') resolve(Object.assign({}, m as never, { at }));
                  return push.apply(this, messages);
                };
              });
              const start = performance.now();
              window.postMessage(message, '*');
              const result = await rendered;
              posted.push = push;
              return { ms: result.at - start, ...result };
            };

            const parseStart = performance.now();
            JSON.parse(w.__payload);
            const parseMs = performance.now() - parseStart;
            const asJson = await timeToRendered({ type: 'graphJson', json: w.__payload });
            const data = JSON.parse(w.__payload);
            data.version = -2;
            w.__payload = '';
            const asObject = await timeToRendered({ type: 'graph', data });
            return {
              totalMs: asJson.ms,
              objectMs: asObject.ms,
              webviewMs: asJson.firstPaintMs,
              parseMs,
              domNodeCount: Math.max(asJson.domNodeCount, asObject.domNodeCount),
              nodeCount: asJson.nodeCount,
            };
          });
          samples.push(sample);
        }
        const totalMs = median(samples.map((s) => s.totalMs));
        const parseMs = median(samples.map((s) => s.parseMs));
        rows.push({
          events: size,
          nodes: samples[0].nodeCount,
          'payload MB': Number((payloadBytes / 1e6).toFixed(1)),
          'first paint ms': Number(totalMs.toFixed(1)),
          'in webview ms': Number(median(samples.map((s) => s.webviewMs)).toFixed(1)),
          'as object ms': Number(median(samples.map((s) => s.objectMs)).toFixed(1)),
          'JSON.parse ms': Number(parseMs.toFixed(1)),
          'ratio to JSON.parse': Number((totalMs / parseMs).toFixed(2)),
          'DOM elements': Math.max(...samples.map((s) => s.domNodeCount)),
          target: TARGET_MS[size] ? `≤ ${TARGET_MS[size]} ms ${totalMs <= TARGET_MS[size] ? 'met' : 'MISSED'}` : '-',
        });
      }
      if (preview.pageErrors.length > 0) throw new Error(`errors in the webview: ${preview.pageErrors.join('; ')}`);
    } finally {
      await preview.close();
    }
  } finally {
    await browser.close();
  }
  console.log(`Trace preview first paint, headless Chromium, median of ${RUNS} runs`);
  console.table(rows);
  const resultsDir = join(repoRoot, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, 'preview.json'), JSON.stringify({ date: new Date().toISOString(), runs: RUNS, rows }, null, 2) + '\n');
}

// No process.exit: the run ends by itself once the browser is closed, which shows nothing was left running.
main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
