// The extension for VS Code for the Web, beside the Node one: bundle sizes (a production build, raw and gzipped,
// as a browser downloads them) and cold start in a real VS Code: a 1 MB trace, open → diagnostics, with the
// language server in the browser's web worker against the Node server, measured in the same run.
//
// Each round opens a fresh window (a new extension host, a new browser context with an empty HTTP cache) on a new
// folder of generated traces in code-server, once with the extension in the web worker (its browser entry, the
// server a web worker) and once in the Node extension host (its main entry, the server a Node process), in turn.
// Inside, test/web/bench/coldOpen.ts times openTextDocument → the first onDidChangeDiagnostics whose diagnostics
// hold the fault seeded into the file: the first file activates the extension (cold), the next ones are warm.
//
// The language servers alone, without VS Code: the browser's server bundle (dist/web/server.js) started as VS Code for
// the Web starts it, a Worker from a blob: URL, in headless Chromium, spoken to with postMessage, against the Node
// server (dist/server.js) started as a process and spoken to over stdio; cold is from starting the worker or the
// process to the first publishDiagnostics of the first 1 MB trace opened that holds the seeded fault (initialize and
// didOpen between), warm the same for another 1 MB trace after it.
//
// Usage: node bench/web.bench.mjs (after node esbuild.mjs; npm run bench -- web)   WEB_BENCH_ROUNDS (default 3)
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { killGroup } from '../test/e2e/codeServer.mjs';
import { installedTools, repoRoot } from '../test/e2e/install.mjs';
import { launchBrowser } from '../test/e2e/workbench.mjs';
import { manifest, runInHost, startHost } from '../test/web/webHost.mjs';

const rounds = Number(process.env.WEB_BENCH_ROUNDS ?? 3);
const traceBytes = 1024 * 1024;
const coldOpenModule = join(repoRoot, 'out', 'test', 'web', 'bench', 'coldOpen.js');
const runDir = mkdtempSync(join(tmpdir(), 'agent-traces-web-bench-'));
const pids = [];
process.on('exit', () => {
  for (const pid of pids) killGroup(pid, 'SIGKILL');
  rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
});

const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A production build (minified, as the VSIX ships) of a copy of the sources, so dist/ stays as it is. */
function bundleSizes() {
  const copy = join(runDir, 'production-build');
  mkdirSync(copy);
  for (const entry of ['client', 'server', 'shared', 'esbuild.mjs', 'package.json']) {
    if (existsSync(join(repoRoot, entry))) cpSync(join(repoRoot, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(repoRoot, 'node_modules'), join(copy, 'node_modules'));
  const build = spawnSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: copy, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the production build failed');
  const dist = join(copy, 'dist');
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.js')) files.push(path);
    }
  };
  walk(dist);
  const web = new Set(manifest.browser ? readdirSync(join(dist, 'web')).map((name) => join(dist, 'web', name)) : []);
  console.log('\nBundle sizes (production build; gzip -9 is about what a browser downloads):');
  console.log('| bundle | runs in | size | gzipped |');
  console.log('|---|---|---|---|');
  const total = { node: [0, 0], web: [0, 0] };
  for (const file of files.sort()) {
    const bytes = readFileSync(file);
    const gzipped = gzipSync(bytes, { level: 9 }).length;
    const name = relative(copy, file);
    const where = web.has(file) ? 'web' : name === 'dist/media/preview.js' ? 'webview (both)' : name === 'dist/cli.js' ? 'command line' : 'node';
    if (where === 'web' || where === 'node') {
      total[where][0] += bytes.length;
      total[where][1] += gzipped;
    }
    console.log(`| ${name} | ${where} | ${kb(bytes.length)} | ${kb(gzipped)} |`);
  }
  console.log(`| all the Node extension's bundles (client, server, workers) | node | ${kb(total.node[0])} | ${kb(total.node[1])} |`);
  if (manifest.browser) console.log(`| all the web extension's bundles | web | ${kb(total.web[0])} | ${kb(total.web[1])} |`);
  return copy;
}

/**
 * The production build made a whole extension folder, as the VSIX installs it (its other files linked), with the
 * cold-open test module inside it (a tests module outside the extension's folder would run in the Node host).
 */
function productionExtension(copy) {
  const own = new Set(['client', 'server', 'shared', 'esbuild.mjs', 'package.json', 'node_modules', 'dist', 'out', '.git', '.cache', 'test-results']);
  for (const entry of readdirSync(repoRoot)) {
    if (!own.has(entry) && !existsSync(join(copy, entry))) symlinkSync(join(repoRoot, entry), join(copy, entry));
  }
  const module = join(copy, relative(repoRoot, coldOpenModule));
  mkdirSync(join(module, '..'), { recursive: true });
  cpSync(coldOpenModule, module);
  return { extensionPath: copy, testsModule: module };
}

/** A 1 MB trace with one output answering a call id that does not exist (the seeded fault). */
function seededTrace(seed) {
  const require = createRequire(import.meta.url);
  const { generateTrace } = require(join(repoRoot, 'out', 'bench', 'generateTrace.js'));
  const text = generateTrace(traceBytes, seed, { outputLines: [10, 30] });
  const at = text.lastIndexOf('"tool_call_id": "');
  return `${text.slice(0, at)}"tool_call_id": "call_that_never_was", "was": "${text.slice(at + '"tool_call_id": "'.length)}`;
}

/** A folder of three such traces: the first opened cold, the others warm. */
function traceFolder(name) {
  const folder = join(runDir, name);
  mkdirSync(folder);
  for (const [index, file] of ['a-cold', 'b-warm', 'c-warm'].entries()) writeFileSync(join(folder, `${file}.trace.json`), seededTrace(index + 1));
  return folder;
}

/** Diagnostics that hold the seeded fault come from a finished check, not an early partial publication. */
const SEEDED_CODE = 'trace/unknown-call-id';

const INITIALIZE = {
  processId: null, rootUri: null, workspaceFolders: null,
  capabilities: { workspace: { configuration: true }, textDocument: { publishDiagnostics: { versionSupport: true } } },
};

/** The Node server over stdio: ms from spawning it to the first diagnostics of `cold`, then of `warm`. */
async function nodeServerOpens(cold, warm) {
  const started = performance.now();
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
  pids.push(child.pid);
  const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const published = new Map();
  const waiters = new Map();
  connection.onNotification('textDocument/publishDiagnostics', (params) => {
    if (published.has(params.uri) || !params.diagnostics.some((d) => d.code === SEEDED_CODE)) return;
    published.set(params.uri, performance.now());
    waiters.get(params.uri)?.();
  });
  connection.onRequest('workspace/configuration', (params) => params.items.map(() => null));
  connection.onRequest(() => null);
  connection.listen();
  const open = (uri, text) => {
    const done = new Promise((resolveOpen) => waiters.set(uri, resolveOpen));
    void connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'agent-trace', version: 1, text } });
    return done;
  };
  await connection.sendRequest('initialize', INITIALIZE);
  await connection.sendNotification('initialized', {});
  await open('file:///bench/cold.trace.json', cold);
  const coldMs = published.get('file:///bench/cold.trace.json') - started;
  const warmStarted = performance.now();
  await open('file:///bench/warm.trace.json', warm);
  const warmMs = published.get('file:///bench/warm.trace.json') - warmStarted;
  connection.dispose();
  child.kill();
  return { coldMs, warmMs };
}

/** The browser's server in a Worker made from a blob: URL of its bundle, in a page of headless Chromium: the same. */
async function webWorkerOpens(context, bundle, cold, warm) {
  const page = await context.newPage();
  try {
    return await page.evaluate(async ({ bundle, cold, warm, initialize, seededCode }) => {
      const started = performance.now();
      const worker = new Worker(URL.createObjectURL(new Blob([bundle], { type: 'text/javascript' })));
      let nextId = 1;
      const answers = new Map();
      const published = new Map();
      const waiters = new Map();
      worker.onmessage = ({ data }) => {
        if (data.method === 'textDocument/publishDiagnostics') {
          if (published.has(data.params.uri) || !data.params.diagnostics.some((d) => d.code === seededCode)) return;
          published.set(data.params.uri, performance.now());
          waiters.get(data.params.uri)?.();
        } else if (data.method && data.id !== undefined) {
          const result = data.method === 'workspace/configuration' ? data.params.items.map(() => null) : null;
          worker.postMessage({ jsonrpc: '2.0', id: data.id, result });
        } else if (data.id !== undefined) {
          answers.get(data.id)?.(data);
        }
      };
      const request = (method, params) => new Promise((resolveAnswer) => {
        const id = nextId++;
        answers.set(id, resolveAnswer);
        worker.postMessage({ jsonrpc: '2.0', id, method, params });
      });
      const notify = (method, params) => worker.postMessage({ jsonrpc: '2.0', method, params });
      const open = (uri, text) => {
        const done = new Promise((resolveOpen) => waiters.set(uri, resolveOpen));
        notify('textDocument/didOpen', { textDocument: { uri, languageId: 'agent-trace', version: 1, text } });
        return done;
      };
      await request('initialize', initialize);
      notify('initialized', {});
      await open('file:///bench/cold.trace.json', cold);
      const coldMs = published.get('file:///bench/cold.trace.json') - started;
      const warmStarted = performance.now();
      await open('file:///bench/warm.trace.json', warm);
      const warmMs = published.get('file:///bench/warm.trace.json') - warmStarted;
      worker.terminate();
      return { coldMs, warmMs };
    }, { bundle, cold, warm, initialize: INITIALIZE, seededCode: SEEDED_CODE });
  } finally {
    await page.close();
  }
}

async function serversAlone() {
  const tools = installedTools();
  const webBundle = join(repoRoot, 'dist', 'web', 'server.js');
  if (!tools || !existsSync(webBundle)) {
    console.log('\nServers alone: skipped, no Chromium or no dist/web/server.js');
    return;
  }
  const bundle = readFileSync(webBundle, 'utf8');
  const [cold, warm] = [seededTrace(11), seededTrace(12)];
  const browser = await launchBrowser(tools.chromium);
  const results = { web: [], node: [] };
  const serverRounds = rounds * 2 + 1;
  try {
    for (let round = 1; round <= serverRounds; round++) {
      for (const kind of round % 2 ? ['web', 'node'] : ['node', 'web']) {
        const limit = setTimeout(() => {
          console.error(`[web bench] the ${kind} server did not publish diagnostics within 120 s`);
          process.exit(1);
        }, 120_000);
        const context = await browser.browser.newContext();
        const result = kind === 'web' ? await webWorkerOpens(context, bundle, cold, warm) : await nodeServerOpens(cold, warm);
        await context.close();
        clearTimeout(limit);
        results[kind].push(result);
      }
    }
  } finally {
    await browser.close();
  }
  const row = (label, pick) => {
    const web = median(results.web.map(pick));
    const node = median(results.node.map(pick));
    console.log(`| ${label} | ${node.toFixed(0)} | ${web.toFixed(0)} | ${(web / node).toFixed(2)}× |`);
  };
  console.log(`\nThe servers alone, a 1 MB trace, open → diagnostics (median of ${serverRounds} fresh servers each, ms):`);
  console.log('| | Node server (process, stdio) | web worker (Chromium, blob: URL) | web ÷ Node |');
  console.log('|---|---|---|---|');
  row('cold: start, initialize, open, read and check', (r) => r.coldMs);
  row('warm: the next 1 MB trace', (r) => r.warmMs);
}

async function coldStart(extension) {
  const tools = installedTools();
  if (!tools) {
    console.log('\nCold start: skipped, code-server is not installed (npm run setup)');
    return;
  }
  if (!manifest.browser) {
    console.log('\nCold start: skipped, no browser entry in package.json');
    return;
  }
  const servers = {};
  for (const kind of ['web', 'node']) {
    servers[kind] = await startHost(tools, kind, { runDir: join(runDir, `code-server-${kind}`) });
    pids.push(servers[kind].process.pid);
  }
  const browser = await launchBrowser(tools.chromium);
  const results = { web: [], node: [] };
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const kind of round % 2 ? ['web', 'node'] : ['node', 'web']) {
        const context = await browser.browser.newContext({ viewport: { width: 1400, height: 900 } });
        const folder = traceFolder(`round-${round}-${kind}`);
        const limit = setTimeout(() => {
          console.error(`[web bench] round ${round} in the ${kind} host did not finish within 300 s`);
          process.exit(1);
        }, 300_000);
        const { exitCode, reported } = await runInHost(context, servers[kind], kind, folder, extension.testsModule, { markers: ['WEB_BENCH'], extensionPath: extension.extensionPath });
        clearTimeout(limit);
        await context.close();
        const result = reported.WEB_BENCH;
        if (exitCode !== 0 || !result) throw new Error(`round ${round} in the ${kind} host failed (exit ${exitCode})`);
        if (result.host !== kind) throw new Error(`round ${round} ran in the ${result.host} host (wanted ${kind})`);
        if (result.activeBefore) {
          // Then the traces were opened before the test's clock started: not a cold open, left out of the medians.
          console.log(`round ${round}, ${kind}: left out, the extension was active before the first open (documents open: ${result.documentsBefore.length})`);
        } else {
          results[kind].push(result);
          const steps = Object.entries(result.steps ?? {}).map(([mark, ms]) => `${mark} ${ms.toFixed(0)}`).join(', ');
          console.log(`round ${round}, ${kind}: cold ${result.coldMs.toFixed(0)} ms (${steps} ms after the open), warm ${result.warmMs.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
        }
      }
    }
  } finally {
    await browser.close();
    for (const server of Object.values(servers)) await server.stop();
  }
  const row = (label, pick) => {
    const web = median(results.web.map(pick));
    const node = median(results.node.map(pick));
    console.log(`| ${label} | ${node.toFixed(0)} | ${web.toFixed(0)} | ${(web / node).toFixed(2)}× |`);
  };
  if (results.web.length === 0 || results.node.length === 0) throw new Error('no round of one of the hosts counted');
  console.log(`\nCold start in code-server, the production build, a 1 MB trace, open → diagnostics (median of ${results.node.length} / ${results.web.length} fresh windows, Node / web, ms):`);
  console.log('| | Node server (Node extension host) | web worker (web extension host) | web ÷ Node |');
  console.log('|---|---|---|---|');
  row('first trace: activation, server start, read and check (cold)', (r) => r.coldMs);
  // Where the cold open's time goes, from the extension's activation marks (ms after the open was asked for).
  const step = (mark) => (r) => r.steps?.[mark] ?? NaN;
  row('… the extension\'s activation begins', step('activate'));
  row('… the language server answered initialize', step('clientStarted'));
  row('… then the first trace read and checked', (r) => r.coldMs - (r.steps?.clientStarted ?? NaN));
  const web = (mark) => median(results.web.map(step(mark))).toFixed(0);
  console.log(`(web worker: the server's bundle read ${web('serverBundleRead')} ms and its worker made ${web('serverStarted')} ms after the open)`);
  row('next traces of the same size (warm)', (r) => median(r.warmMs));
}

const production = bundleSizes();
await serversAlone();
await coldStart(productionExtension(production));
