// Opens the extension in VS Code on the project's examples/ (the files themselves, not a copy):
//   npm start              code-server (VS Code in the browser) on 127.0.0.1; prints the address; Ctrl+C stops it
//   npm start -- --desktop  `code --extensionDevelopmentPath=<repo> examples` when the `code` command exists
//   npm start -- --port 8080   a fixed port instead of a free one
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCodeServer, killGroup } from './codeServer.mjs';
import { ensureTools, repoRoot, ToolsUnavailableError } from './install.mjs';
import { buildIfStale, examplesDir } from './prepare.mjs';
import { workbenchUrl } from './workbench.mjs';

const args = process.argv.slice(2);

try {
  buildIfStale();
} catch (error) {
  console.error(`[start] ${error.message}`);
  process.exit(1);
}

if (args.includes('--desktop')) {
  const found = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  if (found.status === 0 && found.stdout.trim()) {
    console.log(`[start] code --extensionDevelopmentPath=${repoRoot} ${examplesDir}`);
    const child = spawn('code', [`--extensionDevelopmentPath=${repoRoot}`, examplesDir], { stdio: 'inherit' });
    child.on('exit', (code) => process.exit(code ?? 0));
    // `code` hands over to the running VS Code and returns; nothing else to wait for.
  } else {
    console.log('[start] the `code` command is not on PATH; opening VS Code in the browser instead');
    await startInBrowser();
  }
} else {
  await startInBrowser();
}

async function startInBrowser() {
  let tools;
  try {
    tools = await ensureTools();
  } catch (error) {
    if (error instanceof ToolsUnavailableError) {
      console.error(`[start] cannot install code-server: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const portIndex = args.indexOf('--port');
  const runDir = mkdtempSync(join(tmpdir(), 'agent-traces-start-'));
  let server;
  let stopping = false;
  const stop = async (code) => {
    if (stopping) return;
    stopping = true;
    if (server) await server.stop();
    rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  process.on('exit', () => killGroup(server?.process.pid, 'SIGKILL'));

  server = await startCodeServer(tools, {
    runDir,
    port: portIndex >= 0 ? Number(args[portIndex + 1]) : undefined,
    onLog: (line) => {
      if (/error/i.test(line) && !/ENOTFOUND|getaddrinfo|gallery/i.test(line)) console.log(`[code-server] ${line}`);
    },
  });
  server.process.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[start] code-server stopped (${signal ?? `exit ${code}`})`);
    void stop(1);
  });
  const url = workbenchUrl(server, examplesDir, [['extensionDevelopmentPath', repoRoot]]);
  console.log('');
  console.log('  Agent Traces is running in VS Code for the browser, on the files in examples/.');
  console.log(`  Open: ${url}`);
  console.log('  Edits are saved to examples/. After changing the extension, run `node esbuild.mjs` and reload the page.');
  console.log('  Press Ctrl+C to stop.');
  console.log('');
}
