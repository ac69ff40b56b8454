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
// Usage: node bench/web.bench.mjs (after node esbuild.mjs; npm run bench -- web)   WEB_BENCH_ROUNDS (default 3)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
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
}

/** A folder of 1 MB traces, each with one output answering a call id that does not exist (the seeded fault). */
function traceFolder(name) {
  const require = createRequire(import.meta.url);
  const { generateTrace } = require(join(repoRoot, 'out', 'bench', 'generateTrace.js'));
  const folder = join(runDir, name);
  mkdirSync(folder);
  for (const [index, file] of ['a-cold', 'b-warm', 'c-warm'].entries()) {
    const text = generateTrace(traceBytes, index + 1, { outputLines: [10, 30] });
    const at = text.lastIndexOf('"tool_call_id": "');
    const seeded = `${text.slice(0, at)}"tool_call_id": "call_that_never_was", "was": "${text.slice(at + '"tool_call_id": "'.length)}`;
    writeFileSync(join(folder, `${file}.trace.json`), seeded);
  }
  return folder;
}

async function coldStart() {
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
        const { exitCode, reported } = await runInHost(context, servers[kind], kind, folder, coldOpenModule, { markers: ['WEB_BENCH'] });
        clearTimeout(limit);
        await context.close();
        const result = reported.WEB_BENCH;
        if (exitCode !== 0 || !result) throw new Error(`round ${round} in the ${kind} host failed (exit ${exitCode})`);
        if (result.host !== kind || result.activeBefore) {
          throw new Error(`round ${round} ran in the ${result.host} host (wanted ${kind}) or with the extension already active`);
        }
        results[kind].push(result);
        console.log(`round ${round}, ${kind}: cold ${result.coldMs.toFixed(0)} ms, warm ${result.warmMs.map((ms) => ms.toFixed(0)).join(' / ')} ms`);
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
  console.log(`\nCold start in code-server, a 1 MB trace, open → diagnostics (median of ${rounds} fresh windows each, ms):`);
  console.log('| | Node server (Node extension host) | web worker (web extension host) | web ÷ Node |');
  console.log('|---|---|---|---|');
  row('first trace: activation, server start, read and check (cold)', (r) => r.coldMs);
  row('next traces of the same size (warm)', (r) => median(r.warmMs));
}

bundleSizes();
await coldStart();
