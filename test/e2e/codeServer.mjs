// Starts code-server (VS Code for the browser) on loopback for one run, in throw-away profile directories,
// and stops it with its whole process group.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const WORKBENCH_SETTINGS = {
  'chat.disableAIFeatures': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'telemetry.telemetryLevel': 'off',
  'github.gitAuthentication': false,
};

/** A free TCP port on 127.0.0.1, as the kernel hands it out. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * @param {{ node: string, codeServerEntry: string }} tools from install.mjs
 * @param {{ runDir?: string, port?: number, onLog?: (line: string) => void, startTimeoutMs?: number, workspaceTrust?: boolean, env?: Record<string, string>, settings?: Record<string, unknown> }} options
 *   `workspaceTrust`: leave VS Code's Workspace Trust on (a new folder opens untrusted, in Restricted Mode, with no
 *   startup prompt); `env`: added to the environment of code-server and so of its extension host; `settings`: user
 *   settings added to the quiet defaults
 * @returns {Promise<{ port: number, origin: string, runDir: string, process: import('node:child_process').ChildProcess, stop(): Promise<void> }>}
 */
export async function startCodeServer(tools, { runDir, port, onLog = () => {}, startTimeoutMs = 60_000, workspaceTrust = false, env: extraEnv = {}, settings: extraSettings = {} } = {}) {
  const ownRunDir = !runDir;
  runDir ??= mkdtempSync(join(tmpdir(), 'agent-traces-e2e-'));
  const dirs = {
    userData: join(runDir, 'user-data'),
    extensions: join(runDir, 'extensions'),
    home: join(runDir, 'home'),
    config: join(runDir, 'xdg-config'),
    data: join(runDir, 'xdg-data'),
    cache: join(runDir, 'xdg-cache'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  // Quiet, offline-friendly defaults: no chat side bar, no update or gallery checks, no start page.
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  const settingsPath = join(dirs.userData, 'User', 'settings.json');
  const settings = {
    ...WORKBENCH_SETTINGS,
    ...(workspaceTrust ? { 'security.workspace.trust.startupPrompt': 'never' } : {}),
    ...extraSettings,
  };
  if (!existsSync(settingsPath)) writeFileSync(settingsPath, JSON.stringify(settings, null, 2) + '\n');

  port ??= await freePort();
  const args = [
    tools.codeServerEntry,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir', dirs.userData,
    '--extensions-dir', dirs.extensions,
    '--vscode-option', 'enable-smoke-test-driver',
  ];
  const env = {
    ...process.env,
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    // code-server reads these as defaults for its own flags; never let the caller's leak in.
    PASSWORD: '',
    HASHED_PASSWORD: '',
    VSCODE_PROXY_URI: '',
    ...extraEnv,
  };
  // detached: its own process group, so stop() ends the extension host and the language server with it.
  const child = spawn(tools.node, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });

  let stopped = false;
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    killGroup(child.pid, 'SIGTERM');
    const gone = await Promise.race([exited.then(() => true), delay(5_000).then(() => false)]);
    if (!gone) killGroup(child.pid, 'SIGKILL');
    // Children (extension host, language server) may outlive the leader by a moment.
    killGroup(child.pid, 'SIGKILL');
    if (ownRunDir) rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  };

  try {
    await new Promise((resolveReady, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not report "HTTP server listening on" within ${startTimeoutMs / 1000} s`)), startTimeoutMs);
      let buffered = '';
      const onData = (chunk) => {
        buffered += chunk.toString();
        let newline;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, newline).trimEnd();
          buffered = buffered.slice(newline + 1);
          if (line) onLog(line);
          if (line.includes('HTTP server listening on')) {
            clearTimeout(timer);
            resolveReady();
          }
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`code-server could not start: ${error.message}`));
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`code-server exited before it was ready (${signal ?? `exit ${code}`})`));
      });
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, origin: `http://127.0.0.1:${port}`, runDir, process: child, stop };
}

/** Kills a process group synchronously (usable from 'exit' handlers); ignores groups that are already gone. */
export function killGroup(pid, signal) {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function delay(ms) {
  return new Promise((resolveDelay) => setTimeout(resolveDelay, ms).unref());
}
