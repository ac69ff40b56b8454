// The user's view: drives code-server's workbench in the browser as a person would (click a file in the
// Explorer, read the squiggles and the Problems panel, hover, open the preview and read it inside its iframes)
// and keeps a screenshot of each step in test-results/.
import { join, relative } from 'node:path';
import { workbenchUrl } from './workbench.mjs';

const STEP_TIMEOUT_MS = 30_000;

/**
 * @returns {Promise<{ passed: number, failed: number }>}
 */
export async function runUiSmoke({ context, server, workspace, extensionPath, resultsDir, log, onPage = () => {} }) {
  const page = await context.newPage();
  onPage(page);
  const counts = { passed: 0, failed: 0 };
  let shotIndex = 0;
  const screenshot = async (name) => {
    const path = join(resultsDir, `ui-${String(++shotIndex).padStart(2, '0')}-${name}.png`);
    await page.screenshot({ path }).catch(() => {});
    return relative(extensionPath, path);
  };
  // Each check runs only when the ones it depends on passed; a failure keeps its screenshot.
  let blocked = false;
  const check = async (name, body) => {
    if (blocked) {
      counts.failed++;
      console.log(`[ui]   FAIL ${name} (not run: an earlier step failed)`);
      return;
    }
    const started = Date.now();
    try {
      const detail = await body();
      counts.passed++;
      console.log(`[ui]   ok   ${name} (${Date.now() - started} ms)${detail ? `: ${detail}` : ''}`);
    } catch (error) {
      counts.failed++;
      blocked = true;
      const shot = await screenshot(`failed-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
      console.log(`[ui]   FAIL ${name}: ${String(error.message).split('\n')[0]} (screenshot ${shot})`);
    }
  };

  await page.exposeFunction('codeAutomationLog', () => {});
  log(`ui: opening the workbench on ${workspace}`);
  await page.goto(workbenchUrl(server, workspace, [['extensionDevelopmentPath', extensionPath]]));

  const fileName = 'broken-fixture.trace.json';
  console.log('[ui] the workbench as a user sees it');

  await check('the Explorer lists the examples', async () => {
    await page.locator('.monaco-workbench').waitFor({ timeout: STEP_TIMEOUT_MS });
    const row = page.getByRole('treeitem', { name: new RegExp(`^${fileName.replace(/\./g, '\\.')}`) });
    await row.waitFor({ timeout: STEP_TIMEOUT_MS });
    return `${await screenshot('explorer')}`;
  });

  await check(`clicking ${fileName} opens it in an editor`, async () => {
    // The workbench restores what the suite before left open (previews among them; a panel the test runs opened,
    // which would hide the lines with the seeded faults): start from no editors and no panel.
    await runCommand(page, 'View: Close All Editor Groups');
    if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Toggle Panel Visibility');
    await page.getByRole('treeitem', { name: new RegExp(`^${fileName.replace(/\./g, '\\.')}`) }).click();
    await page.locator('.tabs-container .tab', { hasText: fileName }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.locator('.editor-instance .monaco-editor .view-lines').waitFor({ timeout: STEP_TIMEOUT_MS });
  });

  await check('the seeded faults are underlined', async () => {
    const squiggles = page.locator('.editor-instance .monaco-editor .squiggly-error');
    await squiggles.first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const count = await squiggles.count();
    if (count < 1) throw new Error('no error squiggle');
    return `${count} error squiggle(s), ${await screenshot('squiggles')}`;
  });

  await check('hovering a squiggle shows the problem', async () => {
    const squiggle = page.locator('.editor-instance .monaco-editor .squiggly-error').first();
    const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: /call_lookup_9/ }).first();
    // Code lenses and inlay hints arriving after the first aim move the text under a resting mouse: aim again at
    // the squiggle's current place until its hover shows, within the step's limit.
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      const box = await squiggle.boundingBox();
      if (!box) throw new Error('the squiggle has no box');
      await page.mouse.move(5, 5);
      await page.mouse.move(box.x + Math.min(box.width / 2, 20), box.y + box.height / 2);
      const shown = await hover.waitFor({ state: 'visible', timeout: Math.min(5_000, Math.max(1, deadline - Date.now())) }).then(() => true, () => false);
      if (shown) break;
      if (Date.now() >= deadline) throw new Error(`no hover for the squiggle within ${STEP_TIMEOUT_MS} ms`);
    }
    const text = (await hover.innerText()).replace(/\s+/g, ' ').trim();
    await screenshot('hover');
    await page.mouse.move(5, 5);
    return JSON.stringify(text.slice(0, 120));
  });

  await check('the Problems panel lists one row per seeded fault', async () => {
    await runCommand(page, 'View: Focus Problems');
    const panel = page.locator('.markers-panel');
    await panel.waitFor({ timeout: STEP_TIMEOUT_MS });
    const codes = ['trace/unknown-call-id', 'trace/duplicate-call-id', 'trace/arguments-json', 'trace/missing-role', 'trace/unanswered-call'];
    for (const code of codes) {
      await panel.locator('.monaco-list-row', { hasText: code }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    }
    const rows = await panel.locator('.monaco-list-row').allInnerTexts();
    const problemRows = rows.filter((row) => /trace\//.test(row));
    if (problemRows.length !== codes.length) {
      throw new Error(`expected ${codes.length} problem rows, saw ${problemRows.length}: ${problemRows.map((r) => r.replace(/\s+/g, ' ')).join(' | ')}`);
    }
    const unknown = problemRows.find((row) => row.includes('trace/unknown-call-id')) ?? '';
    if (!/\[Ln 27, Col 21\]/.test(unknown)) throw new Error(`the unknown call id row gives its place as [Ln 27, Col 21]: ${unknown.replace(/\s+/g, ' ')}`);
    return `${problemRows.length} rows, ${await screenshot('problems')}`;
  });

  await check('the preview shows the trace inside its webview', async () => {
    await page.locator('.tabs-container .tab', { hasText: fileName }).click();
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await runCommand(page, 'Agent Traces: Open Preview');
    // 13 events and 5 calls, and the file's five problems (four errors, one information); the view draws only what is on screen, so check the first events and the counts.
    const expected = ['18 nodes', '5 problems', '#0 user', 'lookup_order(order_id=1042)', '#3 tool ← "call_lookup_9"'];
    await webviewContentFrame(page, expected);
    return `${await screenshot('preview')}`;
  });

  await check('inlay hints name each call\'s tool and answers, and the lightbulb offers the fix at a reused call id', async () => {
    await runCommand(page, 'View: Close All Editor Groups');
    await page.getByRole('treeitem', { name: new RegExp(`^${fileName.replace(/\./g, '\\.')}`) }).click();
    await page.locator('.tabs-container .tab', { hasText: fileName }).waitFor({ timeout: STEP_TIMEOUT_MS });
    // The Problems panel left open by an earlier step would cover half the editor.
    if (await page.locator('.markers-panel').isVisible()) await runCommand(page, 'View: Toggle Panel Visibility');
    // Sticky scroll would pin the enclosing events over the top lines of the screenshot.
    await runCommand(page, 'Toggle Editor Sticky Scroll');
    // The second "call_policy_2" (line 54, column 15) reuses the id of the call on line 35.
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill(':54:16');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
    const hints = ['← get_refund_policy #4', '→ #7'];
    // Monaco draws spaces as no-break spaces.
    const lines = () => document.querySelector('.editor-instance .monaco-editor .view-lines')?.textContent?.replace(/\u00a0/g, ' ') ?? '';
    await page.waitForFunction((list) => {
      const text = document.querySelector('.editor-instance .monaco-editor .view-lines')?.textContent?.replace(/\u00a0/g, ' ') ?? '';
      return list.every((t) => text.includes(t));
    }, hints, { timeout: STEP_TIMEOUT_MS })
      .catch(async () => {
        const shown = await page.evaluate(lines).catch(() => '');
        throw new Error(`the editor shows no inlay hints ${JSON.stringify(hints)}: ${JSON.stringify(shown.slice(0, 300))}`);
      });
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'Give this call the id "call_policy_2_2" and its output' }).first();
    // Asked before the editor has the file's diagnostics, the menu has nothing to offer and closes: ask again, as a
    // user would, until the fix shows or the step's limit passes.
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      await page.keyboard.press('Control+.');
      const shown = await fix.waitFor({ timeout: 3_000 }).then(() => true, () => false);
      if (shown) break;
      if (Date.now() > deadline) throw new Error('the lightbulb menu never offered the fix for the reused call id');
      await page.keyboard.press('Escape');
    }
    const box = await page.locator('.editor-instance').first().boundingBox();
    const path = join(resultsDir, 'ui-inlay-hints-quick-fix.png');
    await page.screenshot({ path, clip: box ? { x: box.x, y: box.y, width: Math.min(box.width, 980), height: Math.min(box.height, 560) } : undefined });
    await page.keyboard.press('Escape');
    return relative(extensionPath, path);
  });

  await check('a rule file beside a trace underlines its violation and counts it in a code lens', async () => {
    await runCommand(page, 'View: Close All Editor Groups');
    const row = (name) => page.getByRole('treeitem', { name: new RegExp(`^${name.replace(/\./g, '\\.')}`) });
    await row('inbox-assistant.trace.json').click();
    await page.locator('.tabs-container .tab', { hasText: 'inbox-assistant.trace.json' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    // The violation is in the final answer (line 54): bring it on screen, then open the rule in a group beside it.
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill(':54');
    await page.keyboard.press('Enter');
    await runCommand(page, 'View: Split Editor Right');
    // The Explorer may show the rules folder collapsed (it keeps whatever state the workbench restored).
    const rulesFolder = page.getByRole('treeitem', { name: /^rules$/ });
    if ((await rulesFolder.getAttribute('aria-expanded')) === 'false') await rulesFolder.click();
    await row('private-mail.gr').click();
    await page.locator('.tabs-container .tab', { hasText: 'private-mail.gr' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.locator('.editor-instance .monaco-editor .squiggly-warning').first().waitFor({ timeout: STEP_TIMEOUT_MS });
    // The lens counts the open trace and the workspace's other trace files (the examples hold more payroll answers).
    const lens = page.locator('.monaco-editor .codelens-decoration', { hasText: /\d+ violations? in \d+ traces? \(of 1 open trace file/ }).first();
    await lens.waitFor({ timeout: STEP_TIMEOUT_MS });
    return `${JSON.stringify((await lens.innerText()).trim())}, ${await screenshot('rule-beside-trace')}`;
  });

  await check('two runs selected in the Explorer compare step by step, and a click on a changed field selects it in its file', async () => {
    await runCommand(page, 'View: Close All Editor Groups');
    if (await page.locator('.markers-panel').isVisible()) await runCommand(page, 'View: Toggle Panel Visibility');
    const row = (name) => page.getByRole('treeitem', { name: new RegExp(`^${name.replace(/\./g, '\\.')}`) });
    const runsFolder = page.getByRole('treeitem', { name: /^runs$/ });
    if ((await runsFolder.getAttribute('aria-expanded')) === 'false') await runsFolder.click();
    await row('booking-before.trace.json').click();
    await row('booking-after.trace.json').click({ modifiers: ['Control'] });
    await row('booking-after.trace.json').click({ button: 'right' });
    // A menu just opened may let the first click through unheard: click again until it closes, within the step's limit.
    const item = page.locator('.monaco-menu .action-label', { hasText: 'Compare Traces…' }).first();
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      await item.hover();
      await item.click();
      if (await item.waitFor({ state: 'hidden', timeout: 3_000 }).then(() => true, () => false)) break;
      if (Date.now() > deadline) throw new Error('the context menu never ran "Compare Traces…"');
    }
    const frame = await webviewContentFrame(page, ['booking-before.trace.json', 'booking-after.trace.json', '2 added · 0 removed · 4 changed · 1 now fails']);
    // The view across the whole window for its screenshot (the README's), then the Explorer back.
    await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
    await frame.locator('.cmp-row.row-added').first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const shot = await screenshot('compare');
    await runCommand(page, 'View: Toggle Primary Side Bar Visibility');
    await frame.locator('.cmp-row.row-changed .cell.right .field', { hasText: 'arguments.seat' }).first().click();
    // The field's value, `\"14C\"` inside the call's arguments string (columns 87-93, the cursor after it), is selected in the right file.
    // The file's tab, not the compare view's (active in its own group, its title naming both files).
    await page.locator('.tabs-container .tab.active', { hasText: 'booking-after.trace.json', hasNotText: '↔' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    const position = page.locator('.statusbar-item', { hasText: /Ln 116, Col 94 \(7 selected\)/ });
    await position.waitFor({ timeout: STEP_TIMEOUT_MS }).catch(async () => {
      throw new Error(`the status bar does not show the field selected: ${JSON.stringify(await page.locator('.statusbar').innerText())}`);
    });
    return `${shot}, ${await screenshot('compare-click')}`;
  });

  await check('the getting-started walkthrough lists its steps, and its first button opens the example trace', async () => {
    const walkthrough = await openWalkthrough(page);
    const steps = ['Open an example trace', 'See the run as a graph', 'Check it with a rule', 'Test your rules', 'Check traces from the command line'];
    for (const step of steps) await walkthrough.locator('.getting-started-step', { hasText: step }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const shot = await screenshot('walkthrough');
    await walkthrough.getByRole('button', { name: 'Open Example Trace' }).first().click();
    await page.locator('.tabs-container .tab', { hasText: 'inbox-assistant.trace.json' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    return `${steps.length} steps, ${shot}`;
  });

  await check('the walkthrough\'s test step runs the example rule\'s tests, and the Testing view shows them passed', async () => {
    let walkthrough = page.locator('.gettingStartedContainer');
    if (!(await walkthrough.isVisible())) walkthrough = await openWalkthrough(page);
    await walkthrough.locator('.getting-started-step', { hasText: 'Test your rules' }).first().click();
    await walkthrough.getByRole('button', { name: 'Run the Example Rule\'s Tests' }).first().click();
    await page.locator('.tabs-container .tab', { hasText: 'refunds.tests.json' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    // The Testing view opens beside, its summary counting the run's four cases, the rule file's item named by its
    // name (the copy is outside the workspace: no path relative to it).
    // (The Explorer, hidden behind it, holds a refunds.gr too: only what is shown counts.)
    await page.getByText('4/4', { exact: true }).filter({ visible: true }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.getByRole('treeitem').filter({ visible: true, hasText: /^refunds\.gr/ }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const shot = await screenshot('walkthrough-rule-tests');
    await runCommand(page, 'View: Show Explorer');
    return shot;
  });

  await check('the rule tests run in the Test Explorer, and the rule file shows the cases each rule fired in', async () => {
    await runCommand(page, 'View: Close All Editor Groups');
    if (await page.locator('.markers-panel').isVisible()) await runCommand(page, 'View: Toggle Panel Visibility');
    const rulesFolder = page.getByRole('treeitem', { name: /^rules$/ });
    if ((await rulesFolder.getAttribute('aria-expanded')) === 'false') await rulesFolder.click();
    // The Testing view, hidden behind the Explorer, lists a refunds.gr too (the walkthrough's copy): the Explorer's.
    await page.getByRole('treeitem', { name: /^refunds\.gr/ }).filter({ visible: true }).first().click();
    await page.locator('.tabs-container .tab', { hasText: 'refunds.gr' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await runCommand(page, 'Testing: Focus on Test Explorer View');
    await runCommand(page, 'Test: Run All Tests');
    // The tree shows the rule file with its manifest and cases; each case gets its result icon.
    const tree = page.locator('.test-explorer');
    const cases = ['a refund over the limit without approval is caught', 'an approved refund passes', 'a refund above the order total is caught, below the limit', 'a lower limit catches a small refund'];
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      // Wait until every case shows its pass, or an item is still collapsed (opened as a user clicks it open).
      const state = await page.waitForFunction((names) => {
        const rows = [...document.querySelectorAll('.test-explorer .monaco-list-row')];
        if (names.every((name) => rows.some((row) => row.textContent.includes(name) && row.querySelector('.codicon-testing-passed-icon')))) return 'passed';
        return rows.some((row) => row.getAttribute('aria-expanded') === 'false') ? 'collapsed' : false;
      }, cases, { timeout: Math.max(1, deadline - Date.now()) }).then((handle) => handle.jsonValue(), async () => {
        throw new Error(`the Test Explorer does not show every case passed: ${JSON.stringify(await tree.innerText())}`);
      });
      if (state === 'passed') break;
      await tree.locator('.monaco-list-row[aria-expanded="false"] .monaco-tl-twistie').first().click();
    }
    // After the run, the rule file's lenses count the cases each rule fired in.
    await page.locator('.monaco-editor .codelens-decoration', { hasText: /Tests: fired in 2 of 4 cases/ }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    // The README's screenshot: the tests beside the rule file, without the Test Results panel the run opened.
    if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'View: Toggle Panel Visibility');
    await page.locator('.part.panel').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
    const path = join(resultsDir, 'ui-rule-tests.png');
    await page.screenshot({ path });
    // The Explorer back in the side bar, for the steps after this one.
    await runCommand(page, 'View: Show Explorer');
    return relative(extensionPath, path);
  });

  await check('a Claude Code session opens as a conversation and draws in the preview beside it', async () => {
    await runCommand(page, 'View: Close All Editor Groups');
    const sessions = page.getByRole('treeitem', { name: /^sessions$/ });
    if ((await sessions.getAttribute('aria-expanded')) === 'false') await sessions.click();
    await page.getByRole('treeitem', { name: /^fix-checkout\.jsonl/ }).click();
    await page.locator('.tabs-container .tab', { hasText: 'fix-checkout.jsonl' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
    await runCommand(page, 'Agent Traces: Open Preview to the Side');
    await webviewContentFrame(page, ['The checkout tests fail since yesterday', 'Bash: npm test -- checkout', 'Commit it.']);
    // The README's screenshot: the session's text beside its graph.
    const path = join(resultsDir, 'ui-session-preview.png');
    await page.screenshot({ path });
    return path;
  });

  await page.close().catch(() => {});
  console.log(`[ui] ${counts.passed} passing, ${counts.failed} failing`);
  return counts;
}

/**
 * The frame holding the extension's page: a webview is an iframe (VS Code's host page) holding another iframe
 * with the extension's HTML. Its name and id change as it loads, so it is found by that nesting; with `showing`,
 * the one whose text holds every string of it (another preview may be open too).
 */
async function webviewContentFrame(page, showing = []) {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let seen = '';
  for (;;) {
    const inner = page.frames().filter((frame) => {
      const parent = frame.parentFrame();
      return /\/webview\//.test(frame.url()) && parent && /\/webview\//.test(parent.url());
    });
    for (const frame of inner) {
      const text = await frame.evaluate(() => ((document.body?.childElementCount ?? 0) > 0 ? document.body.innerText : undefined)).catch(() => undefined);
      if (text === undefined) continue;
      if (showing.every((expected) => text.includes(expected))) return frame;
      seen = text;
    }
    if (Date.now() > deadline) {
      if (seen) throw new Error(`the preview does not show ${JSON.stringify(showing.filter((t) => !seen.includes(t)))}; it shows: ${JSON.stringify(seen.slice(0, 400))}`);
      throw new Error(`no webview content frame; frames: ${page.frames().map((f) => f.url().slice(0, 80)).join(' | ')}`);
    }
    await page.waitForEvent('framenavigated', { timeout: 250 }).catch(() => {});
  }
}

/** Runs a command through the command palette, as a user would. */
async function runCommand(page, label) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: STEP_TIMEOUT_MS });
  await input.fill(`>${label}`);
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ timeout: STEP_TIMEOUT_MS });
  await row.click();
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT_MS });
}

/** Opens our getting-started walkthrough from the command palette, in an empty editor area, and returns its page. */
async function openWalkthrough(page) {
  await runCommand(page, 'View: Close All Editor Groups');
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: STEP_TIMEOUT_MS });
  await input.fill('>Welcome: Open Walkthrough');
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Welcome: Open Walkthrough' }).first().click();
  // The next pick lists every walkthrough: ours by its title.
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Get Started with Agent Traces' }).first().click();
  return page.locator('.gettingStartedContainer');
}
