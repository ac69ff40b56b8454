/** The compare view in headless Chromium, drawing what the language server's compare builder computes. */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { LineIndex } from '../../server/src/common/lineIndex';
import { runSteps } from '../../server/src/common/steps';
import type { Span } from '../../server/src/common/types';
import { compareInSteps, type Comparison, type CompareSettings, type CompareSideInput } from '../../server/src/diff/compare';
import type { CompareData } from '../../shared/protocol';
import { launchBrowser, openPreview, repoRoot, resultsDir, type PreviewPage } from './harness';

const runs = join(repoRoot, 'examples', 'runs');
const settings: CompareSettings = { maxSteps: 200_000, maxAlignmentWork: 20_000_000, maxTextLength: 4000, ignore: [], compareIds: false };

function side(path: string, text: string, label = path.split('/').pop()!): CompareSideInput {
  const lines = new LineIndex(text);
  return { uri: `file://${path}`, path, text, label, toRange: (span: Span) => ({ start: lines.positionAt(span.start), end: lines.positionAt(span.end) }) };
}

function comparison(leftPath: string, rightPath: string, options: Partial<CompareSettings> = {}): Comparison {
  return runSteps(compareInSteps(side(leftPath, readFileSync(leftPath, 'utf8')), side(rightPath, readFileSync(rightPath, 'utf8')), { ...settings, ...options }, 'test'));
}

function compare(leftPath: string, rightPath: string, options: Partial<CompareSettings> = {}): CompareData {
  return comparison(leftPath, rightPath, options).data;
}

function compareTexts(left: unknown[], right: unknown[]): CompareData {
  return runSteps(compareInSteps(side('/a.trace.json', JSON.stringify(left)), side('/b.trace.json', JSON.stringify(right)), settings)).data;
}

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

async function open(data: CompareData, options: { width?: number; height?: number; theme?: 'dark' | 'light' } = {}): Promise<PreviewPage> {
  const page = await openPreview(browser, { view: 'compare', width: options.width ?? 1200, height: options.height ?? 800, theme: options.theme });
  const rendered = await page.showCompare(data);
  assert.equal(rendered.nodeCount, data.rows.length);
  return page;
}

const rowText = (page: PreviewPage, row: number, side: 'left' | 'right') =>
  page.page.locator(`.cmp-row[data-row="${row}"] .cell.${side}`).innerText();

describe('the compare view', () => {
  test('draws two runs in aligned columns: added steps beside an empty cell, changed fields marked, reordered calls flagged', async () => {
    const data = compare(join(runs, 'booking-before.trace.json'), join(runs, 'booking-after.trace.json'));
    assert.deepEqual(data.counts, { same: 14, added: 2, removed: 0, changed: 4, reordered: 1, nowFail: 1, nowSucceed: 0 });
    const page = await open(data);
    try {
      assert.deepEqual(await page.page.locator('.cmp-header .label').allInnerTexts(), ['booking-before.trace.json', 'booking-after.trace.json']);
      assert.equal(await page.page.textContent('.status'), '2 added · 0 removed · 4 changed · 1 now fails · 1 reordered');
      const added = data.rows.findIndex((row) => row.kind === 'added');
      assert.equal(await page.page.locator(`.cmp-row[data-row="${added}"] .cell.left.blank`).count(), 1);
      assert.match(await rowText(page, added, 'right'), /#11\s*assistant\s*get_seat_map\(flight="LX 2086", date="2025-05-14"\)/);
      const seat = data.rows.findIndex((row) => row.fields?.some((field) => field.path.endsWith('arguments.seat')));
      assert.equal(await page.page.locator(`.cmp-row[data-row="${seat}"] .cell.left mark.diff-del`).innerText(), '12A');
      assert.equal(await page.page.locator(`.cmp-row[data-row="${seat}"] .cell.right mark.diff-ins`).innerText(), '14C');
      const fails = data.rows.findIndex((row) => row.outcome === 'fails');
      assert.equal(await page.page.locator(`.cmp-row[data-row="${fails}"] .cell.right .badge.now-fails`).innerText(), 'now fails');
      assert.equal(await page.page.locator('.cmp-row.reordered').count(), 1);
      mkdirSync(resultsDir, { recursive: true });
      await page.page.screenshot({ path: join(resultsDir, 'compare-view.png') });
    } finally {
      await page.close();
    }
  });

  test('a click on a step asks for it in its file, a click on a changed field for that field; the server finds them', async () => {
    const compared = comparison(join(runs, 'booking-before.trace.json'), join(runs, 'booking-after.trace.json'));
    const data = compared.data;
    const page = await open(data);
    try {
      const seat = data.rows.findIndex((row) => row.fields?.some((field) => field.path.endsWith('arguments.seat')));
      const field = data.rows[seat].fields!.findIndex((f) => f.path.endsWith('arguments.seat'));
      await page.page.click(`.cmp-row[data-row="${seat}"] .cell.right .field[data-field="${field}"] .field-value`);
      const onField = await page.waitForPosted((message) => message.type === 'revealStep');
      assert.deepEqual(onField, { type: 'revealStep', side: 'right', step: data.rows[seat].right!.index, path: 'tool_calls.0.function.arguments.seat' });
      // Where the host's request finds it: the value "14C" in the right file, quotes included, inside its arguments string.
      const found = compared.locate('right', data.rows[seat].right!.index, 'tool_calls.0.function.arguments.seat')!;
      const { start, end } = found.selection;
      assert.equal(start.line, end.line);
      const rightText = readFileSync(join(runs, 'booking-after.trace.json'), 'utf8').split('\n')[start.line];
      assert.equal(rightText.slice(start.character, end.character), '\\"14C\\"');
      await page.clearPosted();
      await page.page.click(`.cmp-row[data-row="${seat}"] .cell.left .cell-head`);
      const onStep = await page.waitForPosted((message) => message.type === 'revealStep');
      assert.deepEqual(onStep, { type: 'revealStep', side: 'left', step: data.rows[seat].left!.index });
      assert.equal(await page.page.locator('.cmp-row.current').getAttribute('data-row'), String(seat));
      // A step selects what names it: here the call's tool name in the left file.
      const step = compared.locate('left', data.rows[seat].left!.index)!;
      const leftLines = readFileSync(join(runs, 'booking-before.trace.json'), 'utf8').split('\n');
      assert.equal(leftLines[step.selection.start.line].slice(step.selection.start.character, step.selection.end.character), '"book_flight"');
      assert.equal(leftLines[step.range.start.line].slice(step.range.start.character), '{');
      assert.equal(compared.locate('left', 10_000), null);
    } finally {
      await page.close();
    }
  });

  test('F8 visits the changes in order; search, kind and tool filters and "Changes only" narrow the rows', async () => {
    const data = compare(join(runs, 'booking-before.trace.json'), join(runs, 'booking-after.trace.json'));
    const changes = data.rows.flatMap((row, r) => (row.kind === 'same' ? [] : [r]));
    const page = await open(data);
    try {
      await page.page.locator('.cmp-scroller').focus();
      for (const expected of changes) {
        await page.page.keyboard.press('F8');
        assert.equal(await page.page.locator('.cmp-row.current').getAttribute('data-row'), String(expected));
      }
      assert.equal(await page.page.textContent('.change-counter'), `Change ${changes.length} of ${changes.length}`);
      const shownRows = () => page.page.evaluate(() => [...document.querySelectorAll('.cmp-row')].map((row) => Number((row as HTMLElement).dataset.row)).sort((a, b) => a - b));
      await page.page.click('.changes-only');
      assert.deepEqual(await shownRows(), changes);
      await page.page.click('.changes-only');
      await page.page.fill('.search', 'seat');
      await page.page.press('.search', 'Enter');
      const seatRows = data.rows.flatMap((row, r) => (JSON.stringify([row.left?.title, row.left?.summary, row.right?.summary, row.fields]).toLowerCase().includes('seat') ? [r] : []));
      assert.deepEqual(await shownRows(), seatRows);
      assert.ok((await page.page.locator('mark.match').count()) > 0, 'matches are marked');
      await page.page.fill('.search', '');
      await page.page.press('.search', 'Enter');
      await page.page.selectOption('.tool-filter', 'book_flight');
      const bookRows = data.rows.flatMap((row, r) => (row.left?.tools?.includes('book_flight') || row.right?.tools?.includes('book_flight') ? [r] : []));
      assert.deepEqual(await shownRows(), bookRows);
      await page.page.selectOption('.tool-filter', '');
      await page.page.selectOption('.kind-filter', 'user');
      assert.deepEqual(await shownRows(), [1]);
    } finally {
      await page.close();
    }
  });

  test('the call ids toggle asks the host to compare ids; a notice and a side that cannot be read show as banners', async () => {
    const data = compare(join(runs, 'booking-before.trace.json'), join(runs, 'booking-after.trace.json'));
    const page = await open(data);
    try {
      await page.page.click('.compare-ids');
      assert.deepEqual(await page.waitForPosted((message) => message.type === 'compareOptions'), { type: 'compareOptions', compareIds: true });
      const broken = runSteps(compareInSteps(side('/a.trace.json', '[{"role": "user"'), side('/b.trace.json', '[]'), settings)).data;
      await page.showCompare(broken);
      assert.match((await page.page.textContent('.banner.error'))!, /^a\.trace\.json cannot be compared: not valid JSON/);
      const limited = compare(join(runs, 'booking-before.trace.json'), join(runs, 'booking-after.trace.json'), { maxSteps: 5 });
      await page.showCompare(limited);
      assert.equal(await page.page.textContent('.banner.truncated'),
        'booking-before.trace.json has 18 steps: the first 5 are compared (agentTraces.compare.maxSteps).\nbooking-after.trace.json has 20 steps: the first 5 are compared (agentTraces.compare.maxSteps).');
    } finally {
      await page.close();
    }
  });

  test('10,000 changed steps, none folded: only the rows in and near the viewport are drawn, and scrolling replaces them', async () => {
    const events = (suffix: string) => Array.from({ length: 10_000 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `step ${i}${suffix}` }));
    const data = compareTexts(events(''), events(' (rerun)'));
    assert.equal(data.rows.length, 10_000);
    assert.equal(data.counts.changed, 10_000);
    const page = await open(data, { height: 700 });
    const drawn = () => page.page.evaluate(() => {
      const scroller = document.querySelector('.cmp-scroller') as HTMLElement;
      const rows = [...document.querySelectorAll<HTMLElement>('.cmp-row')];
      return {
        rows: rows.map((row) => Number(row.dataset.row)).sort((a, b) => a - b),
        outside: rows.filter((row) => row.offsetTop + row.offsetHeight < scroller.scrollTop - scroller.clientHeight || row.offsetTop > scroller.scrollTop + 2 * scroller.clientHeight).length,
        visible: rows.filter((row) => row.offsetTop < scroller.scrollTop + scroller.clientHeight && row.offsetTop + row.offsetHeight > scroller.scrollTop).map((row) => Number(row.dataset.row)),
        height: (document.querySelector('.cmp-canvas') as HTMLElement | null)?.offsetHeight ?? scroller.scrollHeight,
      };
    });
    try {
      const top = await drawn();
      assert.equal(top.rows[0], 0);
      assert.ok(top.rows.length > 0 && top.rows.length <= 150, `${top.rows.length} rows drawn of 10,000`);
      assert.equal(top.outside, 0, 'no row far from the viewport is drawn');
      assert.deepEqual(top.rows, top.rows.map((_, i) => i), 'the drawn rows are one run from the top');
      const dom = await page.domNodeCount();
      assert.ok(dom < 2500, `${dom} DOM nodes for 10,000 changed rows`);

      await page.page.evaluate(() => {
        const scroller = document.querySelector('.cmp-scroller') as HTMLElement;
        scroller.scrollTop = scroller.scrollHeight;
      });
      await page.page.waitForSelector('.cmp-row[data-row="9999"]');
      const bottom = await drawn();
      assert.ok(!bottom.rows.includes(0), 'the first rows are gone once scrolled past');
      assert.ok(bottom.rows.length <= 150);
      assert.equal(bottom.outside, 0);
      assert.ok(bottom.visible.includes(9999));
      assert.match(await rowText(page, 9999, 'right'), /step 9999 \(rerun\)/);
      assert.ok((await page.domNodeCount()) < 2500);

      // The middle, reached by the keyboard: Shift+F8 from the end goes back one change, and it is drawn.
      await page.page.locator('.cmp-scroller').focus();
      await page.page.keyboard.press('Shift+F8');
      const current = Number(await page.page.locator('.cmp-row.current').getAttribute('data-row'));
      assert.equal(current, 9999);
      await page.page.keyboard.press('Shift+F8');
      assert.equal(await page.page.locator('.cmp-row.current').getAttribute('data-row'), '9998');
    } finally {
      await page.close();
    }
  });

  test('100,000 steps a side: unchanged runs fold, the DOM stays bounded, a fold opens on click', async () => {
    const events = (seed: string) => Array.from({ length: 100_000 }, (_, i) => (i % 2 === 0 ? { role: 'user', content: `question ${i}${i === 60_000 ? seed : ''}` } : { role: 'assistant', content: `answer ${i}` }));
    const data = compareTexts(events(''), events(' (edited)'));
    assert.equal(data.counts.changed, 1);
    const page = await open(data, { height: 900 });
    try {
      const dom = await page.domNodeCount();
      assert.ok(dom < 3000, `${dom} DOM nodes for 100,000 rows`);
      const folds = await page.page.locator('.cmp-fold').allInnerTexts();
      assert.deepEqual(folds, ['⋯ 59,997 unchanged steps (#0–#59996 ↔ #0–#59996) ⋯', '⋯ 39,996 unchanged steps (#60004–#99999 ↔ #60004–#99999) ⋯']);
      await page.page.keyboard.press('F8');
      assert.match(await rowText(page, 60_000, 'right'), /question 60000 \(edited\)/);
      await page.page.click('.cmp-fold .unfold');
      await page.page.waitForSelector('.cmp-row[data-row="0"]');
      assert.ok((await page.domNodeCount()) < 4000);
    } finally {
      await page.close();
    }
  });
});
