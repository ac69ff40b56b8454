/**
 * Loads the real preview HTML (client/src/previewHtml.ts, with its CSP) and the built dist/media files from a
 * temporary directory in headless Chromium, with a stand-in for VS Code's webview API. Nothing is served.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createNonce, previewHtml } from '../../client/src/previewHtml';
import type { CompareData, GraphData, HostToWebview, WebviewToHost } from '../../shared/protocol';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../chromium.mjs';

function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'client'))) return dir;
    if (dirname(dir) === dir) return resolve(start, '../../..');
  }
}


export const repoRoot = findRepoRoot(__dirname);
const mediaDir = join(repoRoot, 'dist', 'media');

/** Headless Debian Chromium; Playwright gives each launch a fresh temporary profile (user data dir). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}

export type Theme = 'dark' | 'light' | 'high-contrast';

/** A handful of the variables VS Code sets on a webview, with Dark+ / Light+ / High Contrast values. */
const THEME_VARIABLES: Record<Theme, Record<string, string>> = {
  dark: {
    '--vscode-editor-background': '#1e1e1e',
    '--vscode-editor-foreground': '#d4d4d4',
    '--vscode-foreground': '#cccccc',
    '--vscode-descriptionForeground': '#9d9d9d',
    '--vscode-editorWidget-background': '#252526',
    '--vscode-editorWidget-border': '#454545',
    '--vscode-focusBorder': '#007fd4',
    '--vscode-charts-blue': '#3794ff',
    '--vscode-charts-green': '#89d185',
    '--vscode-charts-orange': '#d18616',
    '--vscode-charts-purple': '#b180d7',
    '--vscode-charts-red': '#f14c4c',
    '--vscode-charts-yellow': '#cca700',
    '--vscode-errorForeground': '#f48771',
    '--vscode-editorWarning-foreground': '#cca700',
    '--vscode-input-background': '#3c3c3c',
    '--vscode-input-foreground': '#cccccc',
    '--vscode-dropdown-background': '#3c3c3c',
    '--vscode-dropdown-foreground': '#f0f0f0',
    '--vscode-button-secondaryBackground': '#3a3d41',
    '--vscode-button-secondaryForeground': '#ffffff',
    '--vscode-button-background': '#0e639c',
    '--vscode-textCodeBlock-background': '#0a0a0a66',
    '--vscode-font-family': 'system-ui, "Segoe UI", "Ubuntu", sans-serif',
    '--vscode-font-size': '13px',
    '--vscode-editor-font-family': '"Droid Sans Mono", monospace',
  },
  light: {
    '--vscode-editor-background': '#ffffff',
    '--vscode-editor-foreground': '#000000',
    '--vscode-foreground': '#616161',
    '--vscode-descriptionForeground': '#717171',
    '--vscode-editorWidget-background': '#f3f3f3',
    '--vscode-editorWidget-border': '#c8c8c8',
    '--vscode-focusBorder': '#0090f1',
    '--vscode-charts-blue': '#1a85ff',
    '--vscode-charts-green': '#388a34',
    '--vscode-charts-orange': '#d18616',
    '--vscode-charts-purple': '#652d90',
    '--vscode-charts-red': '#e51400',
    '--vscode-charts-yellow': '#bf8803',
    '--vscode-errorForeground': '#a1260d',
    '--vscode-editorWarning-foreground': '#bf8803',
    '--vscode-input-background': '#ffffff',
    '--vscode-input-foreground': '#616161',
    '--vscode-input-border': '#cecece',
    '--vscode-dropdown-background': '#ffffff',
    '--vscode-dropdown-border': '#cecece',
    '--vscode-button-secondaryBackground': '#e5e5e5',
    '--vscode-button-secondaryForeground': '#000000',
    '--vscode-button-background': '#007acc',
    '--vscode-textCodeBlock-background': '#dcdcdc66',
    '--vscode-font-family': 'system-ui, "Segoe UI", "Ubuntu", sans-serif',
    '--vscode-font-size': '13px',
    '--vscode-editor-font-family': '"Droid Sans Mono", monospace',
  },
  'high-contrast': {
    '--vscode-editor-background': '#000000',
    '--vscode-editor-foreground': '#ffffff',
    '--vscode-foreground': '#ffffff',
    '--vscode-contrastBorder': '#6fc3df',
    '--vscode-contrastActiveBorder': '#f38518',
    '--vscode-focusBorder': '#f38518',
    '--vscode-charts-blue': '#3794ff',
    '--vscode-charts-green': '#89d185',
    '--vscode-charts-orange': '#d18616',
    '--vscode-charts-purple': '#b180d7',
    '--vscode-charts-red': '#f14c4c',
    '--vscode-charts-yellow': '#ffff00',
    '--vscode-errorForeground': '#f48771',
  },
};

const BODY_CLASS: Record<Theme, string> = {
  dark: 'vscode-dark',
  light: 'vscode-light',
  'high-contrast': 'vscode-high-contrast',
};

export interface OpenOptions {
  theme?: Theme;
  width?: number;
  height?: number;
  /** What getState() returns at load, as after the webview was hidden and shown again. */
  state?: unknown;
  /** The page's view: the preview's graph (default) or the compare view. */
  view?: 'graph' | 'compare';
}

export class PreviewPage {
  readonly consoleMessages: string[] = [];
  readonly pageErrors: string[] = [];

  constructor(
    readonly page: Page,
    private readonly dir: string,
  ) {
    page.on('console', (message) => this.consoleMessages.push(`${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => this.pageErrors.push(String(error)));
  }

  /** Messages the webview posted to the extension host, in order. */
  posted(): Promise<WebviewToHost[]> {
    return this.page.evaluate(() => (window as unknown as { __posted: WebviewToHost[] }).__posted.slice());
  }

  async clearPosted(): Promise<void> {
    await this.page.evaluate(() => {
      (window as unknown as { __posted: unknown[] }).__posted.length = 0;
    });
  }

  /** Posts a message as the extension host would. */
  async send(message: HostToWebview): Promise<void> {
    await this.page.evaluate((json) => window.postMessage(JSON.parse(json), '*'), JSON.stringify(message));
  }

  /**
   * Posts a graph and waits for the webview's `rendered` answer for it; as JSON text by default, as the extension
   * host does.
   */
  async showGraph(data: GraphData, as: 'json' | 'object' = 'json'): Promise<Extract<WebviewToHost, { type: 'rendered' }>> {
    const before = (await this.posted()).filter((m) => m.type === 'rendered').length;
    await this.send(as === 'json' ? { type: 'graphJson', json: JSON.stringify(data) } : { type: 'graph', data });
    await this.page.waitForFunction(
      (count) => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'rendered').length > count,
      before,
    );
    const rendered = (await this.posted()).filter((m) => m.type === 'rendered');
    return rendered[rendered.length - 1] as Extract<WebviewToHost, { type: 'rendered' }>;
  }

  /** Posts a compare view's data as the extension host does (JSON text) and waits for its `rendered` answer. */
  async showCompare(data: CompareData): Promise<Extract<WebviewToHost, { type: 'rendered' }>> {
    const before = (await this.posted()).filter((m) => m.type === 'rendered').length;
    await this.send({ type: 'compareJson', json: JSON.stringify(data) });
    await this.page.waitForFunction(
      (count) => (window as unknown as { __posted: { type: string }[] }).__posted.filter((m) => m.type === 'rendered').length > count,
      before,
    );
    const rendered = (await this.posted()).filter((m) => m.type === 'rendered');
    return rendered[rendered.length - 1] as Extract<WebviewToHost, { type: 'rendered' }>;
  }

  /** Resolves when the webview has posted a message that `predicate` accepts; returns it. */
  async waitForPosted(predicate: (message: WebviewToHost) => boolean): Promise<WebviewToHost> {
    for (;;) {
      const found = (await this.posted()).find(predicate);
      if (found) return found;
      await this.page.waitForFunction(
        (count) => (window as unknown as { __posted: unknown[] }).__posted.length > count,
        (await this.posted()).length,
      );
    }
  }

  /** Scrolls the graph to `top` and waits until the rows for that position are drawn. */
  async scrollTo(top: number): Promise<void> {
    await this.page.evaluate((y) => {
      document.querySelector('.scroller')!.scrollTop = y;
    }, top);
    await this.page.waitForFunction(() => {
      const scroller = document.querySelector('.scroller') as HTMLElement;
      const view = scroller.getBoundingClientRect();
      return [...document.querySelectorAll('.canvas > .node')].some((node) => {
        const box = node.getBoundingClientRect();
        return box.bottom > view.top && box.top < view.bottom;
      });
    });
  }

  domNodeCount(): Promise<number> {
    return this.page.evaluate(() => document.getElementsByTagName('*').length);
  }

  async close(): Promise<void> {
    await this.page.context().close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function openPreview(browser: Browser, options: OpenOptions = {}): Promise<PreviewPage> {
  if (!existsSync(join(mediaDir, 'preview.js')) || !existsSync(join(mediaDir, 'preview.css'))) {
    throw new Error(`${mediaDir}/preview.js and preview.css are missing; run \`node esbuild.mjs\` first`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'agent-traces-webview-'));
  copyFileSync(join(mediaDir, 'preview.js'), join(dir, 'preview.js'));
  copyFileSync(join(mediaDir, 'preview.css'), join(dir, 'preview.css'));
  const html = previewHtml({
    cspSource: 'file:',
    nonce: createNonce((size) => randomBytes(size)),
    scriptUri: pathToFileURL(join(dir, 'preview.js')).href,
    styleUri: pathToFileURL(join(dir, 'preview.css')).href,
    view: options.view,
  });
  writeFileSync(join(dir, 'index.html'), html);

  const theme = options.theme ?? 'dark';
  const context = await browser.newContext({
    viewport: { width: options.width ?? 900, height: options.height ?? 700 },
    javaScriptEnabled: true,
  });
  const page = await context.newPage();
  await page.addInitScript(
    ({ state, variables, bodyClass }) => {
      const w = window as unknown as Record<string, unknown>;
      const posted: unknown[] = [];
      let saved = state;
      w.__posted = posted;
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (event) => {
        (w.__violations as string[]).push(`${event.violatedDirective} ${event.blockedURI}`);
      });
      let acquired = false;
      w.acquireVsCodeApi = () => {
        if (acquired) throw new Error('An instance of the VS Code API has already been acquired');
        acquired = true;
        return {
          postMessage: (message: unknown) => posted.push(JSON.parse(JSON.stringify(message))),
          getState: () => saved,
          setState: (value: unknown) => {
            saved = value;
            w.__state = value;
          },
        };
      };
      const applyTheme = () => {
        for (const [name, value] of Object.entries(variables)) document.documentElement.style.setProperty(name, value);
        document.body.classList.add(bodyClass);
      };
      if (document.body) applyTheme();
      else document.addEventListener('DOMContentLoaded', applyTheme, { once: true });
    },
    { state: options.state, variables: THEME_VARIABLES[theme], bodyClass: BODY_CLASS[theme] },
  );
  const preview = new PreviewPage(page, dir);
  await page.goto(pathToFileURL(join(dir, 'index.html')).href);
  await page.waitForFunction(() =>
    (window as unknown as { __posted: { type: string }[] }).__posted.some((m) => m.type === 'ready'),
  );
  return preview;
}

/** Where the preview keeps its screenshots (git-ignored). */
export const resultsDir = join(repoRoot, 'test-results');
