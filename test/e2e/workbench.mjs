// Shared by run.mjs, ui.mjs and start.mjs: the workbench address, the browser, and the offline noise filter.
import { chromium } from 'playwright-core';

import { CHROMIUM_FLAGS } from '../chromium.mjs';

export { CHROMIUM_FLAGS };

/**
 * The workbench address for a folder (or a `.code-workspace` file: a multi-root workspace), with a payload of [name, absolute path] pairs
 * (paths become vscode-remote:// URIs on this server) and [name, value] pairs passed as they are.
 */
export function workbenchUrl(server, folder, payloadPaths = [], payloadValues = []) {
  const authority = `127.0.0.1:${server.port}`;
  const payload = payloadPaths.map(([name, path]) => [name, `vscode-remote://${authority}${path}`]);
  payload.push(...payloadValues, ['skipWelcome', 'true']);
  const opened = folder.endsWith('.code-workspace') ? 'workspace' : 'folder';
  return `${server.origin}/?${opened}=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export async function launchBrowser(executablePath, { viewport = { width: 1400, height: 900 } } = {}) {
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: CHROMIUM_FLAGS,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const context = await browser.newContext({ viewport });
  return {
    browser,
    context,
    process: browser.process?.() ?? undefined,
    close: () => browser.close().catch(() => {}),
  };
}

// What an offline workbench logs that says nothing about the extension under test.
const NOISE = [
  /github/i,
  /authentication/i,
  /marketplace|gallery|extensions?\.gallery|vscode-unpkg|open-vsx|openvsx/i,
  /\bchat\b|copilot|languageModel|mcp/i,
  /ENOTFOUND|ECONNREFUSED|EAI_AGAIN|getaddrinfo|net::ERR_|Failed to fetch/i,
  /update\.code\.visualstudio|default\.exp-tas|telemetry|experiment/i,
  /Settings Sync|userDataSync/i,
  /ExtensionHostStarter|Started local extension host|Extension host .* started/i,
  /\[Extension Host\] (debugger|Debugger) /,
  /service worker/i,
  /^(Resolving connection token|Resolved connection token|Creating a socket|Updating additional builtin extensions cache)/,
  /\[DefaultAccount\]/,
  /^Creation of workbench contribution '[^']*' took \d+ms/,
  /^Canceled(: Canceled)+\n\s+at /, // the extension host stopping once the tests are done
  /\[reconnection-grace-time\]|\[AgentHost:|\[(AgentHost|AccountPolicyGate|ChatModelSelection|ChatSessions?|LanguageModels?)\]/,
];

export function isOfflineNoise(text) {
  return NOISE.some((pattern) => pattern.test(text));
}

/** codeAutomationLog hands over the console call's arguments; render them as one string. */
export function formatLogArgs(args) {
  const list = Array.isArray(args) ? args : [args];
  return list
    .map((value) => {
      if (typeof value === 'string') return value;
      try {
        return JSON.stringify(value);
      } catch {
        return String(value);
      }
    })
    .join(' ');
}

/**
 * Opens the workbench at `url` (whose payload names the extension tests) in a new page of `context` and resolves
 * once the tests report their exit code through `codeAutomationExit`. Prints the extension host's console output,
 * filtered of offline noise, and collects the JSON of every `<MARKER> {...}` line named in `markers` (the last of
 * each): `E2E_RESULT` carries the suite's counts. `onPage` receives the page, for a screenshot on timeout.
 * @returns {Promise<{ exitCode: number, reported: Record<string, any> }>}
 */
export async function runExtensionTests(context, url, { verbose = false, markers = ['E2E_RESULT'], onPage = () => {} } = {}) {
  const page = await context.newPage();
  onPage(page);
  const reported = {};
  let resolveExit;
  const exited = new Promise((resolvePromise) => (resolveExit = resolvePromise));

  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = formatLogArgs(args);
    for (const marker of markers) {
      const at = text.indexOf(`${marker} `);
      if (at < 0) continue;
      try {
        reported[marker] = JSON.parse(text.slice(at + marker.length + 1));
      } catch {
        // a malformed marker leaves the result unknown, which the caller counts as a failure
      }
      return;
    }
    if (!text.includes('[suite]') && isOfflineNoise(text)) {
      if (verbose) console.log(`[noise] ${text}`);
      return;
    }
    const prefix = type === 'error' ? '[vscode:error] ' : type === 'warn' ? '[vscode:warn] ' : '';
    for (const line of text.split('\n')) console.log(`${prefix}${line}`);
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  await page.goto(url);
  const exitCode = await exited;
  await page.close().catch(() => {});
  return { exitCode, reported };
}
