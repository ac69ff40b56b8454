/**
 * Comparing two runs: generated pairs of 10,000 and 100,000 steps a side (a second run of the same agent: new call
 * ids, about 1% of steps changed, inserted or removed, parallel outputs in another order), and a pair of unrelated
 * runs of the same size (the work limit's case). Each figure beside a baseline measured in the same run:
 * - in process (CPU ms): the diff (reading both traces, aligning, comparing fields) and the compare view's rows,
 *   against JSON.parse of both texts;
 * - the command line (wall ms, a fresh process each): `agent-traces diff a b`, against a fresh Node process that
 *   reads and JSON.parses both files;
 * - the server over stdio (wall ms): the compare request cold (the first request of a fresh server) and warm (the
 *   third), against the preview's graph request of the right trace in the same server;
 * - the compare view in headless Chromium: from the host posting the data (JSON text) to the view's `rendered`
 *   answer, against JSON.parse of the same payload in the page.
 * Run: node esbuild.mjs && node out/bench/diff.bench.js [steps...]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineIndex } from '../server/src/common/lineIndex';
import { runSteps } from '../server/src/common/steps';
import type { Span } from '../server/src/common/types';
import { compareInSteps, type CompareSettings } from '../server/src/diff/compare';
import { defaultMaxAlignmentWork, diffTraces } from '../server/src/diff/diff';
import { traceFileSource } from '../server/src/diff/sources';
import type { CompareData } from '../shared/protocol';
import { ServerProcess } from '../test/protocol/lspClient';
import { launchBrowser, openPreview, repoRoot } from '../test/webview/harness';
import { cpuTime, median, random } from './measure';

const settings: CompareSettings = { maxSteps: 200_000, maxAlignmentWork: defaultMaxAlignmentWork, maxTextLength: 4000, ignore: [], compareIds: false };

function words(next: () => number, count: number): string {
  const vocabulary = 'the flight hotel seat booking fare search result traveller city date price card payment reference aisle window'.split(' ');
  return Array.from({ length: count }, () => vocabulary[Math.floor(next() * vocabulary.length)]).join(' ');
}

/** A run of about `steps` steps: turns of a user question, an assistant making one to three calls, their outputs, an answer. */
function run(steps: number, seed: number): unknown[] {
  const next = random(seed);
  const tools = ['search_flights', 'get_fare_rules', 'get_seat_map', 'book_flight', 'search_hotels', 'book_hotel'];
  const events: unknown[] = [{ role: 'system', content: 'You are a travel assistant.' }];
  let call = 0;
  while (events.length < steps) {
    events.push({ role: 'user', content: `${words(next, 12)} (turn ${events.length})` });
    const made = 1 + Math.floor(next() * 3);
    const calls = Array.from({ length: made }, () => ({
      id: `call_${seed}_${call++}`, type: 'function',
      function: { name: tools[Math.floor(next() * tools.length)], arguments: JSON.stringify({ query: words(next, 4), n: Math.floor(next() * 100) }) },
    }));
    events.push({ role: 'assistant', content: null, tool_calls: calls });
    for (const c of calls) events.push({ role: 'tool', tool_call_id: c.id, content: `${words(next, 30)} (${c.function.name} ${call})` });
    events.push({ role: 'assistant', content: words(next, 20) });
  }
  return events.slice(0, steps);
}

/** The same agent run again: new call ids, ~1% of steps changed, ~0.5% inserted and ~0.5% removed, parallel outputs swapped. */
function rerun(events: unknown[], seed: number): unknown[] {
  const next = random(seed);
  const renamed = JSON.parse(JSON.stringify(events).replace(/"call_\d+_/g, '"call_r_')) as Record<string, any>[];
  const out: unknown[] = [];
  for (let i = 0; i < renamed.length; i++) {
    const event = renamed[i];
    const roll = next();
    if (roll < 0.005) continue;
    if (roll < 0.01) out.push({ role: 'assistant', content: `inserted ${i}` });
    if (roll < 0.02 && typeof event.content === 'string') event.content = `${event.content} (changed)`;
    else if (roll < 0.02 && event.tool_calls) event.tool_calls[0].function.arguments = JSON.stringify({ query: 'changed', n: i });
    if (event.role === 'tool' && renamed[i + 1]?.role === 'tool' && next() < 0.3) {
      out.push(renamed[i + 1], event);
      i++;
      continue;
    }
    out.push(event);
  }
  return out;
}

interface Pair {
  name: string;
  left: string;
  right: string;
}

function pairs(steps: number): Pair[] {
  const base = run(steps, 1);
  return [
    { name: `${steps.toLocaleString('en-US')} steps, a rerun`, left: JSON.stringify(base, null, 1), right: JSON.stringify(rerun(base, 2), null, 1) },
    { name: `${steps.toLocaleString('en-US')} steps, unrelated runs`, left: JSON.stringify(base, null, 1), right: JSON.stringify(run(steps, 3), null, 1) },
  ];
}

function side(path: string, text: string) {
  const lines = new LineIndex(text);
  return { uri: pathToFileURL(path).toString(), path, text, label: path, toRange: (span: Span) => ({ start: lines.positionAt(span.start), end: lines.positionAt(span.end) }) };
}

function inProcess(pair: Pair): Record<string, string | number> {
  const runs = 3;
  const parse = median(Array.from({ length: runs }, () => cpuTime(() => {
    JSON.parse(pair.left);
    JSON.parse(pair.right);
  })));
  let summary = '';
  const diff = median(Array.from({ length: runs }, () => cpuTime(() => {
    const a = traceFileSource(pair.left);
    const b = traceFileSource(pair.right);
    if (!a.ok || !b.ok) throw new Error('generated traces must read');
    const result = diffTraces(a.source.input, b.source.input);
    summary = `${result.counts.added} added, ${result.counts.removed} removed, ${result.counts.changed} changed${result.approximated.length ? `, ${result.approximated.length} stretch(es) paired by position` : ''}`;
  })));
  const view = median(Array.from({ length: runs }, () => cpuTime(() => runSteps(compareInSteps(side('/a.trace.json', pair.left), side('/b.trace.json', pair.right), settings)))));
  return { pair: pair.name, 'JSON.parse both (ms)': round(parse), 'diff (ms)': round(diff), 'diff ÷ parse': ratio(diff / parse), 'view rows (ms)': round(view), 'view ÷ parse': ratio(view / parse), result: summary };
}

function wall(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function commandLine(pair: Pair, dir: string): Record<string, string | number> {
  const a = join(dir, 'a.trace.json');
  const b = join(dir, 'b.trace.json');
  writeFileSync(a, pair.left);
  writeFileSync(b, pair.right);
  const cli = join(repoRoot, 'dist', 'cli.js');
  const baseline = median([0, 1, 2].map(() => wall(() => execFileSync(process.execPath, ['-e', `const fs=require('fs');JSON.parse(fs.readFileSync(${JSON.stringify(a)},'utf8'));JSON.parse(fs.readFileSync(${JSON.stringify(b)},'utf8'))`]))));
  const ours = median([0, 1, 2].map(() => wall(() => {
    try {
      execFileSync(process.execPath, [cli, 'diff', a, b], { maxBuffer: 1 << 30 });
    } catch (error) {
      if ((error as { status?: number }).status !== 1) throw error; // 1: the runs differ
    }
  })));
  return { pair: pair.name, 'node reads and parses both (ms)': round(baseline), 'agent-traces diff (ms)': round(ours), ratio: ratio(ours / baseline) };
}

async function overStdio(pair: Pair, dir: string): Promise<{ row: Record<string, string | number>; data: CompareData }> {
  const a = pathToFileURL(join(dir, 'a.trace.json')).toString();
  const b = pathToFileURL(join(dir, 'b.trace.json')).toString();
  writeFileSync(join(dir, 'a.trace.json'), pair.left);
  writeFileSync(join(dir, 'b.trace.json'), pair.right);
  const server = new ServerProcess();
  try {
    await server.initialize([pathToFileURL(dir).toString()]);
    await server.configured;
    const request = () => server.connection.sendRequest('agentTraces/compare', { left: { uri: a }, right: { uri: b } }) as Promise<CompareData>;
    let start = performance.now();
    let data = await request();
    const cold = performance.now() - start;
    await request();
    start = performance.now();
    data = await request();
    const warm = performance.now() - start;
    await server.connection.sendRequest('agentTraces/graph', { uri: b });
    start = performance.now();
    await server.connection.sendRequest('agentTraces/graph', { uri: b });
    const graph = performance.now() - start;
    return {
      row: { pair: pair.name, 'graph of the right trace (ms)': round(graph), 'compare, cold (ms)': round(cold), 'compare, warm (ms)': round(warm), 'warm ÷ graph': ratio(warm / graph), 'rows': data.rows.length },
      data,
    };
  } finally {
    await server.shutdown();
  }
}

async function firstPaint(name: string, data: CompareData): Promise<Record<string, string | number>> {
  const browser = await launchBrowser();
  try {
    const page = await openPreview(browser, { view: 'compare', width: 1200, height: 800 });
    try {
      const payload = JSON.stringify(data);
      const samples: { total: number; inView: number; parse: number; dom: number }[] = [];
      for (let i = 0; i < 3; i++) {
        await page.page.evaluate((text) => ((window as unknown as { __payload: string }).__payload = text), payload);
        // Timed inside the page, as the preview's benchmark does: from the host's message to the view's `rendered`.
        samples.push(await page.page.evaluate(async () => {
          const w = window as unknown as { __payload: string; __posted: { type: string }[] };
          const posted = w.__posted;
          const push = posted.push;
          const rendered = new Promise<{ firstPaintMs: number; domNodeCount: number; at: number }>((resolve) => {
            posted.push = function (...messages: { type: string }[]) {
              const at = performance.now();
              for (const m of messages) if (m.type === 'rendered') resolve(Object.assign({}, m as never, { at }));
              return push.apply(this, messages);
            };
          });
          const parseStart = performance.now();
          JSON.parse(w.__payload);
          const parse = performance.now() - parseStart;
          const start = performance.now();
          window.postMessage({ type: 'compareJson', json: w.__payload }, '*');
          const result = await rendered;
          posted.push = push;
          return { total: result.at - start, inView: result.firstPaintMs, parse, dom: result.domNodeCount };
        }));
      }
      const total = median(samples.map((s) => s.total));
      const parse = median(samples.map((s) => s.parse));
      return {
        pair: name, 'payload (MB)': round(payload.length / 1024 / 1024, 1), 'JSON.parse in the page (ms)': round(parse),
        'posted → rendered (ms)': round(total), ratio: ratio(total / parse), 'DOM elements': samples[0].dom,
      };
    } finally {
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

function round(value: number, digits = 0): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function ratio(value: number): string {
  return `${value.toFixed(1)}×`;
}

async function main(): Promise<void> {
  const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
  const dir = mkdtempSync(join(tmpdir(), 'agent-traces-diff-bench-'));
  const tables: Record<string, Record<string, string | number>[]> = { 'in process': [], 'command line': [], 'server over stdio': [], 'compare view first paint': [] };
  try {
    for (const steps of sizes.length > 0 ? sizes : [10_000, 100_000]) {
      for (const pair of pairs(steps)) {
        console.log(`${pair.name}: ${(pair.left.length / 1024 / 1024).toFixed(1)} MB and ${(pair.right.length / 1024 / 1024).toFixed(1)} MB`);
        tables['in process'].push(inProcess(pair));
        tables['command line'].push(commandLine(pair, dir));
        const { row, data } = await overStdio(pair, dir);
        tables['server over stdio'].push(row);
        tables['compare view first paint'].push(await firstPaint(pair.name, data));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const [title, rows] of Object.entries(tables)) {
    console.log(`\n${title}`);
    console.table(rows);
  }
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
