// Shared by run.mjs, ui.mjs and start.mjs: the workbench address, the browser, and the offline noise filter.
import { chromium } from 'playwright-core';

import { CHROMIUM_FLAGS } from '../chromium.mjs';

export { CHROMIUM_FLAGS };

/**
 * The workbench address for a folder, with a payload of [name, absolute path] pairs
 * (paths become vscode-remote:// URIs on this server).
 */
export function workbenchUrl(server, folder, payloadPaths = []) {
  const authority = `127.0.0.1:${server.port}`;
  const payload = payloadPaths.map(([name, path]) => [name, `vscode-remote://${authority}${path}`]);
  payload.push(['skipWelcome', 'true']);
  return `${server.origin}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
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
